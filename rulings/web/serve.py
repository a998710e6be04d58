"""``rulings serve``: waitress with the limits a server facing the public needs.

Waitress's defaults suit a trusted network: 100 connections (about 100 idle clients stopped
every new request), two minutes before an idle connection is closed, request bodies up to
1 GiB buffered before the app can refuse them. Here idle clients are cheap (waitress holds
them in its event loop, not in a thread), so the limit is high and descriptors are provided
for it; idle connections go after ``channel_timeout``; bodies and headers are capped at what
the app accepts; and waitress's own error answers (400, 413, 431...) carry the app's
security headers. In front of the public, put nginx (``deploy/nginx.conf``).
"""

from __future__ import annotations

import resource
import socket
import sys

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
from waitress.task import ErrorTask

from ..errors import BadRequest
from ..settings import ServerOptions
from .security import MAX_BODY_BYTES, SECURITY_HEADERS

MAX_HEADER_BYTES = 64 * 1024  # request line and headers (the longest URL the site makes is far shorter)
# Seconds a thread keeps Python's interpreter lock while another waits for it (Python's default: 0.005). A
# thread at costly work (a search, a report, a post to link) hands it to one answering a page within a
# millisecond: pages wait less behind costly requests (web/budget.py), at a small cost in switches.
SWITCH_INTERVAL = 0.001
SPARE_DESCRIPTORS = 64  # beyond one per connection: the build's files, the listening sockets, logs


class SecureErrorTask(ErrorTask):
    """Waitress's own error answers (malformed request, headers or body too large) with the app's headers."""

    def execute(self):
        self.response_headers.extend(SECURITY_HEADERS.items())
        super().execute()


class SecureChannel(HTTPChannel):
    error_task_class = SecureErrorTask


def create(app, options: ServerOptions):
    """A waitress server listening as ``options`` say (not yet running); one clear error if it cannot."""
    app.config["TIME_LIMIT"] = options.time_limit
    app.config["SERVER_THREADS"] = options.threads  # a new build opens a set of searchers for each
    sys.setswitchinterval(SWITCH_INTERVAL)
    _provide_descriptors(options.connection_limit)
    try:
        server = create_server(
            app,
            host=options.host,
            port=options.port,
            threads=options.threads,
            connection_limit=options.connection_limit,
            channel_timeout=options.channel_timeout,
            cleanup_interval=max(1, min(30, options.channel_timeout // 2)),
            backlog=options.backlog,
            asyncore_use_poll=True,  # select() cannot watch descriptors past 1023
            max_request_header_size=MAX_HEADER_BYTES,
            max_request_body_size=MAX_BODY_BYTES,
            ident="rulings",
            clear_untrusted_proxy_headers=True,
        )
    except (socket.gaierror, ValueError):  # waitress resolves the host first: ValueError when it cannot
        raise BadRequest(f"cannot listen on {options.host}:{options.port}: not a host name or address") from None
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise BadRequest(f"cannot listen on {options.host}:{options.port}: {reason}") from None
    listeners = (server.map or {}).values() if isinstance(server, MultiSocketServer) else [server]
    for listener in listeners:
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = SecureChannel
    return server


def addresses(server) -> list[str]:
    """Where the server listens, as URLs."""
    listening = server.effective_listen if isinstance(server, MultiSocketServer) else [
        (server.effective_host, server.effective_port)
    ]  # fmt: skip
    return [f"http://{f'[{host}]' if ':' in host else host}:{port}/" for host, port in listening]


def _provide_descriptors(connection_limit: int) -> None:
    """Raise the soft limit on open files as far as needed (and allowed) for ``connection_limit``."""
    needed = connection_limit + SPARE_DESCRIPTORS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise BadRequest(
                f"--connection-limit {connection_limit} needs {needed} open files but the limit is {hard} "
                "(ulimit -n); lower --connection-limit or raise the limit"
            )
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
