"""A throw-away database for the benches: the test settings, a fresh test database.

SQLite by default (a file in the temporary folder); when DATABASE_URL is set, a test database
named ``<name>_bench`` after the one it names (not ``test_<name>``, which a test run on the
same server may be using), on that server (PostgreSQL), and dropped at the end.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def test_database():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.test")
    import django

    django.setup()
    from django.db import connection

    # Not Django's setup_test_environment(): it wraps every template render in a signal and
    # a copy of the context (for assertTemplateUsed), which production does not pay. The
    # test settings already allow the test client's host ("testserver"), and no bench sends
    # mail.
    if connection.vendor != "sqlite":
        # Not Django's test_<name>: a test run on the same server may be using that one.
        connection.settings_dict["TEST"]["NAME"] = f"{connection.settings_dict['NAME']}_bench"
    old_name = connection.settings_dict["NAME"]  # (create_test_db returns the test name)
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    print(f"(bench database: {connection.vendor}, {connection.settings_dict['NAME']})")
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
