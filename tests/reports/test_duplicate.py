"""The duplicate printouts and exports (reports/duplicate.py), from pure data: the rulebook's
worked examples and sessions on movement(3, …) and movement(5, …)."""

from __future__ import annotations

import io
import math
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from scoring import duplicate as rules
from scoring.movement import boards_of_set, movement, taker_of
from tarotclub.reports import duplicate as docs
from tarotclub.reports import duplicate_samples as samples
from tarotclub.reports.exports import rows_dataset

from .conftest import count_name, pdf_pages  # noqa: F401

MINUS = "\u2212"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def images(content: bytes) -> int:
    """The images of the document (WeasyPrint gives every page the same resources)."""
    reader = PdfReader(io.BytesIO(content))
    return len({image.data for page in reader.pages for image in page.images})


def squash(text: str) -> str:
    """The text without its spaces and line breaks: pypdf splits kerned pairs ("T aker") and
    a narrow column wraps a name."""
    return re.sub(r"\s+", "", text)


def count_squashed(text: str, name: str) -> int:
    return squash(text).count(squash(name))


def pages_of(content: bytes) -> list[str]:
    """Each page's text, names' non-breaking hyphens read as hyphens."""
    return [text.replace("\u2011", "-") for text in pdf_pages(content)]


def whole(content: bytes) -> str:
    return "\n".join(pages_of(content))


EVENT = samples.sample_event()


@pytest.fixture(scope="module", params=[3, 5])
def session(request):
    """(movement, per_set, session, names, urls) on movement(3, 3) and movement(5, 5)."""
    return samples.sample_session(request.param)


# --- the rulebook's worked examples ---------------------------------------------------------------


def test_g1_grading_sheet_shows_the_rulebooks_grades_in_round_order():
    m, per_set, session, names = samples.g1_session()
    sheet = docs.grading_data(session, names)[0]
    assert sheet.board == 1 and sheet.plays == 5
    assert [(line.round, line.table) for line in sheet.lines] == [
        (1, 1),
        (2, 5),
        (3, 4),
        (4, 3),
        (5, 2),
    ]
    assert [line.attack for line in sheet.lines] == ["75.0", "100.0", "0.0", "25.0", "50.0"]
    assert [line.defence for line in sheet.lines] == ["25.0", "0.0", "100.0", "75.0", "50.0"]
    assert [line.won or line.lost for line in sheet.lines] == [
        "+56",
        "+62",
        f"{MINUS}56",
        f"{MINUS}52",
        "+50",
    ]
    made = docs.grading_sheets(session=session, names=names, event=EVENT)
    text = whole(made.content)
    assert made.pages == 1
    for r in range(1, 6):
        assert count_name(text, names[("N", r)]) == 1  # every North took board 1 once
    assert f"{MINUS}56" in text and "-56" not in text
    assert "Board1" in squash(text) and "TakerNorth" in squash(text)


def test_g1_slip_prints_the_players_of_each_table_and_the_grades_once_entered():
    m, per_set, session, names = samples.g1_session()
    made = docs.slips(
        movement=m,
        per_set=per_set,
        names=names,
        event=EVENT,
        boards=[1],
        urls=samples.board_urls(1),
        session=session,
    )
    text = whole(made.content)
    assert made.pages == 1
    assert images(made.content) == 1  # the board's QR code
    # every player of the 5 tables that play set 1 is on the slip, once
    for r, t in [(1, 1), (2, 5), (3, 4), (4, 3), (5, 2)]:
        for o in "NESW":
            player = next(p for p in m.players() if p[0] == o and m.table_of(p, r) == t)
            on_slip = docs.slip_name(names[player]).replace("\u2011", "-")
            assert count_squashed(text, on_slip) == 1, (r, t, o)
    assert "+62" in text and f"{MINUS}52" in text and "100.0" in text
    assert "https://tarot.example/duplicate/7/board/1/" in text.replace("\n", "")


def test_empty_slip_has_a_line_per_play_and_no_score():
    m, per_set, session, names = samples.g1_session()
    context = docs.slips_context(
        movement=m,
        per_set=per_set,
        names=names,
        event=EVENT,
        boards=[1, 2],
        urls={},
        session=None,
    )
    (pair,) = context["pages"]
    assert [len(s.lines) for s in pair] == [5, 5]
    assert all(not (line.won or line.lost or line.attack) for s in pair for line in s.lines)
    assert all(s.qr == "" for s in pair)  # no URL, no QR code


def test_ranking_example_orders_both_rankings_as_the_rulebook():
    session = samples.ranking_example_session()
    names = samples.ranking_example_names()
    general, alternating = docs.ranking_data(session, names)
    assert [x.name for x in general] == [
        "S1",
        "N1",
        "E1",
        "E2",
        "W1",
        "W2",
        "N2",
        "S2",
        "S3",
        "E3",
        "N3",
        "W3",
    ]
    assert [x.name for x in alternating] == [
        "S1",
        "N1",
        "E1",
        "W1",
        "E2",
        "W2",
        "N2",
        "S2",
        "S3",
        "E3",
        "N3",
        "W3",
    ]
    assert [x.rank for x in alternating] == list(range(1, 13))
    assert [x.line_rank for x in alternating] == [1] * 4 + [2] * 4 + [3] * 4
    assert [x.tier_start for x in alternating].count(True) == 2  # lines before places 5, 9
    assert next(x for x in general if x.name == "N2").overall == "48.50"

    made = docs.rankings(session=session, names=names, event=EVENT)
    first, second = pages_of(made.content)
    assert "Alternating ranking" in first and "the ranking that counts" in first
    assert "General ranking" in second and "for information" in second
    # W1 is 4th in the alternating ranking and 5th in the general one (1.9)
    order = [line for line in first.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert order[3].split()[:2] == ["4", "W1"]


def test_several_sessions_put_the_general_ranking_first_and_mark_it():
    session = samples.ranking_example_session()
    made = docs.rankings(
        session=session, names=samples.ranking_example_names(), event=EVENT, sessions=2
    )
    first, second = pages_of(made.content)
    assert "General ranking" in first and "the ranking that counts" in first
    assert "Alternating ranking" in second and "the ranking that counts" not in second


def test_tied_overall_percentages_share_a_rank_in_the_general_ranking():
    overall = {("N", 1): Fraction(60), ("E", 1): Fraction(60), ("S", 1): Fraction(40)}
    records = {p: rules.Record(p, (), (), None, None, v) for p, v in overall.items()}
    lines = {o: {p: v for p, v in overall.items() if p[0] == o} for o in "NES"}
    session = rules.Session(
        {}, records, rules.general_ranking(overall), rules.alternating_ranking(lines)
    )
    general, _alt = docs.ranking_data(session, {})
    assert [(x.rank, x.tied) for x in general] == [(1, True), (1, True), (3, False)]
    headers, rows = docs.general_rows(session, {})
    assert [r[0] for r in rows] == [1, 1, 3]


def test_quadrette_example_gives_the_rulebooks_final_result():
    teams, oppositions = samples.quadrette_example()
    totals = docs.quadrette_totals(teams, oppositions)
    assert totals == {"A": Decimal("20.186"), "B": Decimal("-13.799"), "C": Decimal("-6.387")}
    context = docs.quadrettes_context(teams=teams, oppositions=oppositions, event=EVENT)
    first = context["lines"][0]
    assert first.name == "Les Excuses" and first.total == "+20.186"
    assert [b.pm for b in first.boards] == [
        "+4.000",
        f"{MINUS}3.162",
        "0.000",
        "+12.961",
        f"{MINUS}7.071",
        "0.000",
        "+3.162",
        "+10.296",
    ]
    assert first.against == [("Petit au bout", "+13.799"), ("Les Gardes", "+6.387")]
    made = docs.quadrettes(teams=teams, oppositions=oppositions, event=EVENT)
    text = whole(made.content)
    assert made.pages == 1
    assert "+20.186" in text and f"{MINUS}13.799" in text and f"{MINUS}6.387" in text


def test_quadrette_results_in_french_have_the_decimal_comma():
    teams, oppositions = samples.quadrette_example()
    with translation.override("fr"):
        text = whole(docs.quadrettes(teams=teams, oppositions=oppositions, event=EVENT).content)
    assert "+20,186" in text and f"{MINUS}3,162" in text and "20.186" not in text
    assert not re.search(r"(?<![\w/])-\d", text)


def test_team_match_quarter_example():
    match = samples.team_match_example(quarters=1)
    assert docs.team_match_totals(match) == (Decimal("8.602"), Decimal("17.559"))
    context = docs.team_match_context(match=match, event=EVENT)
    (quarter,) = context["quarters"]
    assert [(x.a_pm, x.b_pm) for x in quarter.lines] == [
        ("0.000", "7.071"),
        ("0.000", "10.488"),
        ("8.602", "0.000"),
        ("0.000", "0.000"),
    ]
    assert (quarter.a_total, quarter.b_total) == ("8.602", "17.559")
    assert context["winner"] == "Gent"
    assert quarter.closed_room.startswith("Anne Dupont (Lille)")
    assert quarter.open_room.startswith("Henri Faure (Gent)")
    made = docs.team_match(match=match, event=EVENT)
    text = whole(made.content)
    assert "garde contre" in text and f"{MINUS}168" in text and "17.559" in text
    assert "Captain of Lille" in text and "Captain of Gent" in text and "Director" in text


def test_team_match_bonus_counts_in_the_total():
    match = samples.team_match_example(quarters=1)
    match = type(match)(**{**match.__dict__, "a_bonus": Decimal("10.000")})
    assert docs.team_match_totals(match) == (Decimal("18.602"), Decimal("17.559"))
    assert docs.team_match_context(match=match, event=EVENT)["winner"] == "Lille"


def test_four_quarter_team_match_fits_two_pages():
    made = docs.team_match(match=samples.team_match_example(), event=EVENT)
    text = whole(made.content)
    assert made.pages <= 2
    for n in range(1, 5):
        assert f"Quarter {n}" in text


def test_triplettes_weigh_attack_and_defence_by_half():
    teams, plays = samples.triplette_example()
    result = docs.triplette_results(teams, plays)
    for t in teams:
        assert result.overall[t.key] == (result.attack[t.key] + result.defence[t.key]) / 2
    # each board's attack grades add up to 50 × plays, the defence takes the complement
    by_board = {}
    for p in plays:
        by_board.setdefault(p.board, []).append(p)
    assert all(len(v) == 3 for v in by_board.values())
    # the alternating ranking alternates the two starting lines
    lines = [next(t.line for t in teams if t.key == k) for k in result.alternating]
    assert lines[0::2] != lines[1::2] and set(lines[0:2]) == {"NS", "EW"}
    assert result.general == rules.general_ranking(result.overall)
    made = docs.triplettes(teams=teams, plays=plays, event=EVENT)
    text = pages_of(made.content)[0]  # the rankings; the records follow
    for t in teams:
        assert count_squashed(text, t.name) == 2  # in both rankings
        assert docs.percent(result.overall[t.key]) in text


def test_triplette_grades_come_from_grade_board():
    teams = [docs.Triplette("a", "A", "NS"), docs.Triplette("b", "B", "EW")]
    teams += [docs.Triplette("c", "C", "NS"), docs.Triplette("d", "D", "EW")]
    plays = [
        docs.TriplettePlay(1, 1, 1, "a", "b", 56),  # board 1: taker North, N-S attacks
        docs.TriplettePlay(1, 2, 2, "c", "d", -52),
        docs.TriplettePlay(2, 1, 1, "a", "b", 80),  # board 2: taker East, E-W attacks
        docs.TriplettePlay(2, 2, 2, "c", "d", 80),
    ]
    result = docs.triplette_results(teams, plays)
    assert result.attack == {"a": 100, "b": 50, "c": 0, "d": 50}
    assert result.defence == {"a": 50, "b": 0, "c": 50, "d": 100}
    assert result.overall == {"a": 75, "b": 25, "c": 25, "d": 75}


# --- sessions on movement(3, …) and movement(5, …) -----------------------------------------------


def test_guide_cards_seat_every_player_once_a_round(session):
    m, per_set, graded, names, urls = session
    cards = docs.guide_card_data(m, per_set, names)
    assert len(cards) == m.tables * m.rounds
    for r in range(1, m.rounds + 1):
        seated = [s.name for c in cards if c.round == r for s in c.seats]
        assert sorted(seated) == sorted(names.values())
    made = docs.guide_cards(movement=m, per_set=per_set, names=names, event=EVENT)
    assert made.pages == math.ceil(m.tables * m.rounds / docs.CARDS_PER_PAGE)
    text = whole(made.content)
    for name in names.values():
        assert count_name(text, name) == m.rounds, name


def test_guide_cards_send_the_boards_and_players_where_the_next_round_has_them(session):
    m, per_set, graded, names, urls = session
    cards = docs.guide_card_data(m, per_set, names)
    for card in cards:
        board_set = m.set_at(card.table, card.round)
        if card.round == m.rounds:
            assert card.boards_next is None
            assert all(s.next_table is None for s in card.seats)
        else:
            assert m.set_at(card.boards_next, card.round + 1) == board_set
        boards = list(boards_of_set(board_set, per_set))
        assert card.boards == f"{boards[0]}–{boards[-1]}"
        takes = {s.orientation: s.takes for s in card.seats}
        assert takes["North"] == ", ".join(str(b) for b in boards if taker_of(b) == "N")


def test_diagrams_one_page_a_board_with_its_qr_code(session):
    m, per_set, graded, names, urls = session
    boards = sorted(urls)[:3]
    made = docs.diagrams(boards=boards, urls=urls, event=EVENT)
    assert made.pages == len(boards)
    assert images(made.content) == len(boards)  # each board's own QR code
    pages = pages_of(made.content)
    for board, text in zip(boards, pages, strict=True):
        assert f"Board{board}" in squash(text)
        assert f"Taker:{docs.ORIENTATION_NAMES[taker_of(board)]}" in squash(text)
        for colour in ("yellow", "blue", "red", "green"):
            assert colour in text
        assert text.count("18 cards counted") == 4
        assert text.count("Exc.") == 4  # a 78-card grid per hand


def test_a_prepared_deal_is_printed_circled():
    context = docs.diagrams_context(
        boards=[1],
        urls={},
        event=EVENT,
        dealers={1: "W"},
        hands={1: {"N": ["S1", "HQ", "T21", "EX"], "chien": ["T3", "DK"]}},
    )
    (page,) = context["pages"]
    north = page.hands[0]
    held = [c.key for _sign, _red, cells in north.rows for c in cells if c.held]
    assert held == ["S1", "HQ", "T21", "EX"]
    assert all(not c.held for hand in page.hands[1:] for _s, _r, cs in hand.rows for c in cs)
    assert sum(len(cells) for _s, _r, cells in north.rows) == 78
    assert page.dealer == "West" and [h.dealer for h in page.hands] == [False, False, False, True]
    assert page.chien == [("3", "trump"), ("♦K", "")] + [("", "")] * 4


def test_slips_two_a_page_with_every_board_qr_code(session):
    m, per_set, graded, names, urls = session
    boards = sorted(urls)
    made = docs.slips(
        movement=m,
        per_set=per_set,
        names=names,
        event=EVENT,
        boards=boards,
        urls=urls,
        session=graded,
    )
    assert made.pages == math.ceil(len(boards) / 2)
    assert images(made.content) == len(boards)
    text = whole(made.content)
    for play in (p for plays in graded.boards.values() for p in plays):
        assert docs.grade(play.attack) in text
    negative = [p.score for plays in graded.boards.values() for p in plays if p.score < 0]
    assert negative and f"{MINUS}{-negative[0]}" in text
    assert not re.search(r"(?<![\w/])-\d", text)  # no ASCII hyphen for a minus


def test_grading_sheets_of_a_session(session):
    m, per_set, graded, names, urls = session
    made = docs.grading_sheets(session=graded, names=names, event=EVENT)
    text = whole(made.content)
    assert made.pages >= 1
    for board in graded.boards:
        assert f"Board {board}\n" in text
    # each player took per_set / 4 boards a round: their name is on as many lines
    for player, name in names.items():
        assert count_name(text, name) == len(graded.records[player].took)


def test_rankings_of_a_session(session):
    m, per_set, graded, names, urls = session
    made = docs.rankings(session=graded, names=names, event=EVENT)
    assert made.pages == 2
    first, second = pages_of(made.content)
    for name in names.values():
        assert count_name(first, name) == 1 and count_name(second, name) == 1
    best = graded.records[graded.alternating[0]]
    assert docs.percent(best.overall) in first


def test_records_one_page_a_player(session):
    m, per_set, graded, names, urls = session
    made = docs.records(movement=m, per_set=per_set, session=graded, names=names, event=EVENT)
    pages = pages_of(made.content)
    assert made.pages == len(names)
    for player, text in zip(m.players(), pages, strict=True):
        record = graded.records[player]
        assert names[player] in text
        for value in (record.overall, record.attack, record.defence):
            assert docs.percent(value) in text
    one = docs.records(
        movement=m,
        per_set=per_set,
        session=graded,
        names=names,
        event=EVENT,
        players=[("E", 2)],
    )
    assert one.pages == 1 and names[("E", 2)] in whole(one.content)


def test_a_record_lists_every_board_the_player_played_with_their_grade(session):
    m, per_set, graded, names, urls = session
    for record in docs.record_data(m, per_set, graded, names):
        assert len(record.lines) == m.rounds * per_set
        assert sum(line.took for line in record.lines) == m.rounds * per_set // 4
    record = docs.record_data(m, per_set, graded, names, players=[("S", 1)])[0]
    mine = graded.records[("S", 1)]
    took = {line.board: line.grade for line in record.lines if line.took}
    assert took == {p.board: docs.grade(p.attack) for p in mine.took}
    defended = {line.board: line.grade for line in record.lines if not line.took}
    assert defended == {p.board: docs.grade(p.defence) for p in mine.defended}


def test_defence_places_follow_the_geometry_table():
    # taker North: East in front (his left), South in the middle, West at the back
    assert [docs._place("N", o) for o in "ESW"] == ["front", "middle", "back"]
    assert [docs._place("E", o) for o in "SWN"] == ["front", "middle", "back"]
    assert [docs._place("S", o) for o in "WNE"] == ["front", "middle", "back"]
    assert [docs._place("W", o) for o in "NES"] == ["front", "middle", "back"]


def test_a_session_still_being_entered_prints_what_there_is():
    m = movement(3, 3)
    names = samples.sample_names(m)
    scores = samples.sample_scores(m, 4, missing=5)
    graded = rules.grade_session(m, 4, scores)
    context = docs.slips_context(
        movement=m,
        per_set=4,
        names=names,
        event=EVENT,
        boards=range(1, 13),
        urls={},
        session=graded,
    )
    lines = [line for pair in context["pages"] for s in pair for line in s.lines]
    assert sum(1 for line in lines if not (line.won or line.lost)) == 5
    last = m.players()[-2:]
    made = docs.records(
        movement=m, per_set=4, session=graded, names=names, event=EVENT, players=last
    )
    assert made.pages == 2


# --- figures and exports -------------------------------------------------------------------------


def test_long_names_are_shortened_on_the_slips_only():
    assert docs.slip_name("Marie-Christine Lambert") == "Marie\u2011C. Lambert"
    assert docs.slip_name("Jean-Baptiste Jacobs") == "Jean\u2011Baptiste Jacobs"
    m, per_set, session, names = samples.g1_session()
    assert "Marie-Christine Lambert" in names.values()
    text = whole(
        docs.slips(
            movement=m, per_set=per_set, names=names, event=EVENT, boards=[1], urls={}
        ).content
    )
    assert "Marie-C." in text and "Marie-Christine" not in text


def test_figures_are_rounded_half_up_and_localized():
    assert docs.grade(Fraction(250, 3)) == "83.3"
    assert docs.percent(Fraction(875, 16)) == "54.69"  # 54.6875 (1.8)
    assert docs.points(Decimal("-3.162")) == f"{MINUS}3.162"
    assert docs.points(Decimal("0.000")) == "0.000"
    with translation.override("nl"):
        assert docs.grade(Fraction(125, 2)) == "62,5"
        assert docs.percent(Fraction(200, 3)) == "66,67"
    assert docs.rounded(Fraction(875, 16), 2) == 54.69
    assert docs.rounded(Fraction(1, 8), 2) == 0.13  # half up, not to even


def test_export_rows_of_a_session(session):
    m, per_set, graded, names, urls = session
    headers, rows = docs.general_rows(graded, names)
    assert headers[:2] == ["Rank", "Player"] and len(rows) == len(names)
    assert [r[1] for r in rows] == [names[p] for p in graded.general]
    for row, player in zip(rows, graded.general, strict=True):
        assert row[6] == docs.rounded(graded.records[player].overall, 2)
    headers, rows = docs.alternating_rows(graded, names)
    assert headers[0] == "Place" and "Place in line" in headers
    assert [r[0] for r in rows] == list(range(1, len(names) + 1))
    assert [r[1] for r in rows] == [names[p] for p in graded.alternating]
    headers, rows = docs.grading_rows(graded, names)
    assert len(rows) == sum(len(v) for v in graded.boards.values())
    assert all(isinstance(r[6], int) for r in rows)  # the signed score as a number
    first = graded.boards[1][0]
    assert rows[0][:7] == [
        1,
        "North",
        first.round,
        first.table,
        names[first.taker],
        "N1",
        first.score,
    ]
    dataset = rows_dataset(headers, rows, title="Grading")
    assert dataset.height == len(rows)


def test_export_rows_make_a_hostile_name_text():
    m, per_set, graded, names = samples.g1_session()
    names = {**names, ("N", 1): "=HYPERLINK(1)"}
    headers, rows = docs.grading_rows(graded, names)
    dataset = rows_dataset(headers, rows, title="Grading")
    assert dataset[0][4] == "'=HYPERLINK(1)"


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    tables=st.integers(1, 7),
    rounds_minus=st.integers(0, 6),
    per_set=st.sampled_from([4, 8]),
    seed=st.integers(0, 10_000),
)
def test_every_board_is_on_its_slip_once_a_round_with_its_grades(
    tables, rounds_minus, per_set, seed
):
    rounds = max(1, tables - rounds_minus)
    m = movement(tables, rounds)
    names = samples.sample_names(m)
    graded = rules.grade_session(m, per_set, samples.sample_scores(m, per_set, seed=seed))
    boards = range(1, tables * per_set + 1)
    context = docs.slips_context(
        movement=m,
        per_set=per_set,
        names=names,
        event=EVENT,
        boards=boards,
        urls={},
        session=graded,
    )
    slips = [s for pair in context["pages"] for s in pair]
    assert [s.board for s in slips] == list(boards)
    for slip in slips:
        assert [line.round for line in slip.lines] == list(range(1, rounds + 1))
        plays = {p.round: p for p in graded.boards[slip.board]}
        for line in slip.lines:
            play = plays[line.round]
            assert line.table == play.table
            # the taker's seat is marked, and it is the taker's name
            (taker,) = [name for name, is_taker in line.players if is_taker]
            assert taker == docs.slip_name(names[play.taker])
            assert (line.won or line.lost) == docs.signed(play.score)
            total = Fraction(line.attack) + Fraction(line.defence)
            assert total == 100
    cards = docs.guide_card_data(m, per_set, names)
    assert len(cards) == tables * rounds
    for r in range(1, rounds + 1):
        assert sorted(c.table for c in cards if c.round == r) == list(range(1, tables + 1))


def test_rankings_download_as_csv_and_xlsx(session):
    from tarotclub.reports.exports import rows_response

    m, per_set, graded, names, urls = session
    headers, rows = docs.alternating_rows(graded, names)
    csv = rows_response(headers, rows, "csv", name="alternating.csv", title="Alternating")
    text = csv.content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith('"Place","Player","Code","Line","Place in line"')
    first = graded.records[graded.alternating[0]]
    assert f",{docs.rounded(first.overall, 2)}" in text.splitlines()[1]
    xlsx = rows_response(headers, rows, "xlsx", name="alternating.xlsx", title="Alternating")
    assert xlsx.content[:2] == b"PK"


def test_the_tournament_colour_and_the_dealer_are_printed_when_known():
    m, per_set, session, names = samples.g1_session()
    event = docs.Event("Open", "Club", "1/12/2026", colour="Vert")
    made = docs.slips(
        movement=m,
        per_set=per_set,
        names=names,
        event=event,
        boards=[1, 2],
        urls={},
        dealers={1: "W"},
    )
    first = squash(pages_of(made.content)[0])
    assert first.count("Tournamentcolour:Vert") == 2
    assert first.count("Dealer:West") == 1  # board 2's dealer is not marked
    made = docs.diagrams(boards=[1], urls={}, event=event)
    assert "Tournamentcolour:Vert" in squash(whole(made.content))
    assert images(made.content) == 0  # no URL, no QR code


@settings(max_examples=20, deadline=None)
@given(tables=st.integers(1, 7), per_set=st.sampled_from([4, 8]), seed=st.integers(0, 999))
def test_a_record_never_holds_a_board_twice_and_matches_the_grades(tables, per_set, seed):
    m = movement(tables, tables)
    names = samples.sample_names(m)
    graded = rules.grade_session(m, per_set, samples.sample_scores(m, per_set, seed=seed))
    for player, record in zip(
        m.players(), docs.record_data(m, per_set, graded, names), strict=True
    ):
        boards = [line.board for line in record.lines]
        assert len(boards) == len(set(boards)) == tables * per_set
        mine = graded.records[player]
        assert record.overall == docs.percent(mine.overall)
        assert {line.board for line in record.lines if line.took} == {p.board for p in mine.took}
        assert record.general_rank is not None and 1 <= record.general_rank <= len(names)


def test_each_triplettes_record_lists_its_boards_with_the_grades_of_its_percentages():
    teams, plays = samples.triplette_example()
    result = docs.triplette_results(teams, plays)
    context = docs.triplettes_context(teams=teams, plays=plays, event=EVENT)
    assert len(context["records"]) == len(teams)
    for team, rows in context["records"]:
        key = next(t.key for t in teams if t.name == team.name)
        mine = result.boards[key]
        assert len(rows) == len(mine) == 12
        assert [r.board for r in rows] == sorted(r.board for r in rows)
        attacked = [g for _p, a, g in mine if a]
        assert sum(r.attacked for r in rows) == len(attacked) == 6
        assert result.attack[key] == sum(attacked) / len(attacked)
        assert all(r.opponent != team.name for r in rows)
    made = docs.triplettes(teams=teams, plays=plays, event=EVENT)
    assert made.pages >= 2  # the rankings, then the records
    text = squash(whole(made.content))
    assert all(squash(t.name) in text for t in teams)


def test_a_board_played_more_than_8_times_gets_a_slip_a_page():
    from scoring.movement import default_movement

    for tables, per_page in ((8, 2), (9, 1), (13, 1)):
        m = default_movement(tables, tables)
        context = docs.slips_context(
            movement=m, per_set=4, names={}, event=EVENT, boards=[1, 2, 3], urls={}
        )
        assert [len(page) for page in context["pages"]] == ([2, 1] if per_page == 2 else [1, 1, 1])
        assert all(len(s.lines) == tables for page in context["pages"] for s in page)
