"""The icons, the web app manifest and the theme colour: "add to home screen" gives the club's
card, name and colour. Run under tarotclub.settings.test_production too (make test-production),
where the static files have hashed names and WhiteNoise serves them."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.conf import settings
from PIL import Image

pytestmark = pytest.mark.django_db


def link_hrefs(html: str, rel: str) -> list[str]:
    return re.findall(rf'<link rel="{rel}" href="([^"]+)"', html)


def fetch(client, url: str):
    """A static file as a phone gets it (WhiteNoise answers with a streaming response)."""
    response = client.get(url)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body


def test_every_page_names_the_manifest_icons_and_theme_colour(client):
    html = client.get("/").content.decode()
    manifest = client.get(link_hrefs(html, "manifest")[0])
    data = json.loads(manifest.content)
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', html).group(1)
    assert theme == data["theme_color"] == "#7a1f2b"
    # an error page has them too
    missing = client.get("/no-such-page/").content.decode()
    assert link_hrefs(missing, "manifest") == link_hrefs(html, "manifest")
    assert '<meta name="theme-color"' in missing


def test_the_manifest_is_served_as_a_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == settings.CLUB_NAME
    assert 0 < len(data["short_name"]) <= 12
    assert data["start_url"] == "/"
    assert data["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "nl"
    assert json.loads(client.get("/manifest.webmanifest").content)["lang"] == "nl"


def test_each_manifest_icon_is_a_png_of_its_size(client):
    data = json.loads(client.get("/manifest.webmanifest").content)
    for icon in data["icons"]:
        response, body = fetch(client, icon["src"])
        assert response["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(body))
        assert image.format == "PNG"
        assert "x".join(map(str, image.size)) == icon["sizes"]
        # full bleed: the corners are painted (a maskable icon must not be transparent)
        assert image.convert("RGBA").getpixel((0, 0))[3] == 255


def test_the_favicons_and_the_touch_icon_are_served(client):
    html = client.get("/").content.decode()
    svg_href, png_href = link_hrefs(html, "icon")
    response, body = fetch(client, svg_href)
    assert response["Content-Type"].startswith("image/svg+xml")
    assert b"#7a1f2b" in body
    response, body = fetch(client, png_href)
    assert Image.open(io.BytesIO(body)).size == (32, 32)
    (touch,) = link_hrefs(html, "apple-touch-icon")
    response, body = fetch(client, touch)
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(body)).size == (180, 180)


def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert response["Location"] == link_hrefs(html, "icon")[1]
