"""Draw the site's icons into static/icons/: a tarot card in the club's red with a star.

    .venv/bin/python bin/icons.py

One geometry, two renderings: favicon.svg (the card alone, for browser tabs) and, drawn with
Pillow, favicon-32.png (the same), apple-touch-icon.png (180 px) and the web app manifest's
icon-192.png and icon-512.png (the card on the paper colour, full bleed, inside the maskable
safe zone). The PNG files are committed; run this again only when the design changes.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

RED = "#7a1f2b"
PAPER = "#fbf8f1"
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
SUPERSAMPLE = 8


def star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return points


def card(size: float, height_ratio: float) -> dict:
    """The card's shapes in a square of `size`, the card `height_ratio` of its height."""
    h = size * height_ratio
    w = h * 0.64
    x, y = (size - w) / 2, (size - h) / 2
    inset = w * 0.11
    return {
        "card": (x, y, x + w, y + h),
        "radius": w * 0.16,
        "frame": (x + inset, y + inset, x + w - inset, y + h - inset),
        "frame_radius": w * 0.07,
        "frame_width": w * 0.06,
        "star": star(size / 2, size / 2 + h * 0.01, w * 0.30, w * 0.12),
    }


def svg() -> str:
    g = card(64, 0.92)
    x0, y0, x1, y1 = g["card"]
    f0, f1, f2, f3 = g["frame"]
    pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in g["star"])
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect x="{x0:.2f}" y="{y0:.2f}" width="{x1 - x0:.2f}" height="{y1 - y0:.2f}" '
        f'rx="{g["radius"]:.2f}" fill="{RED}"/>'
        f'<rect x="{f0:.2f}" y="{f1:.2f}" width="{f2 - f0:.2f}" height="{f3 - f1:.2f}" '
        f'rx="{g["frame_radius"]:.2f}" fill="none" stroke="{PAPER}" '
        f'stroke-width="{g["frame_width"]:.2f}"/>'
        f'<polygon points="{pts}" fill="{PAPER}"/>'
        "</svg>\n"
    )


def png(size: int, *, background: str | None, height_ratio: float) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), background or (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    g = card(big, height_ratio)
    draw.rounded_rectangle(g["card"], radius=g["radius"], fill=RED)
    draw.rounded_rectangle(
        g["frame"], radius=g["frame_radius"], outline=PAPER, width=round(g["frame_width"])
    )
    draw.polygon(g["star"], fill=PAPER)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "favicon.svg").write_text(svg(), encoding="utf-8")
    png(32, background=None, height_ratio=0.92).save(OUT / "favicon-32.png", optimize=True)
    png(180, background=PAPER, height_ratio=0.72).save(OUT / "apple-touch-icon.png", optimize=True)
    for size in (192, 512):
        png(size, background=PAPER, height_ratio=0.66).save(OUT / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
