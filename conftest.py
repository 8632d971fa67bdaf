"""Fixtures shared by every test: a roster, a member, a game."""

from __future__ import annotations

import pytest


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


CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(live_server):
    """A Playwright page in Debian's headless Chromium at a phone viewport.

    Skipped, saying why, where Chromium or Playwright is missing (CI installs both).
    """
    import os
    import shutil

    if not shutil.which("chromium") and not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed: browser test skipped")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        pytest.skip("playwright is not installed: browser test skipped")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the test makes
    # around it are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base_url = live_server.url
        yield page
        context.close()
        browser.close()


@pytest.fixture
def artifacts():
    """A folder git ignores, for screenshots a person can look at."""
    from pathlib import Path

    path = Path(__file__).parent / "artifacts"
    path.mkdir(exist_ok=True)
    return path


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")
