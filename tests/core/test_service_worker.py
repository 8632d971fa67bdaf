"""The service worker and the manifest's start page (issue 15): served from the site's root,
as a script, never cached itself; the table's pages name their sheet as the start page."""

from __future__ import annotations

import re

import pytest
from django.templatetags.static import static
from django.urls import reverse

from tarotclub.core.views import APP_SHELL

pytestmark = pytest.mark.django_db


def test_the_worker_is_a_script_at_the_root_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    for path in APP_SHELL:  # the shell it keeps, by the names the static storage gives
        assert f'"{static(path)}"' in body
    assert f'importScripts("{static("js/offline-queue.js")}")' in body


def test_the_worker_keeps_only_a_tables_sheet_and_entry_screen_and_no_post(client):
    body = client.get("/sw.js").content.decode()
    # the pages it keeps: /t/<token>/ and /t/<token>/deal/ (not a correction, nor history)
    patterns = re.findall(r"var (?:SHEET|ENTRY) = /(.+)/;", body)
    sheet, entry = (re.compile(p.replace("\\/", "/")) for p in patterns)
    assert sheet.fullmatch("/t/abc_DEF-123/") and entry.fullmatch("/t/abc_DEF-123/deal/")
    for private in ("/t/abc/history/", "/t/abc/deal/2/edit/", "/tournaments/1/manage/", "/"):
        assert not sheet.fullmatch(private) and not entry.fullmatch(private)
    assert "cache.put(request" in body and 'request.method === "POST"' in body


def test_a_tables_pages_name_their_sheet_as_the_start_page(client, game4):
    sheet = reverse("games:sheet", args=[game4.token])
    for path in (sheet, reverse("games:deal_new", args=[game4.token])):
        html = client.get(path).content.decode()
        href = re.search(r'<link rel="manifest" href="([^"]+)"', html).group(1)
        assert href == f"{reverse('manifest')}?start={sheet}"
        assert client.get(href).json()["start_url"] == sheet


@pytest.mark.parametrize(
    "start", ["https://evil.example/", "//evil.example/t/x/", "/admin/", "/t/a/b/"]
)
def test_the_manifest_takes_no_other_start_page(client, start):
    assert client.get(reverse("manifest"), {"start": start}).json()["start_url"] == "/"


def test_the_sheet_and_entry_screen_carry_the_queues_hooks(client, game4):
    sheet = client.get(reverse("games:sheet", args=[game4.token])).content.decode()
    assert 'id="offline-box"' in sheet and "hidden" in sheet.split('id="offline-box"')[1][:40]
    assert 'data-t-waiting-row="' in sheet and f'data-token="{game4.token}"' in sheet
    assert "js/offline.js" in sheet and 'data-sw="/sw.js"' in sheet
    entry = client.get(reverse("games:deal_new", args=[game4.token])).content.decode()
    assert f'data-offline-token="{game4.token}"' in entry and 'data-offline-number="1"' in entry
