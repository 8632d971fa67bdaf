"""`make serve`: the club laptop's real server (granian, production settings, static files).

The test runs the very script the Makefile runs, on a free loopback port with its own var/
folder, twice: the secret key is made once (mode 0600) and kept.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bin" / "serve.py"
STARTUP = 180  # seconds: collectstatic compresses every file on first start (2 busy cores)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:  # noqa: S310 (loopback only)
            return r.status, r.headers, r.read()  # case-insensitive names
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


class Server:
    def __init__(self, var: Path, port: int):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TAROTCLUB_"))}
        env.pop("DATABASE_URL", None)
        env.update(TAROTCLUB_VAR_DIR=str(var), PYTHONUNBUFFERED="1")
        self.log = var.parent / f"serve-{port}.log"
        self.out = open(self.log, "w")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), "--bind", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=self.out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the server and its workers
        )
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def output(self) -> str:
        self.out.flush()
        return self.log.read_text()

    def wait(self) -> None:
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"serve.py ended early ({self.proc.returncode}):\n{self.output()}")
            try:
                status, _h, _b = get(self.base + "/")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        pytest.fail(f"serve.py did not answer within {STARTUP} s:\n{self.output()}")

    def stop(self) -> None:
        """SIGTERM to the whole group (the server and its workers), then SIGKILL: bounded."""
        if self.out.closed:
            return
        try:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=20)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.out.close()


@pytest.fixture
def serve(tmp_path):
    servers: list[Server] = []

    def start(var: Path) -> Server:
        server = Server(var, free_port())
        servers.append(server)
        server.wait()
        return server

    yield start
    for server in servers:
        server.stop()


def test_make_serve_runs_the_whole_club_in_one_process(serve, tmp_path):
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^serve:.*\n(\t.*\n)*\t.*bin/serve\.py", makefile, re.M), "make serve"

    var = tmp_path / "var"
    server = serve(var)
    status, headers, body = get(server.base + "/")
    assert status == 200
    assert b'class="site-header"' in body
    assert "Content-Security-Policy" in headers
    # plain HTTP on the room's Wi-Fi: no redirect to https, no HSTS
    assert "Strict-Transport-Security" not in headers

    # a static file, by its hashed name, served by the app with far-future caching
    css = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)
    assert css, body[:2000]
    status, headers, _css = get(server.base + css.group(1).decode())
    assert status == 200
    assert "immutable" in headers["Cache-Control"]
    assert int(re.search(r"max-age=(\d+)", headers["Cache-Control"]).group(1)) >= 365 * 86400
    status, _h, _js = get(server.base + "/static/js/htmx.min.js")
    assert status == 200
    # the service worker, under the production static storage (a manifest: a name it does
    # not know is refused): its shell by the hashed names the pages use, and the prefix
    status, headers, sw = get(server.base + "/sw.js")
    assert status == 200, sw[:300]
    assert headers["Content-Type"].startswith("text/javascript")
    assert b'var STATIC = "/static/";' in sw
    assert b'"' + css.group(1) + b'"' in sw
    # compressed on the wire: the static file (WhiteNoise's own copy) and the page itself
    for path in (css.group(1).decode(), "/"):
        request = urllib.request.Request(server.base + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as r:  # noqa: S310 (loopback only)
            assert r.headers["Content-Encoding"] == "gzip", path

    # the login page, under the production settings
    status, _h, login = get(server.base + "/login/")
    assert status == 200

    an_open_sheet_polls_on_the_connection_it_has(server)
    a_phone_that_drops_halfway_through_a_save_stops_nobody(server)

    # the secret key: made on first use, readable by its owner only, kept for the next start
    key_file = var / "secret_key"
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    assert len(key) >= 50

    # the same SQLite file as `make run`
    assert (var / "tarotclub.sqlite3").exists()

    # the output tells the room where to go, with a QR code
    out = server.output()
    assert server.base + "/" in out
    assert "█" in out or "▀" in out  # the QR code drawn in the terminal
    server.stop()

    again = serve(var)
    assert key_file.read_text().strip() == key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert get(again.base + "/")[0] == 200
    assert again.base + "/" in again.output()


def test_lan_addresses_are_found_without_sending_anything():
    sys.path.insert(0, str(ROOT / "bin"))
    try:
        import serve as script
    finally:
        sys.path.remove(str(ROOT / "bin"))
    addresses = script.lan_addresses()
    assert all(not a.startswith("127.") for a in addresses)
    for a in addresses:
        socket.inet_aton(a)
    hosts = script.allowed_hosts(addresses)
    assert {"localhost", "127.0.0.1"} <= set(hosts)
    assert set(addresses) <= set(hosts)
    assert script.phone_url("0.0.0.0", 8000, ["192.168.1.20"]) == "http://192.168.1.20:8000/"
    assert script.phone_url("0.0.0.0", 8000, []) == "http://127.0.0.1:8000/"
    assert script.phone_url("127.0.0.1", 8123, ["192.168.1.20"]) == "http://127.0.0.1:8123/"


def test_a_key_file_others_can_read_is_refused(tmp_path):
    sys.path.insert(0, str(ROOT / "bin"))
    try:
        import serve as script
    finally:
        sys.path.remove(str(ROOT / "bin"))
    key = script.secret_key(tmp_path)
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert script.secret_key(tmp_path) == key
    (tmp_path / "secret_key").chmod(0o644)
    with pytest.raises(SystemExit, match="chmod 600"):
        script.secret_key(tmp_path)
    (tmp_path / "secret_key").chmod(0o600)
    (tmp_path / "secret_key").write_text("changeme")
    with pytest.raises(SystemExit, match="DJANGO_SECRET_KEY|secret key"):
        script.secret_key(tmp_path)


def poll_interval() -> int:
    """Seconds an open sheet waits between two polls (its hx-trigger)."""
    sheet = (ROOT / "templates" / "games" / "_sheet.html").read_text(encoding="utf-8")
    return int(re.search(r'hx-trigger="every (\d+)s"', sheet).group(1))


def an_open_sheet_polls_on_the_connection_it_has(server: Server) -> None:
    """The server keeps an idle connection longer than a sheet waits between two polls: a
    phone polls on the connection it has, without a new TCP connection every few seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/")
        first = connection.getresponse()
        first.read()
        assert first.status == 200
        assert (first.getheader("Connection") or "").lower() != "close"
        sock = connection.sock
        time.sleep(poll_interval() + 1)
        # the server has not closed its side: nothing to read, not the end of the stream
        sock.setblocking(False)
        with pytest.raises(BlockingIOError):
            sock.recv(1)
        sock.setblocking(True)
        sock.settimeout(10)
        connection.request("GET", "/")
        again = connection.getresponse()
        again.read()
        assert again.status == 200
        assert connection.sock is sock  # the same connection, not a new one
    finally:
        connection.close()


def a_phone_that_drops_halfway_through_a_save_stops_nobody(server: Server) -> None:
    """A phone whose Wi-Fi drops while it sends a deal leaves its request half sent, and no
    server times that out: it holds one thread, and the room's other phones go on."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 1000\r\n\r\nusername=an"
        )
        time.sleep(0.5)
        began = time.monotonic()
        for _ in range(8):  # new connections, spread over the processes
            status, _h, _b = get(server.base + "/")
            assert status == 200
        assert time.monotonic() - began < 10
    finally:
        sock.close()
