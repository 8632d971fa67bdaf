"""Dates and numbers in the reader's language: day-month dates in English too, one minus sign,
rates rounded (not truncated), plural-aware counts, history lines that say everything."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import formats, translation

from tarotclub.games import services
from tarotclub.games.presenters import MINUS
from tarotclub.games.tables import NumberColumn
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.kind import Tarot
from tarotclub.kinds.tarot.services import DealInput

DAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "lang, long, short",
    [
        ("en", "1 Dec 2026", "01/12/2026"),
        ("fr", "1 décembre 2026", "01/12/2026"),
        ("nl", "1 december 2026", "1-12-2026"),
    ],
)
def test_dates_put_the_day_first_in_every_language(lang, long, short):
    with translation.override(lang):
        assert formats.date_format(DAY, "DATE_FORMAT") == long
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short
        moment = dt.datetime(2026, 12, 1, 20, 5)
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == f"{short} 20:05"


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_rates_are_rounded_not_truncated(lang):
    with translation.override(lang):
        rate = NumberColumn(percent=True).render(2 / 3)
        assert re.sub(r"\D", "", rate) == "67"
        one_digit = NumberColumn(digits=1).render(2.96)
        assert re.sub(r"\D", "", one_digit) == "30"  # 3.0, not 2.9
        assert re.sub(r"\D", "", NumberColumn(digits=1).render(0.25)) == "03"  # half up: 0.3


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_negative_figures_use_the_minus_sign(lang):
    with translation.override(lang):
        assert NumberColumn(digits=1).render(-12.34).startswith(MINUS)
        assert NumberColumn().render(-66) == f"{MINUS}66"
        assert "-" not in NumberColumn(digits=1).render(-0.04)  # rounds to 0: no sign at all


def snapshot(**over):
    snap = {
        "number": 1,
        "dealer": 1,
        "taker": 1,
        "partner": None,
        "contract": "garde",
        "bouts": 1,
        "points_half": 102,
        "petit_au_bout": "",
        "poignees": [],
        "chelem": "none",
        "version": 1,
        "scores": {"1": 150, "2": -50, "3": -50, "4": -50},
    }
    snap.update(over)
    return snap


NAMES = {1: "Anne", 2: "Bram", 3: "Chloé", 4: "Dirk"}


def test_history_lines_count_bouts_with_plurals():
    with translation.override("en"):
        assert "1 bout," in Tarot.describe_snapshot(snapshot(bouts=1), NAMES)
        assert "0 bouts," in Tarot.describe_snapshot(snapshot(bouts=0), NAMES)
        assert "3 bouts," in Tarot.describe_snapshot(snapshot(bouts=3), NAMES)


def test_history_lines_mention_petit_au_bout_poignees_and_slam():
    snap = snapshot(
        petit_au_bout="defence",
        poignees=[[1, "simple"], [3, "double"]],
        chelem="announced_failed",
    )
    with translation.override("en"):
        text = Tarot.describe_snapshot(snap, NAMES)
    assert "petit au bout: defence" in text
    assert "poignées: Anne simple, Chloé double" in text
    assert "slam: announced, failed" in text
    assert f"Bram {MINUS}50" in text and "Anne +150" in text
    plain = Tarot.describe_snapshot(snapshot(), NAMES)
    assert "petit au bout" not in plain and "poign" not in plain and "slam" not in plain


def test_history_lines_in_french_and_dutch():
    snap = snapshot(petit_au_bout="attack", poignees=[[1, "simple"]], chelem="none", bouts=1)
    with translation.override("fr"):
        fr = Tarot.describe_snapshot(snap, NAMES)
    with translation.override("nl"):
        nl = Tarot.describe_snapshot(snap, NAMES)
    assert "1 bout" in fr and "petit au bout" in fr
    assert "1 oudler" in nl or "1 bout" in nl


@pytest.mark.django_db
def test_the_history_page_says_what_the_deal_had(member_client, member, four, settings):
    settings.LANGUAGE_CODE = "en"
    game = services.game_start(players=four, created_by=member)
    tarot.deal_add(
        game=game,
        data=DealInput(
            taker=four[0].pk,
            contract="garde",
            bouts=2,
            points=Fraction(49),
            petit_au_bout="attack",
            poignees=((four[0].pk, "simple"),),
        ),
    )
    member_client.cookies["django_language"] = "en"
    html = member_client.get(reverse("games:history", args=[game.token])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "2 bouts" in text and "petit au bout: attack" in text and "poignée: Anne simple" in text
    assert re.search(r"\d{2}/\d{2}/\d{4}", text)  # the change's date, day first
    assert f"{MINUS}" in text


def test_fractions_are_rounded_half_up_too():
    from tarotclub.games.presenters import figure

    with translation.override("en"):
        assert figure(Fraction(25, 2), 0) == "13"
        assert figure(Fraction(-1, 8), 2) == f"{MINUS}0.13"
        assert figure(Fraction(-1, 3), 1) == f"{MINUS}0.3"


@pytest.mark.django_db
def test_the_tarot_sheet_totals_use_the_minus_sign(client, member, four):
    game = services.game_start(players=four, created_by=member)
    tarot.deal_add(
        game=game,
        data=DealInput(taker=four[0].pk, contract="garde", bouts=2, points=Fraction(49)),
    )
    html = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    totals = html.split('class="totals', 1)[1].split("</ol>", 1)[0]
    assert re.search(f">{MINUS}\\d+<", totals) and not re.search(r">-\d+<", totals)
