"""Measure one page the way a person at 360 px would see it, and run axe-core on it.

`check_page(page)` returns a dict of lists (empty lists: nothing wrong):
page_scroll, frames, broken_words, small_targets, ascii_minus (a negative number printed
with the hyphen-minus instead of the one minus sign), axe (serious or critical violations only).
axe-core is vendored under vendor/ (MPL-2.0, see vendor/axe-core-LICENSE.txt).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
MEASURE = (HERE / "measure.js").read_text(encoding="utf-8")
AXE = (HERE / "vendor" / "axe.min.js").read_text(encoding="utf-8")

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + " (" + v.impact + "): " +
         v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""


def measure(page) -> dict[str, list[str]]:
    found = page.evaluate(MEASURE)
    return {
        "page_scroll": found["pageScroll"],
        "frames": found["frames"],
        "broken_words": found["brokenWords"],
        "small_targets": found["smallTargets"],
        "ascii_minus": found["asciiMinus"],
    }


def axe(page) -> list[str]:
    # Evaluated through the DevTools protocol, which the page's Content-Security-Policy
    # does not govern; nothing is injected into the page's own scripts.
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE + "\n;undefined")
    return page.evaluate(AXE_RUN)


def check_page(page, *, with_axe: bool = True) -> dict[str, list[str]]:
    found = measure(page)
    found["axe"] = axe(page) if with_axe else []
    return found
