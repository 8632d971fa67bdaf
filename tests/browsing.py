"""What every browser test does: open a phone in Debian's Chromium and log in.

The `browser` fixture (conftest.py) launches Chromium once per test module; each test makes
its own context (cookies, storage, service workers) with `new_phone`.
"""

from __future__ import annotations

import os
import shutil

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}  # the guide's phone (the crawl's too)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's chromium, where it is installed."""
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


def new_phone(
    browser, base_url: str = "", *, viewport=None, locale="en-GB", timeout=10_000, **options
):
    """A page in a context of its own, at a phone's size; `page.base_url` is the live server."""
    context = browser.new_context(viewport=viewport or PHONE, locale=locale, **options)
    page = context.new_page()
    page.set_default_timeout(timeout)
    page.base_url = base_url
    return page


def log_in(page, username: str, password: str, base_url: str | None = None) -> None:
    """Log in through the site's own form and wait until the login page is left."""
    base = page.base_url if base_url is None else base_url
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
