"""`rulings serve` as a public server: options checked, idle clients cannot starve it (alone and
behind deploy/nginx.conf), waitress's own refusals carry the security headers."""

from __future__ import annotations

import os
import re
import socket
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import closing

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.web.security import SECURITY_HEADERS

from .conftest import CORPUS, assert_clean_exit
from .nginx import NGINX, SITE, running_nginx
from .server import free_port, running_server
from .system import required

SERVE = (sys.executable, "-m", "rulings", "serve")
NORMAL = [
    "/",
    "/marvel-champions/terms/guard",
    "/marvel-champions/v/1.1/terms/guard",
    "/api/search?q=guard",
    "/search?q=hit+points&game=marvel-champions",
    "/static/style.css",
]


@pytest.fixture
def env(store_dir) -> dict:
    return dict(os.environ, RULINGS_STORE=str(store_dir), RULINGS_CORPUS=str(CORPUS))


def serve(env: dict, *args: str):
    result = CliRunner().invoke(main, ["serve", *args], env=env)
    assert_clean_exit(result)
    return result


@pytest.mark.parametrize(
    "args,message",
    [
        (("--port", "99999"), "'--port': 99999 is not in the range 1<=x<=65535"),
        (("--port", "0"), "'--port': 0 is not in the range"),
        (("--threads", "0"), "'--threads': 0 is not in the range 1<=x<=256"),
        (("--connection-limit", "0"), "'--connection-limit': 0 is not in the range"),
        (("--channel-timeout", "0"), "'--channel-timeout': 0 is not in the range"),
        (("--backlog", "-1"), "'--backlog': -1 is not in the range"),
        (("--time-limit", "0"), "'--time-limit': 0.0 is not in the range 0.1<=x<=600"),
    ],
)
def test_out_of_range_options_are_usage_errors(env, args, message):
    result = serve(env, *args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid", "-x", "a" * 300])
def test_a_bad_host_is_one_line(env, host):
    result = serve(env, "--host", host, "--port", str(free_port()))
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith(f"error: cannot listen on {host}:"), result.output


def test_an_address_in_use_or_not_ours_is_one_line(env):
    with closing(socket.socket()) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve(env, "--port", str(port))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: cannot listen on 127.0.0.1:{port}: address already in use"
    port = free_port()
    result = serve(env, "--host", "192.0.2.1", "--port", str(port))  # TEST-NET-1: no interface has it
    assert result.exit_code == 2
    assert result.output.strip() == f"error: cannot listen on 192.0.2.1:{port}: cannot assign requested address"


def hold_idle_connections(url: str, count: int) -> list[socket.socket]:
    """``count`` connections that send nothing, or (one in three) a request they never finish."""
    parsed = urllib.parse.urlparse(url)
    held = []
    for number in range(count):
        sock = socket.create_connection((parsed.hostname, parsed.port), timeout=5)
        if number % 3 == 0:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: idle.example\r\n")
        held.append(sock)
    return held


def timed_requests(url: str, rounds: int = 3) -> list[float]:
    """Milliseconds per normal request (each must answer 200 within 5 s)."""
    out = []
    for _ in range(rounds):
        for path in NORMAL:
            start = time.perf_counter()
            with urllib.request.urlopen(url + path, timeout=5) as response:
                response.read()
                assert response.status == 200, path
            out.append((time.perf_counter() - start) * 1000)
    return out


def test_300_idle_connections_do_not_stop_normal_requests(env):
    with running_server(env, SERVE) as url:
        alone = timed_requests(url)
        held = hold_idle_connections(url, 300)
        try:
            beside = timed_requests(url)  # with waitress's defaults (100 connections) these hang
        finally:
            for sock in held:
                sock.close()
    print(
        f"\n300 idle connections against rulings serve: normal requests median {statistics.median(beside):.1f} ms "
        f"(alone {statistics.median(alone):.1f} ms), max {max(beside):.1f} ms, {len(beside)} requests, all 200"
    )


def test_idle_connections_are_closed_after_the_channel_timeout(env):
    with running_server(env, SERVE + ("--channel-timeout", "2")) as url:
        held = hold_idle_connections(url, 30)
        opened, closed = time.monotonic(), []
        for sock in held:
            sock.settimeout(2 + 1 + 1)  # the timeout, waitress's check interval (half the timeout), a margin
            try:
                assert sock.recv(1024) == b""  # waits until the server closes it
            except ConnectionResetError:
                pass  # closed with a request left unread
            finally:
                closed.append(time.monotonic() - opened)
                sock.close()
        assert closed[0] > 1.5  # not before the 2 s of --channel-timeout (less the time opening them took)
        timed_requests(url, rounds=1)


def raw_request(url: str, data: bytes) -> tuple[int, dict, bytes]:
    """Send ``data`` as is; the status, headers and body of the answer (read to its Content-Length:
    a server refusing a body may keep the connection open a while to drain it)."""
    parsed = urllib.parse.urlparse(url)
    with socket.create_connection((parsed.hostname, parsed.port), timeout=5) as sock:
        sock.sendall(data)
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < _length(answer):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except ConnectionResetError:
            pass  # the server answered and closed without reading the rest of what it refused
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def _length(answer: bytes) -> int:
    match = re.search(rb"\r\ncontent-length: *(\d+)", answer.partition(b"\r\n\r\n")[0], re.I)
    return int(match.group(1)) if match else 1 << 30


def test_waitress_refusals_carry_the_security_headers(env):
    with running_server(env, SERVE) as url:
        cases = {
            431: b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n",
            413: b"POST /api/marvel-champions/linkify HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
            400: b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        }
        for status, data in cases.items():
            got, headers, _ = raw_request(url, data)
            assert got == status, (status, headers)
            for name, value in SECURITY_HEADERS.items():
                assert headers.get(name) == value, (status, name, headers)


def test_the_nginx_config_sends_the_apps_security_headers():
    site = SITE.read_text()
    for name, value in SECURITY_HEADERS.items():
        assert f'add_header {name} "{value}" always;' in site, name
        assert f"proxy_hide_header {name};" in site, name
    assert re.search(r"client_max_body_size 64k;", site)


@pytest.fixture
def nginx() -> str:
    return required("Debian's nginx", [NGINX], "nginx")


needs_nginx = pytest.mark.usefixtures("nginx")


@needs_nginx
def test_behind_nginx_300_idle_connections_do_not_stop_normal_requests(env, app):
    with running_server(env, SERVE) as upstream:
        with running_nginx([upstream.removeprefix("http://")], app.static_folder) as (url, log):
            alone = timed_requests(url)
            held = hold_idle_connections(url, 300)
            try:
                beside = timed_requests(url)
            finally:
                for sock in held:
                    sock.close()
            pinned = urllib.request.urlopen(url + "/marvel-champions/v/1.1/terms/guard", timeout=5)
            assert pinned.headers["Cache-Control"] == "public, max-age=3600"
            again = urllib.request.urlopen(url + "/marvel-champions/v/1.1/terms/guard", timeout=5)
            assert again.read() == pinned.read() and again.headers["ETag"] == pinned.headers["ETag"]
            current = urllib.request.urlopen(url + "/marvel-champions/terms/guard").headers
            assert current["Cache-Control"] == "public, no-cache" and current["ETag"]
            for name, value in SECURITY_HEADERS.items():
                assert pinned.headers.get_all(name) == [value]  # once, not the app's and nginx's
            assert urllib.request.urlopen(url + "/static/app.js").headers.get_all("Content-Security-Policy")
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(url + "/static/__init__.py")
            assert refused.value.code == 404
            lines = log.read_text().splitlines()
    static_requests = [line for line in lines if "/static/" in line]
    assert static_requests and all(line.startswith("- ") for line in static_requests)  # no upstream: nginx served
    pinned_requests = [line.split() for line in lines if "/v/1.1/terms/guard" in line]
    assert pinned_requests[0][0] != "-" and pinned_requests[0][-1] == "MISS"  # asked of the app once...
    assert {(p[0], p[-1]) for p in pinned_requests[1:]} == {("-", "HIT")}  # ...then kept by nginx
    print(
        f"\n300 idle connections against nginx in front of rulings serve: normal requests median "
        f"{statistics.median(beside):.1f} ms (alone {statistics.median(alone):.1f} ms), max {max(beside):.1f} ms"
    )


@needs_nginx
def test_nginx_refuses_oversized_and_too_frequent_requests(env, app):
    with running_server(env, SERVE) as upstream:
        with running_nginx([upstream.removeprefix("http://")], app.static_folder) as (url, _):
            status, headers, _ = raw_request(
                url, b"POST /api/marvel-champions/linkify HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
            )
            assert status == 413 and headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
            statuses = []
            for _ in range(60):  # search: 10 a second with a burst of 20 per client
                try:
                    statuses.append(urllib.request.urlopen(url + "/api/search?q=guard", timeout=5).status)
                except urllib.error.HTTPError as error:
                    statuses.append(error.code)
    assert 200 in statuses and 429 in statuses and set(statuses) == {200, 429}
