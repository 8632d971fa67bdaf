"""Issue 12: the deal page's first load is at most 30 KB on the wire, as `make serve` sends it
(the page gzip-compressed by the site; its stylesheets, scripts, icon and manifest as
collectstatic writes them: minified, gzip by Zopfli). Bytes, not time: a page that grows
past the goal fails here."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tarotclub.core.staticfiles import gzip_bytes, minify

pytestmark = pytest.mark.django_db

GOAL = 30 * 1024


def first_load(client: Client, url: str) -> dict[str, int]:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    sizes = {url: len(response.content)}
    manifest = re.search(r'rel="manifest" href="([^"]+)"', html)
    assert manifest
    sizes["manifest"] = len(client.get(manifest.group(1)).content)
    names = re.findall(r'(?:href|src)="/static/([^"]+\.(?:css|js|svg))"', html)
    assert any(n.endswith(".css") for n in names) and any(n.endswith(".js") for n in names)
    for name in names:
        sizes[name] = len(gzip_bytes(minify(name, Path(finders.find(name)).read_bytes())))
    return sizes


@pytest.mark.parametrize("page", ["deal/", ""])
def test_the_deal_page_and_the_sheet_weigh_at_most_30_kb_on_the_wire(game4, page):
    sizes = first_load(Client(HTTP_ACCEPT_ENCODING="gzip"), f"/t/{game4.token}/{page}")
    assert sum(sizes.values()) <= GOAL, sizes
