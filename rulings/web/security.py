"""What every request and response goes through: the Host check, the size cap, and the headers every
response carries (the app's own and the WSGI server's error pages alike)."""

from __future__ import annotations

import re

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

# A host name (labels of letters, digits, hyphens, underscores; at most 63 characters each) or an IP
# literal, and an optional port.
HOST = re.compile(r"(?:[A-Za-z0-9_](?:[A-Za-z0-9_\-]{0,61}[A-Za-z0-9_])?\.?)+|\[[0-9A-Fa-f:.]+\]")
PORT = re.compile(r"(?::\d{1,5})?")


def check_host() -> None:
    """A Host header that is no host name (a label over 63 characters, ``a..b``, broken punycode) is a
    400 before anything builds a URL from it (Werkzeug raises a bare UnicodeError on some)."""
    host = request.host
    name, port = (host, "") if host.endswith("]") or host.count(":") != 1 else host.split(":")
    if len(name) > 253 or not HOST.fullmatch(name) or not PORT.fullmatch(f":{port}" if port else ""):
        raise BadHost()
    try:
        name.encode("ascii").decode("idna")
    except UnicodeError:
        raise BadHost() from None
