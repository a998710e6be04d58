"""Debian's nginx running ``deploy/nginx.conf`` on a free loopback port, for tests and benchmarks.

The site file is used as shipped; only what the file marks CHANGE (the listening port, the
upstream servers, the static folder) is filled in, inside a minimal main configuration that
runs without root and writes nothing outside a temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .server import free_port, wait_until_answering

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

MAIN = """
{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 2048; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    log_format upstream '$upstream_addr $status $request_uri $upstream_cache_status';
    access_log {tmp}/access.log upstream;
    client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy; fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
"""


def installed() -> bool:
    return Path(NGINX).exists()


def site_config(port: int, upstreams: list[str], static: Path, cache: Path, rate_limits: bool = True) -> str:
    """deploy/nginx.conf with its CHANGE lines filled in, its cache in ``cache`` (and, for load
    generators, which are one client address, without the per-client limits)."""
    text = SITE.read_text()
    text = re.sub(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{port};", text, count=1, flags=re.M)
    servers = "".join(f"    server {address};\n" for address in upstreams)
    text = re.sub(r"^\s*server 127\.0\.0\.1:5000;.*\n", servers, text, count=1, flags=re.M)
    text = re.sub(r"^(\s*alias )\S+;", rf"\g<1>{static}/;", text, count=1, flags=re.M)
    text = re.sub(r"^(proxy_cache_path )\S+", rf"\g<1>{cache}", text, count=1, flags=re.M)
    if not rate_limits:
        text = re.sub(r"^\s*limit_(req|conn) .*\n", "", text, flags=re.M)
    return text


@contextmanager
def running_nginx(upstreams: list[str], static: Path, rate_limits: bool = True) -> Iterator[tuple[str, Path]]:
    """nginx in front of ``upstreams`` (host:port); yields its URL and its access log."""
    with _running(
        lambda port, tmp: site_config(port, upstreams, static, tmp / "cache", rate_limits), "/static/style.css"
    ) as running:
        yield running


@contextmanager
def running_static_nginx(root: Path, probe: str = "/") -> Iterator[str]:
    """nginx serving the files of ``root`` (an export of the site) as a static host would; yields its URL."""

    def site(port: int, _tmp: Path) -> str:
        return f"server {{ listen 127.0.0.1:{port}; root {root}; index index.html; }}\n"

    with _running(site, probe) as (url, _):
        yield url


@contextmanager
def _running(site, probe: str) -> Iterator[tuple[str, Path]]:
    """nginx running ``site(port, its folder)`` on a free port, answering ``probe``; yields its URL and access log."""
    tmp = Path(tempfile.mkdtemp(prefix="rulings-nginx-"))
    port = free_port()
    (tmp / "site.conf").write_text(site(port, tmp))
    user = "user root root;\n" if os.geteuid() == 0 else ""  # workers read the static folder as we do
    (tmp / "nginx.conf").write_text(MAIN.format(tmp=tmp, user=user))
    proc = subprocess.Popen(
        [NGINX, "-c", str(tmp / "nginx.conf"), "-p", str(tmp), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(url + probe, proc, timeout=10)
        yield url, tmp / "access.log"
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stderr.close()
        shutil.rmtree(tmp, ignore_errors=True)
