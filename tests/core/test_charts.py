"""The SVG charts: accessible, scalable, escaped, and drawn from the figures given."""

from __future__ import annotations

import datetime as dt
import re
from xml.etree import ElementTree

from hypothesis import example, given
from hypothesis import strategies as st

from tarotclub.core.charts import bar_chart, line_chart, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(html: str) -> ElementTree.Element:
    return ElementTree.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))


def test_a_line_chart_is_an_accessible_scalable_svg_with_a_table():
    html = line_chart(
        [("Anne", [(dt.date(2026, 1, 1), 10), (dt.date(2026, 1, 8), -25)])],
        title="Cumulative score",
        x_label="Date",
        y_label="Points",
    )
    svg = svg_of(html)
    assert svg.get("viewBox") == "0 0 360 220"
    assert svg.get("role") == "img" and svg.get("aria-label") == "Cumulative score"
    assert svg.find(f"{SVG}title").text == "Cumulative score"
    assert "width" not in svg.attrib  # it scales to its container
    assert 'style="' not in html  # the CSP forbids inline styles
    assert "<details" in html and "2026-01-08" in html and "\u221225" in html
    (line,) = svg.iter(f"{SVG}polyline")
    assert len(line.get("points").split()) == 2


def test_labels_are_escaped():
    evil = '<script>alert("x")</script>'
    html = line_chart([(evil, [(1, 1), (2, 2)])], title=evil, x_label=evil, y_label=evil)
    html += bar_chart([(evil, 3, 1)], title=evil, y_label=evil, part_label=evil)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_nothing_to_draw():
    assert "<svg" not in line_chart([], title="T", x_label="x", y_label="y")
    assert "<svg" not in line_chart([("A", [])], title="T", x_label="x", y_label="y")
    assert "<svg" not in bar_chart([("prise", 0)], title="T", y_label="y")


def test_bars_are_as_tall_as_their_values():
    html = bar_chart([("a", 10, 5), ("b", 20, 20)], title="T", y_label="n", part_label="won")
    svg = svg_of(html)
    bars = [float(r.get("height")) for r in svg.iter(f"{SVG}rect") if r.get("class") == "bar"]
    parts = [float(r.get("height")) for r in svg.iter(f"{SVG}rect") if r.get("class") == "bar-part"]
    assert abs(bars[1] - 2 * bars[0]) < 0.2
    assert abs(parts[0] - bars[0] / 2) < 0.2 and abs(parts[1] - bars[1]) < 0.2


@given(
    st.lists(st.integers(-100_000, 100_000), min_size=1, max_size=50),
)
def test_every_point_lies_inside_the_view_box(values):
    html = line_chart([("s", list(enumerate(values)))], title="T", x_label="x", y_label="y")
    (line,) = svg_of(html).iter(f"{SVG}polyline")
    for point in line.get("points").split():
        x, y = map(float, point.split(","))
        assert 0 <= x <= 360 and 0 <= y <= 220


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))
@example(0.0, 5e-324)  # a span that underflowed to a step of 0 (log10 of 0: a crash)
@example(1.0, 1.0 + 1e-12)
def test_ticks_cover_the_range(low, high):
    ticks = nice_ticks(low, high)
    assert ticks[0] <= min(low, high) + 1e-6 and ticks[-1] >= max(low, high) - 1e-6
    assert ticks == sorted(ticks) and len(ticks) <= 12


@given(st.integers(-1000, 1000), st.integers(0, 1000))
def test_whole_ticks_are_whole_numbers(low, span):
    ticks = nice_ticks(low, low + span, whole=True)
    assert all(t == int(t) for t in ticks)
    assert ticks[0] <= low and ticks[-1] >= low + span
    assert ticks == sorted(set(ticks)) and len(ticks) <= 12


def test_a_count_that_stayed_at_zero_is_drawn_from_zero_up():
    # a player who never won: no half games, no negative games on the axis
    assert nice_ticks(0, 0, whole=True) == [0, 1]
    html = line_chart(
        [("Anne", [(1, 0), (2, 0)])], title="Won", x_label="x", y_label="y", whole=True
    )
    texts = [t.text for t in svg_of(html).iter(f"{SVG}text")]
    assert "0.5" not in texts and "\u22121" not in texts and "1" in texts


def test_the_tables_dates_are_never_broken_at_their_hyphens():
    # a date in a narrow table cell: one <time> (site.css keeps it on one line)
    html = line_chart(
        [("Anne", [(dt.date(2026, 12, 1), 3), (dt.datetime(2026, 12, 2, 21, 0), 4)])],
        title="T",
        x_label="Date",
        y_label="n",
    )
    table = html[html.index("<table") :]
    assert '<td><time datetime="2026-12-01">2026-12-01</time></td>' in table
    assert '<td><time datetime="2026-12-02">2026-12-02</time></td>' in table
    plain = line_chart([("Anne", [(1, 3), (2, 4)])], title="T", x_label="x", y_label="n")
    assert "<time" not in plain


def test_the_data_table_names_the_series_only_when_there_are_several():
    days = [dt.date(2026, 1, d) for d in (5, 12)]
    one = line_chart(
        [("Anne", list(zip(days, [3, 5], strict=True)))],
        title="Score",
        x_label="Date",
        y_label="Points",
    )
    two = line_chart(
        [
            ("Anne", list(zip(days, [3, 5], strict=True))),
            ("Bram", list(zip(days, [1, 2], strict=True))),
        ],
        title="Score",
        x_label="Date",
        y_label="Points",
    )

    def heads(html):
        return re.findall(r'<th scope="col">([^<]*)</th>', html)

    assert heads(str(one)) == ["Date", "Points"]  # a narrow table at 360 px
    assert heads(str(two)) == ["Series", "Date", "Points"]
    assert str(two).count("<td>Bram</td>") == 2


def test_figures_people_read_have_the_languages_decimal_mark():
    from django.utils import translation

    days = [dt.date(2026, 1, 5), dt.date(2026, 1, 12)]
    for lang, mark in (("fr", "−1,5"), ("nl", "−1,5"), ("en", "−1.5")):
        with translation.override(lang):
            html = str(
                line_chart(
                    [("A", list(zip(days, [-1.5, 2], strict=True)))],
                    title="T",
                    x_label="D",
                    y_label="P",
                )
            )
            bars = str(bar_chart([("garde", 2.5)], title="T", y_label="N"))
        assert f'<td class="num">{mark}</td>' in html, lang
        assert mark.replace("−1", "2") in bars, lang
