"""What every request and response goes through: the Host check, the size cap, and the headers every
response carries (the app's own and the WSGI server's error pages alike)."""

from __future__ import annotations

import re
from functools import lru_cache

from flask import request
from werkzeug.exceptions import BadHost

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
MAX_BODY_BYTES = 64 * 1024  # a request body (linkify posts); larger is a 413 from the app and the server alike

# A host name is labels of letters, digits, hyphens (and underscores, which private networks use) of at
# most 63 characters, joined by dots; or an IP literal in brackets. Checked label by label: one regex
# over the whole name would backtrack exponentially on a long label that fails at its end.
LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_\-]{0,61}[A-Za-z0-9_])?")
IP_LITERAL = re.compile(r"\[[0-9A-Fa-f:.]{2,45}\]")
PORT = re.compile(r"[0-9]{1,5}")


@lru_cache(maxsize=256)  # every request asks, nearly always of the same few names
def is_host(host: str) -> bool:
    """``name`` or ``name:port`` as a Host header may say it."""
    name, colon, port = host.rpartition(":") if host.count(":") == 1 or "]:" in host else (host, "", "")
    if colon and not PORT.fullmatch(port):
        return False
    if name.startswith("["):
        return bool(IP_LITERAL.fullmatch(name))
    labels = name.removesuffix(".").split(".")
    if len(name) > 253 or not all(LABEL.fullmatch(label) for label in labels):
        return False
    try:
        name.encode("ascii").decode("idna")  # Werkzeug decodes it when it builds the host URL
    except UnicodeError:
        return False
    return True


def check_host() -> None:
    """A Host header that is no host name (a label over 63 characters, ``a..b``, broken punycode) is a
    400 before anything builds a URL from it (Werkzeug raises a bare UnicodeError on some)."""
    if not is_host(request.host):
        raise BadHost()
