#!/usr/bin/env python3
"""`make serve`: the club laptop serves the phones of the room's Wi-Fi, with a real server.

The production settings under granian (a WSGI server), on 0.0.0.0:8000 by default, with:

- a secret key made on first use and kept in var/secret_key (mode 0600, never committed);
- plain HTTP (TAROTCLUB_PLAIN_HTTP=1): a room's Wi-Fi has no certificate for the laptop;
- ALLOWED_HOSTS: this machine's names and addresses (what the phones type or scan), not "*",
  so a web page elsewhere cannot reach the club's site through a look-alike host name;
- translations compiled, static files collected (served by the app itself), the database
  migrated: the same SQLite file as `make run` (var/tarotclub.sqlite3);
- the address the phones should open, printed with its QR code.

Finding the addresses sends nothing on the network: it asks the system for the machine's
own addresses (a UDP socket's connect() only picks a route, no packet leaves).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tarotclub.settings.secret_key import secret_key_problem  # noqa: E402

KEY_FILE = "secret_key"
ANY = {"", "0.0.0.0", "::", "[::]"}


def var_dir() -> Path:
    return Path(os.environ.get("TAROTCLUB_VAR_DIR") or ROOT / "var")


def secret_key(var: Path) -> str:
    """The key in var/secret_key, made (mode 0600) when there is none yet."""
    path = var / KEY_FILE
    if path.exists():
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            raise SystemExit(
                f"{path} can be read by other users of this computer. Make it private with "
                f"`chmod 600 {path}`, or delete it to make a new key (everyone is logged out)."
            )
        key = path.read_text(encoding="ascii").strip()
        problem = secret_key_problem(key)
        if problem:
            raise SystemExit(
                f"The secret key in {path} is not fit for use ({problem}). Delete the file: "
                "the next start makes a new one."
            )
        return key
    var.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    while secret_key_problem(key):  # pragma: no cover (astronomically rare)
        key = secrets.token_urlsafe(50)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        os.fchmod(f.fileno(), 0o600)
        f.write(key + "\n")
    return key


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the one of the default route first."""
    found: list[str] = []
    # The address the system would use for the default route: connect() on a UDP socket
    # only chooses the route; nothing is sent.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    hostname = shutil.which("hostname")
    if hostname and sys.platform.startswith("linux"):
        try:
            out = subprocess.run(
                [hostname, "-I"], capture_output=True, text=True, timeout=3, check=False
            ).stdout
            found.extend(out.split())
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    unique = list(dict.fromkeys(a for a in found if _usable(a)))
    # private addresses (the room's Wi-Fi) before any other
    return sorted(unique, key=lambda a: not ipaddress.ip_address(a).is_private)


def allowed_hosts(addresses: list[str]) -> list[str]:
    name = socket.gethostname()
    hosts = ["localhost", "127.0.0.1", "[::1]", *addresses]
    if name:
        hosts += [name, f"{name}.local"]  # mDNS: "laptop.local" on most phones
    extra = os.environ.get("DJANGO_ALLOWED_HOSTS", "")
    hosts += [h.strip() for h in extra.split(",") if h.strip()]
    return list(dict.fromkeys(hosts))


def phone_url(bind: str, port: int, addresses: list[str]) -> str:
    if bind in ANY:
        host = addresses[0] if addresses else "127.0.0.1"
    else:
        host = f"[{bind}]" if ":" in bind else bind
    return f"http://{host}:{port}/"


def qr_text(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def manage(env: dict, *args: str) -> None:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"`python manage.py {' '.join(args)}` failed ({done.returncode}).")


def server_env(var: Path, hosts: list[str]) -> dict:
    """The environment the server runs in: production settings, plain HTTP, this var/ folder."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="tarotclub.settings.production",
        DJANGO_SECRET_KEY=secret_key(var),
        DJANGO_ALLOWED_HOSTS=",".join(hosts),
        TAROTCLUB_PLAIN_HTTP="1",
        TAROTCLUB_VAR_DIR=str(var),
        PYTHONUNBUFFERED="1",
    )
    return env


def prepare(env: dict, *, translations: bool = True) -> None:
    """Translations compiled, static files collected, the database migrated."""
    if translations:
        manage(env, "compilemessages", "--ignore=.venv", "--ignore=var", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    manage(env, "migrate", "--noinput", "-v", "0")


# Processes and threads. A request here is Python work (templates, the ORM) between short
# database calls, so the GIL lets one process use about one core: one process per core
# (2 on a 2-core laptop) uses both, and more processes only share the same two cores (and
# each holds its own copy of the site in memory). The server is granian: it accepts, parses
# and answers the connections in Rust, outside the GIL; gunicorn's gthread workers, which
# `make serve` ran before, do that in Python, on the same cores and under the same GIL.
# Fifty phones in a burst with every sheet polling (bench/load.py), five runs of each taken in
# turn on SQLite, medians: granian 2 × 2 saved 136 deals a second with a save p95 of 439 ms
# and p99 of 488 ms, gunicorn 2 × 2 106 a second, 557 ms and 628 ms; the server's CPU time per
# request 7.7 ms instead of 8.7. On PostgreSQL (three runs each): 116 a second, p95 638 ms,
# against 84 a second, 788 ms.
# Threads: on SQLite a save holds the one write lock (BEGIN IMMEDIATE, see settings) from its
# BEGIN to its COMMIT, and each of its statements lets go of the GIL; the more threads a
# process runs, the longer other threads keep the GIL meanwhile, and every save of both
# processes queues behind the lock (gunicorn: four threads a process held a 2 ms save's lock
# 4-11 ms, two threads 2.3-2.7 ms). One thread a process did a little better in the burst
# (granian 2 × 1: 154-194 a second, p95 303-428 ms), but a thread is also what a phone holds
# while its request arrives: a phone whose Wi-Fi drops halfway through sending a deal holds
# its thread until the connection dies, and neither granian nor gunicorn times that out. With
# two threads a process, such a phone stops nobody (tests/core/test_serve.py).
# Measured again on 2026-12-04 (SQLite, runs taken in turn): 3 × 1 saved a median 232 deals
# a second (193-283, 7 runs), 2 × 2 a median 194 (122-245, 11 runs); 3 × 1 is left out
# for the phone that drops: it would stop a third of the room. A per-process turn (the
# request's body read first, then one request at a time in the process, as nginx in front
# of single-threaded workers would do) with 3 × 2 did not keep the gain: 197 a second
# against 175 for 2 × 2 (132-211 and 122-245, 6 runs each), within this machine's noise.
# bench/load.py (`make bench-load`, --workers/--threads) measures the choice.
WORKERS = 2
THREADS = 2


def server_command(bind: str, port: int, *, workers: int = WORKERS, threads: int = THREADS):
    """The command line of `make serve`: granian serving the WSGI application.

    HTTP/1.1 only (what a phone's browser speaks to a plain-HTTP server), no WebSockets. An idle
    connection stays open (HTTP keep-alive, granian's default has no idle limit), so an open
    sheet polls every 4 s on the connection it has instead of a new TCP connection every time.
    A worker that dies is started again."""
    bind = bind.strip("[]")
    return [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "wsgi",
        "--host",
        bind or "0.0.0.0",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--blocking-threads",
        str(threads),
        "--http",
        "1",
        "--no-ws",
        "--respawn-failed-workers",
        "--workers-kill-timeout",
        "10",
        "--working-dir",
        str(ROOT),
        "--log-level",
        "warning",
        "tarotclub.wsgi:application",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on (0.0.0.0: all)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=WORKERS, help="processes (one per core)")
    parser.add_argument("--threads", type=int, default=THREADS, help="threads per process")
    args = parser.parse_args(argv)

    var = var_dir()
    var.mkdir(parents=True, exist_ok=True)
    addresses = lan_addresses()
    env = server_env(var, allowed_hosts(addresses))
    print("Preparing: translations, static files, database…", flush=True)
    prepare(env)

    url = phone_url(args.bind, args.port, addresses)
    database = (
        "the database of DATABASE_URL"
        if env.get("DATABASE_URL")
        else str(var / "tarotclub.sqlite3")
    )
    print(
        "\nTarot club server (production settings, granian, plain HTTP for this room).\n"
        f"Phones on this Wi-Fi open:\n\n    {url}\n",
        flush=True,
    )
    print(qr_text(url), flush=True)
    if args.bind in ANY:
        print(f"On this laptop: http://127.0.0.1:{args.port}/")
    print(f"Data: {database}. Stop with Ctrl+C.\n", flush=True)

    command = server_command(args.bind, args.port, workers=args.workers, threads=args.threads)
    os.chdir(ROOT)
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main()
