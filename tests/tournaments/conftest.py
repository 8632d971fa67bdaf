"""The tournaments' pages cache rendered fragments (issue 12): each test starts with none."""

import pytest


@pytest.fixture(autouse=True)
def _empty_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
