"""A real ``rulings serve`` on a free loopback port, for the tests and benchmarks that speak HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(
    env: dict[str, str],
    command: tuple[str, ...] = (sys.executable, "-m", "rulings", "serve"),
    cwd: Path | None = None,
    timeout: float = 30.0,
) -> Iterator[str]:
    """Starts ``command --port N``, waits until it answers, yields its URL, stops it afterwards.

    The server's stderr goes to a temporary file, never to a pipe nobody reads while it runs: a busy
    server logs (waitress warns of every queued task), and once a pipe's 64 KiB are full its next
    write blocks, and with it the whole server."""
    port = free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([*command, "--port", str(port)], env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=log)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(url + "/", proc, timeout, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def wait_until_answering(url: str, proc: subprocess.Popen, timeout: float, log=None) -> None:
    """Until ``url`` answers (even with an error status: the test will say which) or ``proc`` exits
    (its error read from ``log``, the file its stderr goes to, else from its stderr pipe)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args[0]} exited: {_read_all(log or proc.stderr)}") from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"{proc.args[0]} did not answer within {timeout:.0f} s") from None
            time.sleep(0.1)


def _read_all(stream) -> str:
    if stream is None:
        return ""
    if stream.seekable():
        stream.seek(0)
    data = stream.read()
    return data.decode(errors="replace") if isinstance(data, bytes) else data


def status_of(url: str) -> int:
    """The HTTP status a GET of ``url`` answers (0 when nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0
