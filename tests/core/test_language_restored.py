"""conftest.py's `_language_restored`: a request leaves its reader's language active in the
thread after the response (Django's LocaleMiddleware activates it and nothing deactivates
it), and the next test still starts in the settings' language. The two tests run in this
order, in one process (pytest keeps a file's order; `--dist loadfile` keeps a file together)."""

from __future__ import annotations

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_a_french_page_leaves_french_active_after_the_response(client, settings):
    assert translation.get_language() == settings.LANGUAGE_CODE != "fr"
    client.get("/", HTTP_ACCEPT_LANGUAGE="fr")
    assert translation.get_language() == "fr"  # what the next test must not inherit


def test_the_next_test_starts_in_the_settings_language(settings):
    assert translation.get_language() == settings.LANGUAGE_CODE
