#!/usr/bin/env python3
"""`make serve`: the club laptop serves the phones of the room's Wi-Fi, with a real server.

The production settings under gunicorn, on 0.0.0.0:8000 by default, with:

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


def _gunicorn_knows(setting: str) -> bool:
    from gunicorn import config

    return any(s.name == setting for s in config.KNOWN_SETTINGS)


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
# each holds its own copy of the site in memory). Threads let a process go on while a request
# waits on the database or on a slow phone. But on SQLite a save holds the one write lock
# (BEGIN IMMEDIATE, see settings) from its BEGIN to its COMMIT, and each of its statements lets
# go of the GIL: with four threads a process, the others (rendering polls and pages, reading
# forms) took it meanwhile, and a save of some 2 ms of work held the lock 4-11 ms (median;
# 12-23 ms at the 90th percentile) while every other save of both processes queued behind it.
# Fifty phones saving back to back with nothing else (bench/load.py --no-polls) then got
# 100-125 saves a second and the server never used more than one core of two; with two
# threads a process the lock is held 2.3-2.7 ms and they got up to 199 a second (1.5 cores),
# with one thread 188. With the polls too, on a machine whose other work left the server
# one core, two threads gave the burst's saves a median p95 of 1.0 s and p99 of 1.1 s over
# four runs, four threads 1.25 s and 1.4 s. On PostgreSQL (a row lock per game, no lock for
# the whole database) two and four threads did alike, within that machine's noise. Two rather
# than one keep a second request going in each process (a phone slow to send its request
# holds a thread, not the whole process).
# bench/load.py (`make bench-load`, --workers/--threads) measures the choice: fifty phones in
# a burst and a club evening.
WORKERS = 2
THREADS = 2
# Seconds an idle connection is kept open (HTTP keep-alive): longer than an open sheet waits
# between two polls (4 s, games/_sheet.html), so a phone polls on the connection it has, as
# its browser expects, instead of a new TCP connection every time (gunicorn's default, 2 s,
# is shorter). An idle connection costs the worker a socket in its poller, not a thread. It
# also spares the worker's main thread the close of a connection after each answer: recent
# gunicorn closes gracefully there, waiting (up to 2 s) for the phone to close its side,
# and accepts no other connection meanwhile.
KEEPALIVE = 5


def gunicorn_command(bind: str, port: int, *, workers: int = WORKERS, threads: int = THREADS):
    """The gunicorn command line of `make serve` (gthread workers)."""
    bind = f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "tarotclub.wsgi:application",
        "--chdir",
        str(ROOT),
        "--bind",
        f"{bind}:{port}",
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--keep-alive",
        str(KEEPALIVE),
        "--timeout",
        "60",
        "--graceful-timeout",
        "10",
    ]
    if _gunicorn_knows("control_socket_disable"):
        # Recent gunicorn versions open a control socket in the home folder: not needed, and two
        # servers on one machine would share it.
        command.append("--no-control-socket")
    return command


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
        "\nTarot club server (production settings, gunicorn, plain HTTP for this room).\n"
        f"Phones on this Wi-Fi open:\n\n    {url}\n",
        flush=True,
    )
    print(qr_text(url), flush=True)
    if args.bind in ANY:
        print(f"On this laptop: http://127.0.0.1:{args.port}/")
    print(f"Data: {database}. Stop with Ctrl+C.\n", flush=True)

    command = gunicorn_command(args.bind, args.port, workers=args.workers, threads=args.threads)
    os.chdir(ROOT)
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main()
