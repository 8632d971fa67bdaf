"""Data a whole test module reads, built once for the module instead of once a test.

A module-scoped fixture does `yield from loaded_once(django_db_blocker, build)`: `build()` runs
in a transaction that is rolled back when the module ends, and each test of the module (with
pytest-django's `db`, not `transactional_db` nor `live_server`, which would empty the database
under it) runs in a savepoint of that transaction, rolled back after it as usual: no test sees
what another changed, and no other module sees the data. What `build()` returns is shared by
the module's tests: let it be numbers (primary keys), not model instances a test could change.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")


def loaded_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    from django.db import transaction

    with django_db_blocker.unblock():
        loaded = transaction.atomic()
        loaded.__enter__()
        try:
            value = build()
        except BaseException:
            loaded.__exit__(*sys.exc_info())
            raise
    try:
        yield value
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            loaded.__exit__(None, None, None)
