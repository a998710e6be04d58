"""A real ``rulings serve`` on a free loopback port, for the tests and benchmarks that speak HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
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
    """Starts ``command --port N``, waits until it answers, yields its URL, stops it afterwards."""
    port = free_port()
    proc = subprocess.Popen([*command, "--port", str(port)], env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(url + "/", proc, timeout)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def wait_until_answering(url: str, proc: subprocess.Popen, timeout: float) -> None:
    """Until ``url`` answers (even with an error status: the test will say which) or ``proc`` exits."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args[0]} exited: {proc.stderr.read().decode()}") from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"{proc.args[0]} did not answer within {timeout:.0f} s") from None
            time.sleep(0.1)


def status_of(url: str) -> int:
    """The HTTP status a GET of ``url`` answers (0 when nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0
