"""A board entered from the deal's facts (the free-play deal screen's fields), scored by
`scoring.fft`: the board score is U, what one defender pays (duplicate.md 1.5, open questions
8 and 16). The worked quarter of duplicate.md 2.4 (8.602 / 17.559) entered from facts that
give its scores; hostile facts refused with the rules' messages; the facts kept for a
correction; the score shown before saving."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, fft
from tarotclub.core.models import LogEntry
from tarotclub.matches import selectors, services
from tarotclub.matches.models import Quarter, Result

from .helpers import make_match

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


def facts(bouts, points, pab="", poignees=(), chelem="none"):
    return {
        "bouts": bouts,
        "points_half": int(Fraction(points) * 2),
        "petit_au_bout": pab,
        "poignees": [list(p) for p in poignees],
        "chelem": chelem,
    }


#: duplicate.md 2.4's worked quarter, board by board: (contract, facts, the sheet's score).
WORKED = {
    "A": [
        ("garde", facts(1, 59), 66),  # (25 + 8) × 2
        ("garde_contre", facts(2, 38), -168),  # −(25 + 3) × 6
        ("garde_sans", facts(2, 43, pab="attack"), 148),  # (25 + 2) × 4 + 10 × 4
        ("garde", facts(1, 51), 50),  # (25 + 0) × 2
    ],
    "B": [
        ("garde_sans", facts(3, 40), 116),  # (25 + 4) × 4
        ("garde", facts(0, "52.5"), -58),  # 52½ lost: 52, −(25 + 4) × 2
        ("garde", facts(0, 58, poignees=[("N", "simple")]), 74),  # (25 + 2) × 2 + 20
        ("garde", facts(1, 51), 50),
    ],
}


def _enter_facts(match, sample, people, team, rows=None):
    q = sample.quarters[0]
    return services.quarter_record(
        match=match,
        number=1,
        team=team,
        attacker=people[q.a_attacker if team == "A" else q.b_attacker],
        closed=q.closed if team == "A" else None,
        results=[(c, f) for c, f, _score in (rows or WORKED[team])],
    )


@pytest.mark.parametrize("team", "AB")
def test_each_worked_board_from_its_facts_gives_the_sheets_score(team):
    for board, (contract, deal, score) in enumerate(WORKED[team], start=1):
        value, stored = services.facts_score(board=board, contract=contract, facts=deal)
        assert value == score
        assert stored == deal


def test_the_worked_quarter_entered_from_the_facts():
    match, sample, people = make_match(quarters=0)
    for team in "AB":
        _enter_facts(match, sample, people, team)
    sheet = selectors.match_sheet(match)
    assert sheet.data.quarters == sample.quarters[:1]
    stored = {(r.team, r.board): r for r in Result.objects.all()}
    assert stored[("A", 3)].facts == WORKED["A"][2][1]
    assert stored[("B", 2)].facts["points_half"] == 105
    from tarotclub.reports import duplicate as docs

    a, b = docs.team_match_totals(sheet.data)
    assert (str(a), str(b)) == ("8.602", "17.559")


def test_scores_and_facts_mix_in_one_quarter_and_a_double_submit_logs_nothing():
    match, sample, people = make_match(quarters=0)
    q = sample.quarters[0]
    rows = [(c, f) for c, f, _s in WORKED["A"]]
    rows[1] = ("garde_contre", -168)
    kwargs = dict(match=match, number=1, team="A", attacker=people[q.a_attacker], closed=q.closed)
    services.quarter_record(**kwargs, results=rows)
    logged = LogEntry.objects.count()
    services.quarter_record(**kwargs, results=rows)
    assert LogEntry.objects.count() == logged
    results = list(Result.objects.order_by("board"))
    assert [r.score for r in results] == [66, -168, 148, 50]
    assert results[1].facts is None and results[0].facts == WORKED["A"][0][1]
    entry = LogEntry.objects.filter(action="match.quarter_recorded").latest("pk")
    assert entry.after["results"][2] == [3, "garde_sans", 148, WORKED["A"][2][1]]
    # the same scores entered as facts instead: a change, logged
    services.quarter_record(**kwargs, results=[(c, f) for c, f, _s in WORKED["A"]])
    assert LogEntry.objects.count() == logged + 1


@pytest.mark.parametrize(
    ("contract", "deal", "template"),
    [
        ("garde", facts(1, 50, chelem="announced_made"), fft.ERR_CHELEM_ATTACK_LOST),
        ("garde", facts(1, 60, chelem="unannounced_made"), fft.ERR_SLAM_ATTACK_CARDS),
        ("garde", facts(0, 50, pab="attack"), fft.ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT),
        ("garde", facts(3, 50, pab="defence"), fft.ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS),
        ("garde", facts(3, 10), fft.ERR_POINTS_TOO_FEW_FOR_BOUTS),
        ("garde", facts(0, 90), fft.ERR_POINTS_TOO_MANY_FOR_BOUTS),
        ("garde", facts(4, 50), fft.ERR_BOUTS),
        ("garde", facts(1, 50, pab="both"), fft.ERR_SIDE),
        ("garde", facts(1, 50, chelem="maybe"), fft.ERR_CHELEM),
        ("garde", facts(1, 50, poignees=[("S", "quadruple")]), fft.ERR_POIGNEE_KIND),
        (
            "garde",
            facts(1, 50, poignees=[("S", "triple"), ("N", "simple")]),
            fft.ERR_POIGNEES_TOO_MANY_TRUMPS,
        ),
        (
            "garde",
            facts(1, 50, poignees=[("S", "simple"), ("S", "double")]),
            fft.ERR_DUPLICATE_POIGNEE,
        ),
    ],
)
def test_impossible_facts_are_refused_with_the_rules_message(contract, deal, template):
    match, sample, people = make_match(quarters=0)
    rows = [(c, f) for c, f, _s in WORKED["A"]]
    rows[2] = (contract, deal)
    with pytest.raises(services.MatchError) as caught:
        _enter_facts(match, sample, people, "A", rows=[(c, f, 0) for c, f in rows])
    message = caught.value.messages[0]
    assert message.startswith("Board 3: ")
    # the rules' own sentence, whatever its parameters
    head = template.split("%(")[0]
    assert head in message
    assert not Quarter.objects.exists() and not Result.objects.exists()


@pytest.mark.parametrize(
    "deal",
    [
        None,
        [],
        "garde",
        {**facts(1, 50), "extra": 1},
        {k: v for k, v in facts(1, 50).items() if k != "chelem"},
        {**facts(1, 50), "bouts": True},
        {**facts(1, 50), "bouts": "1"},
        {**facts(1, 50), "points_half": 1.5},
        {**facts(1, 50), "points_half": 183},
        {**facts(1, 50), "points_half": -1},
        {**facts(1, 50), "poignees": [["X", "simple"]]},
        {**facts(1, 50), "poignees": [["S"]]},
        {**facts(1, 50), "poignees": "S"},
        {**facts(1, 50), "poignees": [["S", 3]]},
        {**facts(1, 50), "petit_au_bout": None},
    ],
)
def test_facts_not_understood_are_refused(deal):
    with pytest.raises(services.MatchError) as caught:
        services.facts_score(board=2, contract="garde", facts=deal)
    assert "Board 2" in caught.value.messages[0]


def test_a_prise_is_refused_from_the_facts_too():
    with pytest.raises(services.MatchError) as caught:
        services.facts_score(board=1, contract="prise", facts=facts(1, 60))
    assert caught.value.messages == [str(services.ERR_CONTRACT)]


POIGNEE = st.sampled_from(["simple", "double", "triple"])


@st.composite
def deals(draw):
    bouts = draw(st.integers(0, 3))
    half = draw(st.integers(0, 182))
    seats = draw(st.lists(st.sampled_from(services.SEATS), max_size=2, unique=True))
    return (
        draw(st.sampled_from(["garde", "garde_sans", "garde_contre"])),
        {
            "bouts": bouts,
            "points_half": half,
            "petit_au_bout": draw(st.sampled_from(["", "attack", "defence"])),
            "poignees": [[s, draw(POIGNEE)] for s in seats],
            "chelem": draw(st.sampled_from(list(fft.Chelem))).value,
        },
    )


@settings(max_examples=300, deadline=None)
@given(deals())
def test_any_fact_is_either_refused_or_a_valid_board_score_that_reopens_the_same(deal):
    contract, data = deal
    try:
        expected = fft.score_deal(
            seats=services.SEATS,
            taker="S",
            contract=contract,
            bouts=data["bouts"],
            points=Fraction(data["points_half"], 2),
            petit_au_bout=data["petit_au_bout"] or None,
            poignees=[tuple(p) for p in data["poignees"]],
            chelem=data["chelem"],
        )
    except RuleError:
        with pytest.raises(services.MatchError):
            services.facts_score(board=1, contract=contract, facts=data)
        return
    score, stored = services.facts_score(board=1, contract=contract, facts=data)
    # U: what each of the three defenders pays; the attacker alone gets 3U
    assert score == expected.unit == -expected.scores["N"] == expected.scores["S"] // 3
    # a valid board score as the sheet could carry it (even, within the bounds)
    assert services._score(score) == score
    # reopened for a correction, the stored facts give the same score
    assert services.facts_score(board=1, contract=contract, facts=stored) == (score, stored)


# --- the page ---------------------------------------------------------------------------


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def facts_post(team, people, sample, rows=None, *, side="attack"):
    q = sample.quarters[0]
    p = team.lower()
    data = {
        "team": team,
        f"{p}-attacker": str(people[q.a_attacker if team == "A" else q.b_attacker].pk),
    }
    if team == "A":
        data["a-closed"] = q.closed
    for board, (contract, deal, _score) in enumerate(rows or WORKED[team], start=1):
        pts = Fraction(deal["points_half"], 2)
        if side == "defence":
            pts = 91 - pts
        data.update(
            {
                f"{p}-contract_{board}": contract,
                f"{p}-entry_{board}": "facts",
                f"{p}-f{board}-bouts": str(deal["bouts"]),
                f"{p}-f{board}-points_side": side,
                f"{p}-f{board}-points": str(pts).replace("/2", "")
                if pts.denominator == 1
                else f"{pts.numerator // 2}.5",
                f"{p}-f{board}-petit_au_bout": deal["petit_au_bout"],
                f"{p}-f{board}-chelem": deal["chelem"],
            }
        )
        for seat, kind in deal["poignees"]:
            data[f"{p}-f{board}-poignee_{seat}"] = kind
    return data


def test_the_worked_quarter_from_the_facts_through_the_page(director_client):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    page = director_client.get(url).content.decode()
    assert 'name="a-f3-bouts"' in page and 'name="b-f2-poignee_N"' in page
    assert 'name="a-f1-contract"' not in page and 'name="a-f1-taker"' not in page
    # first the scores, shown and not saved
    data = facts_post("A", people, sample)
    shown = director_client.post(url, {**data, "preview": "1"})
    assert shown.status_code == 200
    text = shown.content.decode()
    for figure in ("+66", f"{MINUS}168", "+148", "+50"):
        assert f"Board score from the facts: {figure}" in text
    assert "Check them, then record the quarter." in text
    assert not Result.objects.exists()
    # then recorded; B counts its points from the defence's side
    assert director_client.post(url, data).status_code == 302
    data_b = facts_post("B", people, sample, side="defence")
    assert director_client.post(url, data_b).status_code == 302
    results = director_client.get(reverse("matches:results", kwargs={"pk": match.pk}))
    assert "8.602" in results.content.decode() and "17.559" in results.content.decode()
    # a correction reopens the facts
    again = director_client.get(url).content.decode()
    assert 'name="b-entry_2" value="facts"' in again.replace(" checked", "")
    assert 'name="b-f2-points" value="52.5"' in again
    assert 'name="b-f3-poignee_N" value="simple"' in again.replace(" checked", "")
    assert "Board score from the facts: +74" in again


@pytest.mark.parametrize(
    ("change", "text"),
    [
        ({"a-f3-chelem": "announced_made"}, "The attack made a slam"),
        ({"a-f1-bouts": "0", "a-f1-petit_au_bout": "attack"}, "petit au bout"),
        ({"a-f1-points": "92"}, "between 0 and 91"),
        ({"a-f1-points": "40.25"}, "halves"),
        ({"a-f1-points": "9" * 5000}, ""),
        ({"a-f1-points": ""}, "Enter the card points."),
        ({"a-f1-bouts": "7"}, ""),
        ({"a-f1-bouts": ""}, "How many bouts"),
        ({"a-f1-poignee_S": "quadruple"}, ""),
        ({"a-f1-poignee_S": "triple", "a-f1-poignee_E": "double"}, "22 cards"),
        ({"a-f1-chelem": "<script>"}, ""),
        ({"a-entry_1": "guess"}, "its score, or the deal's facts"),
        ({"a-contract_1": "prise"}, ""),
    ],
)
def test_hostile_facts_on_the_page_are_refused_and_change_nothing(director_client, change, text):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    logged = LogEntry.objects.count()
    for preview in ({}, {"preview": "1"}):
        response = director_client.post(
            url, {**facts_post("A", people, sample), **change, **preview}
        )
        assert response.status_code == 200
        page = response.content.decode()
        assert 'role="alert"' in page
        assert text in page.replace("&#x27;", "'")
        assert "<script>" not in page.split("<main", 1)[1].split("</main>")[0]
    assert not Quarter.objects.exists() and not Result.objects.exists()
    assert LogEntry.objects.count() == logged


def test_a_facts_board_needs_no_score_and_a_score_board_no_facts(director_client):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    data = facts_post("A", people, sample)
    data.update({"a-entry_2": "score", "a-result_2": "failed", "a-score_2": "168"})
    data["a-f2-points"] = "not read"
    assert director_client.post(url, data).status_code == 302
    assert Result.objects.get(board=2).facts is None
    # a facts board's hidden score fields are not read, whatever they hold
    data = facts_post("A", people, sample)
    data.update({"a-score_1": "abc", "a-result_1": "maybe"})
    assert director_client.post(url, data).status_code == 302
    assert Result.objects.get(board=1).facts == WORKED["A"][0][1]
    data = facts_post("A", people, sample)
    data.update({"a-entry_2": "score"})  # no score given
    page = director_client.post(url, data).content.decode()
    assert "Enter the attacker&#x27;s score." in page


@pytest.mark.parametrize("quarters", [1, 4])
def test_the_quarter_page_with_facts_keeps_its_queries(
    director_client, django_assert_num_queries, quarters
):
    match, sample, people = make_match(quarters=quarters)
    Result.objects.update(facts=facts(1, 51))  # the facts are read with the results
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    # session, user; the match, its members with their players, its quarters, their results
    with django_assert_num_queries(6):
        director_client.get(url)
    with django_assert_num_queries(6):
        director_client.post(url, {**facts_post("A", people, sample), "preview": "1"})
