"""Charts drawn on the server as SVG: a line chart and a bar chart, no script.

Each chart is a `<figure>` holding an inline `<svg>` with a `viewBox` (it scales to any width,
360 px included), `role="img"`, an `aria-label` and a `<title>`, and under it a `<details>`
table with every figure: the text alternative. Every label is escaped. Colours are SVG
presentation attributes and classes (no `style` attribute, so the Content-Security-Policy
stays strict).

    line_chart([("Anne", [(1, 10), (2, -5)])], title="Score", x_label="deal", y_label="points")
    bar_chart([("garde", 4), ("prise", 7)], title="Contracts", y_label="deals")

Both return a SafeString; with no data they return a short "nothing to draw" paragraph.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from django.utils import formats
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH = 360
HEIGHT = 220
LEFT = 44  # room for the y ticks
RIGHT = 10
TOP = 12
BOTTOM = 34  # room for the x ticks and label
#: Line colours, dark enough on white for a 3:1 contrast (WCAG 1.4.11).
COLOURS = ("#7a1f2b", "#1f5a7a", "#3d6b1f", "#7a5a1f", "#5a1f7a", "#1f7a6b")


MINUS = "\u2212"  # the minus sign the site prints (never the hyphen-minus)


def _number(value: float) -> str:
    """A coordinate: at most one decimal, no trailing zeros."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _figure(value: float) -> str:
    """A figure a person reads: like a coordinate, with the language's decimal mark (1,5 in
    French and Dutch) and the real minus sign."""
    text = _number(value).replace(".", formats.get_format("DECIMAL_SEPARATOR"))
    return MINUS + text[1:] if text.startswith("-") else text


def _x_value(x) -> float:
    if isinstance(x, dt.datetime):
        return x.timestamp() / 86400
    if isinstance(x, dt.date):
        return float(x.toordinal())
    return float(x)


def _x_text(x) -> str:
    if isinstance(x, dt.date):
        return x.isoformat()[:10]
    return _figure(float(x))


def _x_cell(x) -> str:
    """An x value in the table: a date as one <time> (never broken at its hyphens)."""
    text = escape(_x_text(x))
    return f'<time datetime="{text}">{text}</time>' if isinstance(x, dt.date) else text


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round tick values covering [low, high] (1, 2 or 5 times a power of ten apart);
    `whole`: for a count, ticks a whole number apart (and a flat line at 0 stays above it)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0]
    if high < low:
        low, high = high, low
    if high - low < 1e-9:  # flat, or closer than the ticks' rounding (10 decimals) can tell
        high, low = (high + 1, low) if whole and low == 0 else (high + 1, low - 1)
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, 1)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _empty(title: str) -> SafeString:
    return format_html(
        '<figure class="chart chart-empty"><figcaption>{}</figcaption><p class="muted">{}</p>'
        "</figure>",
        title,
        _("Nothing to draw yet."),
    )


def _frame(title: str, desc: str, body: str, table: str, legend: str = "") -> SafeString:
    # (gettext outside the f-strings: makemessages does not read inside them)
    as_table = _("The figures as a table")
    return mark_safe(
        f'<figure class="chart"><svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" preserveAspectRatio="xMidYMid meet" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        f"<desc>{escape(desc)}</desc>{body}</svg>"
        f"<figcaption>{escape(title)}</figcaption>{legend}"
        f'<details class="chart-data"><summary>{escape(as_table)}</summary>'
        f'<div class="table-wrap">{table}</div></details></figure>'
    )


def _y_axis(ticks: list[float], y) -> list[str]:
    parts = []
    for t in ticks:
        yy = _number(y(t))
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{yy}" y2="{yy}" '
            f'stroke="#d8d8d8" stroke-width="1"/>'
            f'<text x="{LEFT - 4}" y="{yy}" text-anchor="end" dominant-baseline="middle" '
            f'font-size="11" fill="#333">{escape(_figure(t))}</text>'
        )
    return parts


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[object, float]]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    whole: bool = False,
) -> SafeString:
    """One line per (label, [(x, y), ...]); x are numbers, dates or datetimes; `whole`: the
    y values are counts (the axis shows whole numbers only)."""
    series = [(str(label), list(points)) for label, points in series if points]
    if not series:
        return _empty(title)
    xs = [_x_value(x) for _label, points in series for x, _y in points]
    ys = [float(v) for _label, points in series for _x, v in points]
    x_low, x_high = min(xs), max(xs)
    if x_low == x_high:
        x_low, x_high = x_low - 1, x_high + 1
    ticks = nice_ticks(min(min(ys), 0.0), max(max(ys), 0.0), whole=whole)
    y_low, y_high = ticks[0], ticks[-1]
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(v: float) -> float:
        return LEFT + (v - x_low) / (x_high - x_low) * plot_w

    def y(v: float) -> float:
        return TOP + (y_high - v) / (y_high - y_low) * plot_h

    parts = _y_axis(ticks, y)
    zero = _number(y(0.0))
    parts.append(
        f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{zero}" y2="{zero}" '
        f'stroke="#555" stroke-width="1"/>'
    )
    first_x = min((p[0] for _l, pts in series for p in pts), key=_x_value)
    last_x = max((p[0] for _l, pts in series for p in pts), key=_x_value)
    base = _number(HEIGHT - BOTTOM + 14)
    parts.append(
        f'<text x="{LEFT}" y="{base}" font-size="11" fill="#333">{escape(_x_text(first_x))}'
        f'</text><text x="{WIDTH - RIGHT}" y="{base}" text-anchor="end" font-size="11" '
        f'fill="#333">{escape(_x_text(last_x))}</text>'
        f'<text x="{_number(LEFT + plot_w / 2)}" y="{HEIGHT - 4}" text-anchor="middle" '
        f'font-size="11" fill="#333">{escape(x_label)}</text>'
    )
    for i, (label, points) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        coords = " ".join(f"{_number(x(_x_value(px)))},{_number(y(py))}" for px, py in points)
        parts.append(
            f'<polyline class="line" fill="none" stroke="{colour}" stroke-width="2" '
            f'stroke-linejoin="round" points="{coords}"><title>{escape(label)}</title></polyline>'
        )
        if len(points) == 1:
            px, py = points[0]
            parts.append(
                f'<circle cx="{_number(x(_x_value(px)))}" cy="{_number(y(py))}" r="3" '
                f'fill="{colour}"/>'
            )
    legend = ""
    if len(series) > 1:
        legend = (
            '<ul class="chart-legend">'
            + "".join(
                f'<li><svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">'
                f'<rect width="10" height="10" fill="{COLOURS[i % len(COLOURS)]}"/></svg> '
                f"{escape(label)}</li>"
                for i, (label, _points) in enumerate(series)
            )
            + "</ul>"
        )
    # one series: its name is the chart's title, not a column repeated on every row
    named = len(series) > 1
    rows = "".join(
        "<tr>"
        + (f"<td>{escape(label)}</td>" if named else "")
        + f'<td>{_x_cell(px)}</td><td class="num">{escape(_figure(float(py)))}</td></tr>'
        for label, points in series
        for px, py in points
    )
    series_head = _("Series")
    head = f'<th scope="col">{escape(series_head)}</th>' if named else ""
    table = (
        f'<table class="data"><thead><tr>{head}'
        f'<th scope="col">{escape(x_label)}</th><th scope="col">{escape(y_label)}</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
    )
    desc = _("%(y)s by %(x)s") % {"y": y_label, "x": x_label}
    return _frame(title, desc, "".join(parts), table, legend)


def bar_chart(
    bars: Sequence[tuple[str, float]] | Sequence[tuple[str, float, float]],
    *,
    title: str,
    y_label: str,
    x_label: str = "",
    part_label: str = "",
) -> SafeString:
    """One bar per (label, value); with (label, value, part) the part (e.g. the deals won
    of the deals taken) is drawn darker inside the bar and gets its own column."""
    bars = [tuple(b) for b in bars]
    if not bars or all(float(b[1]) == 0 for b in bars):
        return _empty(title)
    with_part = all(len(b) == 3 for b in bars)
    ticks = nice_ticks(0.0, max(max(float(b[1]) for b in bars), 0.0))
    y_high = ticks[-1]
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def y(v: float) -> float:
        return TOP + (y_high - v) / (y_high - 0.0) * plot_h

    parts = _y_axis(ticks, y)
    slot = plot_w / len(bars)
    width = slot * 0.7
    for i, bar in enumerate(bars):
        label, value = str(bar[0]), float(bar[1])
        left = LEFT + i * slot + (slot - width) / 2
        top = y(value)
        parts.append(
            f'<rect class="bar" x="{_number(left)}" y="{_number(top)}" width="{_number(width)}" '
            f'height="{_number(y(0.0) - top)}" fill="#c9a0a6"><title>{escape(label)}: '
            f"{escape(_figure(value))}</title></rect>"
        )
        if with_part:
            part = float(bar[2])
            ptop = y(part)
            parts.append(
                f'<rect class="bar-part" x="{_number(left)}" y="{_number(ptop)}" '
                f'width="{_number(width)}" height="{_number(y(0.0) - ptop)}" fill="#7a1f2b">'
                f"<title>{escape(label)}: {escape(part_label)} {escape(_figure(part))}</title>"
                f"</rect>"
            )
        parts.append(
            f'<text x="{_number(left + width / 2)}" y="{_number(HEIGHT - BOTTOM + 14)}" '
            f'text-anchor="middle" font-size="11" fill="#333">{escape(label)}</text>'
        )
    head = f'<th scope="col">{escape(y_label)}</th>'
    if with_part:
        head += f'<th scope="col">{escape(part_label)}</th>'
    rows = "".join(
        f'<tr><td>{escape(str(b[0]))}</td><td class="num">{escape(_figure(float(b[1])))}</td>'
        + (f'<td class="num">{escape(_figure(float(b[2])))}</td>' if with_part else "")
        + "</tr>"
        for b in bars
    )
    table = (
        f'<table class="data"><thead><tr><th scope="col">{escape(x_label or title)}</th>{head}'
        f"</tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    legend = ""
    if with_part:
        legend = (
            '<ul class="chart-legend"><li><svg viewBox="0 0 10 10" width="10" height="10" '
            'aria-hidden="true"><rect width="10" height="10" fill="#c9a0a6"/></svg> '
            f'{escape(y_label)}</li><li><svg viewBox="0 0 10 10" width="10" height="10" '
            'aria-hidden="true"><rect width="10" height="10" fill="#7a1f2b"/></svg> '
            f"{escape(part_label)}</li></ul>"
        )
    return _frame(title, y_label, "".join(parts), table, legend)
