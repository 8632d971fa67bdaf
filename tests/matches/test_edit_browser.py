"""At 360 px: a director corrects a team match (a player replaced, a bonus), and enters a
quarter's board from the deal's facts, sees the computed score, then records it. No sideways
page, no clipped frame, tap targets big enough (the site's page check). Screenshots go to
tests/artifacts/match-edit-*.png."""

from __future__ import annotations

import pytest

from conftest import scroll_width
from tarotclub.matches.models import Result, TeamMatch
from tarotclub.players.services import player_create
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

from .helpers import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MINUS = "\u2212"


def test_correcting_a_match_and_entering_facts_on_a_phone(phone, live_server, artifacts, director):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    match, sample, people = make_match(quarters=0)
    stand_in = player_create(name="Zoé Remplaçante")
    base = live_server.url
    problems = {}

    def check(name):
        found = {k: v for k, v in check_page(page).items() if v}
        page.screenshot(path=str(artifacts / f"match-edit-{name}.png"), full_page=True)
        if found:
            problems[name] = found

    log_in(page, "director", "pw-director-1", base)
    page.goto(f"{base}/matches/{match.pk}/edit/")
    assert page.locator("input[name=a_name]").input_value() == sample.a_name
    page.select_option("select[name=b_4]", label=stand_in.name)
    page.fill("input[name=a_bonus]", "1,5")
    check("form")
    page.get_by_role("button", name="Save the corrections").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    assert "The team match is corrected." in page.locator("body").inner_text()
    assert stand_in.name in page.locator("main").inner_text()

    # quarter 1, team A: board 3 from the facts (garde sans, 2 bouts, 43 points, petit au bout)
    page.goto(f"{base}/matches/{match.pk}/quarter/1/")
    q = sample.quarters[0]
    form = page.locator("#team-A")
    form.locator("label.choice", has_text=q.a_attacker).click()
    form.locator("fieldset#fs-a-closed label.choice", has_text=sample.a_name).click()
    board3 = form.locator("#board-A-3")
    assert board3.locator(".facts-part").is_hidden()  # the score is asked by default
    for b in q.boards:
        form.locator(f"input[name=a-contract_{b.board}][value={b.a_contract}]").check(force=True)
        if b.board == 3:
            continue
        result = "failed" if b.a_score < 0 else "made"
        form.locator(f"input[name=a-result_{b.board}][value={result}]").check(force=True)
        form.locator(f"input[name=a-score_{b.board}]").fill(str(abs(b.a_score)))
    board3.locator("label.choice", has_text="the deal's facts").click()
    assert board3.locator(".score-part").is_hidden() and board3.locator(".facts-part").is_visible()
    board3.locator("fieldset#fs-a-f3-bouts label.choice", has_text="2").click()
    board3.locator("input[name=a-f3-points]").fill("43")
    board3.locator("fieldset#fs-a-f3-petit_au_bout label.choice", has_text="attack").click()
    form.get_by_role("button", name="Show the scores").click()
    page.wait_for_load_state()
    form = page.locator("#team-A")
    assert "Board score from the facts: +148" in form.inner_text()
    assert not Result.objects.exists()
    board3 = form.locator("#board-A-3")
    board3.locator("summary", has_text="Poignées").click()  # a poignée per seat
    assert board3.locator("fieldset#fs-a-f3-poignee_S").is_visible()
    board3.screenshot(path=str(artifacts / "match-edit-board-facts.png"))
    check("quarter-facts")
    form.get_by_role("button", name="Record the quarter of Lille").click()
    page.wait_for_load_state()
    assert "Quarter 1 of Lille is recorded." in page.locator("body").inner_text()
    check("quarter-recorded")
    assert Result.objects.get(team="A", board=3).facts["points_half"] == 86
    assert TeamMatch.objects.get().a_bonus == 1.5
    assert scroll_width(page) <= 360
    report = "\n".join(f"{key}: {value}" for key, value in sorted(problems.items()))
    (artifacts / "pagecheck-match-edit.txt").write_text(report or "nothing", encoding="utf-8")
    assert problems == {}, report
