"""Backup and restore of the whole club, as the club runs them: `manage.py backup` and
`manage.py restore` in their own processes, each against its own database (SQLite files; and
PostgreSQL databases when DATABASE_URL names a PostgreSQL server), and the download on the site.

The standings of every tournament, the totals of every game, every other game's replay and
the history are identical after the round trip; new records get fresh ids; a backup taken while
phones write deals restores to a consistent club.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300


def pg_server_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


#: Every database this run can reach: SQLite always, PostgreSQL when the suite runs on it.
VENDORS = ["sqlite", *(["postgresql"] if pg_server_url() else [])]
#: The same, as parameters: the PostgreSQL ones are marked `database` (they reach the server of
#: DATABASE_URL through subprocesses), so the PostgreSQL run keeps them (conftest.py).
VENDOR_PARAMS = [
    pytest.param(v, marks=pytest.mark.database) if v == "postgresql" else v for v in VENDORS
]


def _pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(pg_server_url(), autocommit=True) as conn:
        conn.execute(sql)


class Site:
    """One club database, reached through subprocesses with the laptop's settings."""

    def __init__(self, vendor: str, folder: Path, dbname: str):
        self.vendor, self.folder, self.dbname = vendor, folder, dbname
        folder.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
        env.update(
            DJANGO_SETTINGS_MODULE="tarotclub.settings.dev",
            TAROTCLUB_VAR_DIR=str(folder),
            PYTHONPATH=str(ROOT),
        )
        if vendor == "postgresql":
            parts = urlsplit(pg_server_url())
            env["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + dbname))
        self.env = env

    @property
    def sqlite_file(self) -> Path:
        return self.folder / "tarotclub.sqlite3"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"{args} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
            )
        return done

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return self.run("manage.py", *args, check=check)

    def club(self, *args: str) -> dict:
        return json.loads(self.run("-m", "tests.core.club", *args).stdout)


class Sites:
    """Fresh migrated databases, copied from one migrated template per vendor."""

    def __init__(self, root: Path):
        self.root, self.templates, self.pg_databases = root, {}, []

    def _new(self, vendor: str) -> Site:
        name = f"tc_backup_{uuid.uuid4().hex[:10]}"
        if vendor == "postgresql":
            self.pg_databases.append(name)
        return Site(vendor, self.root / name, name)

    def fresh(self, vendor: str) -> Site:
        """An empty database with every migration applied (what `migrate` makes)."""
        if vendor not in self.templates:
            template = self._new(vendor)
            if vendor == "postgresql":
                _pg_admin(f'CREATE DATABASE "{template.dbname}"')
            template.manage("migrate", "--noinput", "-v", "0")
            self.templates[vendor] = template
        template = self.templates[vendor]
        site = self._new(vendor)
        if vendor == "postgresql":
            _pg_admin(f'CREATE DATABASE "{site.dbname}" TEMPLATE "{template.dbname}"')
        else:
            shutil.copy(template.sqlite_file, site.sqlite_file)
        return site

    def cleanup(self) -> None:
        for name in reversed(self.pg_databases):
            _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    made = Sites(tmp_path_factory.mktemp("backup"))
    yield made
    made.cleanup()


@pytest.fixture(scope="module")
def clubs(sites):
    """Per vendor: a built club, its fingerprint and a backup of it (built once)."""
    built = {}

    def get(vendor: str):
        if vendor not in built:
            site = sites.fresh(vendor)
            site.club("build")
            path = site.folder / "club.json.gz"
            out = site.manage("backup", str(path))
            assert str(path) in out.stdout
            built[vendor] = (site, site.club("fingerprint"), path)
        return built[vendor]

    return get


def read_backup(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def assert_same_club(restored: dict, original: dict) -> None:
    assert restored["tournaments"] == original["tournaments"]
    assert restored["tarot"] == original["tarot"]
    assert restored["others"] == original["others"]
    assert restored["changes"] == original["changes"]
    assert restored["history"] == original["history"]
    assert restored["counts"] == original["counts"]
    assert restored["max_ids"] == original["max_ids"]
    assert restored["zero_sum"] and original["zero_sum"]


def assert_fresh_ids(new: dict) -> None:
    for label, pk in new["ids"].items():
        assert pk > (new["before"][label] or 0), (label, pk, new["before"][label])


# --- the round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize("vendor", VENDOR_PARAMS)
def test_round_trip_keeps_the_whole_club(vendor, clubs, sites):
    source, original, path = clubs(vendor)
    # the club is really there: tournaments, tarot and other games, history
    assert len(original["tournaments"]) == 2 and len(original["tarot"]) == 5
    # (the history holds every roster and tournament write of the build, and the test entries)
    assert len(original["others"]) == 4 and len(original["history"]) >= 2
    assert original["counts"]["variants.ChallengeAward"] == 2
    data = read_backup(path)
    assert data["format"] == "tarotclub-backup" and data["version"] == 1
    assert data["database"] == vendor and data["created_at"]
    for label, count in original["counts"].items():
        assert data["counts"][label] == count, label
    assert "auth.Permission" not in data["counts"] and "sessions.Session" not in data["counts"]
    target = sites.fresh(vendor)
    out = target.manage("restore", str(path))
    assert "Restored" in out.stdout
    assert_same_club(target.club("fingerprint"), original)
    assert_fresh_ids(target.club("new"))
    # passwords came along: the director can log in on the restored site
    check = target.manage(
        "shell",
        "-c",
        # (the login throttle's backend wants a request: the password is checked directly)
        "from django.contrib.auth import get_user_model;"
        "print(get_user_model().objects.get(username='director')"
        ".check_password('pw-director-1'))",
    )
    assert check.stdout.strip().splitlines()[-1] == "True"


if len(VENDORS) > 1:  # the run on PostgreSQL (CI's DATABASE_URL) also has SQLite

    @pytest.mark.parametrize(
        ("source_vendor", "target_vendor"),
        [
            pytest.param(a, b, marks=pytest.mark.database)
            for a in VENDORS
            for b in VENDORS
            if a != b
        ],
    )
    def test_a_club_moves_between_databases(source_vendor, target_vendor, clubs, sites):
        """From the laptop (SQLite) to a server (PostgreSQL), and back."""
        _source, original, path = clubs(source_vendor)
        target = sites.fresh(target_vendor)
        target.manage("restore", str(path))
        assert_same_club(target.club("fingerprint"), original)
        assert_fresh_ids(target.club("new"))


@pytest.mark.parametrize("vendor", VENDOR_PARAMS)
def test_restore_refuses_a_database_that_has_data(vendor, clubs):
    source, original, path = clubs(vendor)
    done = source.manage("restore", str(path), check=False)
    assert done.returncode != 0
    assert "not empty" in done.stderr and "migrate" in done.stderr
    assert source.club("fingerprint") == original


@pytest.mark.parametrize("vendor", VENDOR_PARAMS)
def test_a_broken_or_foreign_file_changes_nothing(vendor, clubs, sites, tmp_path):
    _source, _original, path = clubs(vendor)
    target = sites.fresh(vendor)
    empty = target.club("fingerprint")
    # not a backup at all
    junk = tmp_path / "junk.json.gz"
    junk.write_bytes(b"not gzip")
    done = target.manage("restore", str(junk), check=False)
    assert done.returncode != 0 and "not a tarot club backup" in done.stderr
    other = tmp_path / "other.json.gz"
    with gzip.open(other, "wt") as f:
        json.dump([{"model": "auth.user", "pk": 1, "fields": {}}], f)
    done = target.manage("restore", str(other), check=False)
    assert done.returncode != 0 and "not a tarot club backup" in done.stderr
    # a backup from a newer site
    data = read_backup(path)
    newer = tmp_path / "newer.json.gz"
    with gzip.open(newer, "wt") as f:
        json.dump({**data, "version": 99}, f)
    done = target.manage("restore", str(newer), check=False)
    assert done.returncode != 0 and "newer" in done.stderr
    # a deal line whose deal is missing: refused as a whole, the database stays empty
    broken = tmp_path / "broken.json.gz"
    objects = [o for o in data["objects"] if not (o["model"] == "tarot.deal" and o["pk"] == 1)]
    counts = {**data["counts"], "tarot.Deal": data["counts"]["tarot.Deal"] - 1}
    with gzip.open(broken, "wt") as f:
        json.dump({**data, "objects": objects, "counts": counts}, f)
    done = target.manage("restore", str(broken), check=False)
    assert done.returncode != 0 and "nothing was restored" in done.stderr.lower()
    # a file that does not hold what its header says
    short = tmp_path / "short.json.gz"
    with gzip.open(short, "wt") as f:
        json.dump(
            {**data, "objects": [o for o in data["objects"] if o["model"] != "core.logentry"]}, f
        )
    done = target.manage("restore", str(short), check=False)
    assert done.returncode != 0 and "nothing was restored" in done.stderr.lower()
    assert target.club("fingerprint") == empty


@pytest.mark.parametrize("vendor", VENDOR_PARAMS)
def test_backup_refuses_to_overwrite_and_names_a_file_in_a_folder(vendor, clubs):
    source, _original, path = clubs(vendor)
    done = source.manage("backup", str(path), check=False)
    assert done.returncode != 0 and "exists" in done.stderr
    folder = source.folder / "backups"
    folder.mkdir()
    out = source.manage("backup", str(folder))
    [made] = list(folder.iterdir())
    assert re.fullmatch(r"tarotclub-backup-\d{4}-\d\d-\d\d-\d{4}\.json\.gz", made.name)
    assert str(made) in out.stdout
    assert read_backup(made)["counts"] == read_backup(path)["counts"]


@pytest.mark.parametrize("vendor", VENDOR_PARAMS)
def test_a_backup_taken_while_phones_write_restores_consistent(vendor, sites):
    """Threads keep entering deals while two backups are taken; each restores to a club where
    every deal has its lines, sums to zero, and has its one history entry."""
    source = sites.fresh(vendor)
    source.club("build")
    first, second = source.folder / "during-1.json.gz", source.folder / "during-2.json.gz"
    report = source.club("write-during-backup", str(first), str(second))
    assert report["errors"] == []
    # writes were happening while each backup was taken
    for window in report["windows"]:
        assert window["deals_at_end"] > window["deals_at_start"], window
    for path in (first, second):
        target = sites.fresh(vendor)
        target.manage("restore", str(path))
        check = target.club("consistency")
        assert check["problems"] == [], check
        assert check["writer_deals"] > 0
        assert check["counts"] == read_backup(path)["counts"]


# --- the download on the site -----------------------------------------------------------------


@pytest.mark.django_db
def test_only_directors_download_a_backup(client, member, director):
    url = reverse("backup")
    assert client.get(url).status_code == 302  # log in first
    client.force_login(member)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    client.force_login(director)
    page = client.get(url)
    assert page.status_code == 200
    assert b'method="post"' in page.content and b"csrfmiddlewaretoken" in page.content


@pytest.mark.django_db(transaction=True)
def test_a_director_downloads_a_backup_that_restores(client, django_user_model, sites, tmp_path):
    from tarotclub.core.models import LogEntry

    from .club import build, fingerprint

    build()
    secretary = django_user_model.objects.create_user("secretary", is_staff=True)
    original = fingerprint()
    client.force_login(secretary)
    response = client.post(reverse("backup"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert "no-store" in response["Cache-Control"]
    assert re.fullmatch(
        r'attachment; filename="tarotclub-backup-\d{4}-\d\d-\d\d-\d{4}\.json\.gz"',
        response["Content-Disposition"],
    )
    path = tmp_path / "download.json.gz"
    path.write_bytes(b"".join(response.streaming_content))
    data = read_backup(path)
    assert data["counts"] == {k: v for k, v in original["counts"].items() if k in data["counts"]}
    # who took the club's data home is in the history
    entry = LogEntry.objects.get(action="backup.downloaded")
    assert entry.user == secretary
    target = sites.fresh("sqlite")
    target.manage("restore", str(path))
    restored = target.club("fingerprint")
    assert restored["tournaments"] == original["tournaments"]
    assert restored["tarot"] == original["tarot"]
    assert restored["others"] == original["others"]
    assert restored["history"] == original["history"]
