"""A team match on a phone at 360 px, from creating it to its results: no sideways page, no
clipped frame, no broken word, tap targets big enough (the site's page check). Screenshots go
to tests/artifacts/."""

from __future__ import annotations

import pytest

from conftest import scroll_width
from tarotclub.matches.models import TeamMatch
from tarotclub.players.services import player_create
from tarotclub.reports.duplicate_samples import team_match_example
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_team_match_from_creation_to_results_on_a_phone(phone, live_server, artifacts, director):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    sample = team_match_example(quarters=1)
    for name in sample.a_players + sample.b_players:
        player_create(name=name)
    base = live_server.url
    problems = {}

    def check(name):
        found = {k: v for k, v in check_page(page).items() if v}
        page.screenshot(path=str(artifacts / f"match-{name}.png"), full_page=True)
        if found:
            problems[name] = found

    log_in(page, "director", "pw-director-1", base)
    page.goto(base + "/matches/new/")
    page.fill("input[name=name]", "Lille – Gent")
    page.fill("input[name=date]", "2026-12-05")
    page.locator("label.choice", has_text="16").click()
    page.fill("input[name=a_name]", sample.a_name)
    page.fill("input[name=b_name]", sample.b_name)
    for team, players in (("a", sample.a_players), ("b", sample.b_players)):
        for i, name in enumerate(players[:4], start=1):
            page.select_option(f"select[name={team}_{i}]", label=name)
    check("new")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/quarter/1/")
    assert scroll_width(page) <= 360
    q = sample.quarters[0]
    for team, attacker in (("A", q.a_attacker), ("B", q.b_attacker)):
        form = page.locator(f"#team-{team}")
        form.locator("label.choice", has_text=attacker).click()
        if team == "A":
            form.locator("fieldset#fs-a-closed label.choice", has_text=sample.a_name).click()
        for b in q.boards:
            contract, score = (
                (b.a_contract, b.a_score) if team == "A" else (b.b_contract, b.b_score)
            )
            p = team.lower()
            form.locator(f"input[name={p}-contract_{b.board}][value={contract}]").check(force=True)
            result = "failed" if score < 0 else "made"
            form.locator(f"input[name={p}-result_{b.board}][value={result}]").check(force=True)
            form.locator(f"input[name={p}-score_{b.board}]").fill(str(abs(score)))
        if team == "A":
            # the + button steps by 2 and − comes back: the score typed is what is sent
            box = form.locator(f"input[name=a-score_{q.boards[0].board}]")
            form.locator("[data-stepper] .step[data-step='2']").first.click()
            assert box.input_value() == str(abs(q.boards[0].a_score) + 2)
            form.locator("[data-stepper] .step[data-step='-2']").first.click()
            assert box.input_value() == str(abs(q.boards[0].a_score))
            check("quarter-filled")
        form.get_by_role("button").last.click()
        page.wait_for_load_state()
    check("quarter-recorded")
    match = TeamMatch.objects.get()
    page.goto(f"{base}/matches/{match.pk}/")
    check("results")
    text = page.locator("main").inner_text()
    assert "8.602" in text and "17.559" in text and "\u2212110" in text
    assert "Gent leads" in text
    assert scroll_width(page) <= 360
    report = "\n".join(f"{key}: {value}" for key, value in sorted(problems.items()))
    (artifacts / "pagecheck-matches.txt").write_text(report or "nothing", encoding="utf-8")
    assert problems == {}, report
