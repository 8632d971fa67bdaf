"""Fixtures shared by every test: a roster, a member, a game."""

from __future__ import annotations

import pytest

from tests.browsing import PHONE  # noqa: F401  (tests import it from here)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: a rolled-back database gives its numbers again,
    so a page or a season cached by one test must not answer the next."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _language_restored():
    """Each test starts and ends in the settings' language: a request activates its reader's
    language (LocaleMiddleware) and leaves it active in the thread after the response, so a
    test that asked for a French page would otherwise leave French to the next test."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def make_players(db):
    from tarotclub.players.services import player_create

    def make(*names: str):
        return [player_create(name=n) for n in names]

    return make


@pytest.fixture
def four(make_players):
    return make_players("Anne", "Bram", "Chloé", "Dirk")


@pytest.fixture
def five(make_players):
    return make_players("Anne", "Bram", "Chloé", "Dirk", "Eva")


@pytest.fixture
def member(db, django_user_model):
    return django_user_model.objects.create_user(username="member", password="pw-member-1")


@pytest.fixture
def director(db, django_user_model):
    return django_user_model.objects.create_user(
        username="director", password="pw-director-1", is_staff=True
    )


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def game4(four, member):
    from tarotclub.games.services import game_start

    return game_start(players=four, first_dealer=0, created_by=member)


@pytest.fixture
def game5(five, member):
    from tarotclub.games.services import game_start

    return game_start(players=five, first_dealer=0, created_by=member)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium, launched once per test module (its Playwright keeps an
    event loop running in this thread while it lives, so a module that runs asyncio itself
    must not find it there: each module of browser tests closes it when it is done).

    Skipped, saying why, where Chromium or Playwright is missing (CI installs both).
    """
    import os

    from tests.browsing import ARGS, chromium_path

    if not chromium_path():
        pytest.skip("Debian's chromium is not installed: browser test skipped")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        pytest.skip("playwright is not installed: browser test skipped")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # around it are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser, live_server):
    """A Playwright page at a phone's viewport, in a context of its own."""
    from tests.browsing import new_phone

    page = new_phone(browser, live_server.url)
    yield page
    page.context.close()


@pytest.fixture
def artifacts():
    """A folder git ignores, for screenshots a person can look at."""
    from pathlib import Path

    path = Path(__file__).parent / "artifacts"
    path.mkdir(exist_ok=True)
    return path


def scroll_width(page) -> int:
    """The page's width, once the page a click may just have opened has loaded: Playwright's
    click returns when a navigation has started, when the new document may have no element."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


#: The fixtures through which a test reaches the database (pytest-django's, and the live server).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


def uses_database(item) -> bool:
    """Whether a test touches the database: it asks for one of pytest-django's database
    fixtures (directly or through another fixture), or carries the django_db mark, or the
    `database` mark of a test whose subprocesses reach DATABASE_URL. pytest-django refuses
    database access to any other test in this process."""
    names = set(getattr(item, "fixturenames", ()))
    marked = item.get_closest_marker("django_db") or item.get_closest_marker("database")
    return bool(names & DATABASE_FIXTURES) or marked is not None


def pytest_configure(config):
    """Under `--dist loadfile` (`make test`), pytest-xdist hands the modules out in the order its
    processes collected them in (pytest_collection_modifyitems: the longest first), not the
    modules with the most tests first."""
    if getattr(config.option, "dist", "no") == "loadfile" and hasattr(
        config.option, "loadscopereorder"
    ):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """With TEST_DATABASE_ONLY=1 (the PostgreSQL run of `.ci/run`), only the tests that touch the
    database run: the others (rules, parsers, layout arithmetic) give the same result on any
    database, and the SQLite run of `make test` has just run them.

    In a pytest-xdist process, the modules the longest first (tests/durations.py), so that no
    long module is left to run alone at the end (the processes do not see `--dist`; the order
    of a module's own tests is kept)."""
    import os

    if os.environ.get("TEST_DATABASE_ONLY") == "1":
        kept = [item for item in items if uses_database(item)]
        dropped = [item for item in items if not uses_database(item)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    if hasattr(config, "workerinput"):
        from tests.durations import module_order

        items[:] = module_order(items)
