"""A table's sheet with and without its QR code made again, and the deal page on the wire.

The sheet is timed warm (best of 30) with the QR cache kept, then with it emptied before
each view (as every view was before). The weight is what a phone downloads on its first
visit: the page, gzip-compressed by the site, and its stylesheet and scripts as `make serve`
sends them (tarotclub.core.staticfiles: minified, then gzip by Zopfli at collectstatic).
Gzip, not Brotli: browsers ask for Brotli only over HTTPS, and a club laptop serves the
phones over plain HTTP on the club's Wi-Fi.
"""

from __future__ import annotations

import gzip
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import goals  # noqa: E402
from bench.django_env import test_database  # noqa: E402

GOAL_KB = 30.0  # issue 12: the deal page's first load at most 30 KB on the wire


def best(fn, repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    with test_database():
        from django.contrib.staticfiles import finders
        from django.test import Client

        from tarotclub.core.staticfiles import gzip_bytes, minify
        from tarotclub.games import views
        from tarotclub.games.services import game_start
        from tarotclub.players.services import player_create

        players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
        game = game_start(players=players, first_dealer=0, created_by=None)
        client = Client(HTTP_ACCEPT_ENCODING="gzip")
        sheet, deal = f"/t/{game.token}/", f"/t/{game.token}/deal/"
        trivial = best(lambda: client.get("/favicon.ico"), 200)
        cached = best(lambda: client.get(sheet))

        def uncached():
            views._qr_svg.cache_clear()
            client.get(sheet)

        fresh = best(uncached)
        print("Sheet of a new table (4 players), warm, best of 30")
        print(f"  trivial view             {trivial * 1000:7.2f} ms")
        print(
            f"  QR made on every view    {fresh * 1000:7.2f} ms  ({fresh / trivial:.0f}× trivial)"
        )
        print(
            f"  QR cached per link       {cached * 1000:7.2f} ms  ({cached / trivial:.0f}× trivial)"
        )
        print(f"  saved by the cache       {(1 - cached / fresh) * 100:7.0f} %")

        print("First load on the wire (gzip)")
        for label, url in (("deal page", deal), ("sheet", sheet)):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            assert response.get("Content-Encoding") == "gzip"
            html = gzip.decompress(response.content).decode()
            total = len(response.content)
            assets = []
            # What a browser fetches for a first visit: stylesheets, scripts, the SVG icon
            # (not the PNG ones, which a browser that takes SVG leaves), and the manifest.
            manifest = re.search(r'rel="manifest" href="([^"]+)"', html)
            if manifest:
                packed_manifest = client.get(manifest.group(1)).content
                assets.append(("manifest", len(packed_manifest), len(packed_manifest)))
                total += len(packed_manifest)
            for name in re.findall(r'(?:href|src)="/static/([^"]+\.(?:css|js|svg))"', html):
                data = Path(finders.find(name)).read_bytes()
                assets.append((name, len(data), len(gzip_bytes(minify(name, data)))))
                total += assets[-1][2]
            packed = len(response.content) / 1024
            print(f"  {label:<38} page {len(html) / 1024:5.1f} KB -> {packed:5.1f} KB")
            for name, raw, packed in assets:
                print(f"    {name:<36} {raw / 1024:5.1f} KB -> {packed / 1024:5.1f} KB")
            print(
                f"    total {total / 1024:5.1f} KB  goal ≤ {GOAL_KB:.0f} KB"
                f"  ({total / 1024 / GOAL_KB:.2f} of the goal)"
            )
            if label == "deal page":
                goals.record("deal page, first load on the wire", total / 1024, "KB", GOAL_KB)


if __name__ == "__main__":
    main()
