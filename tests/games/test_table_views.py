"""The server's side of the table on a phone (issue 11): the sheet's rows open their deal, the
correction screen opens with the deal's score, the live preview hints instead of scolding, the
card points are said for both sides, names fit narrow columns."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tarotclub.core.text import NON_BREAKING_HYPHEN as NB_HYPHEN
from tarotclub.games import kinds
from tarotclub.games import services as game_services
from tarotclub.games.presenters import compact_name, compact_names
from tarotclub.kinds.tarot.services import DealInput, deal_add

pytestmark = pytest.mark.django_db


def url(name, game, *args):
    return reverse(f"games:{name}", args=[game.token, *args])


def deal_post(players, **over):
    data = {
        "taker": players[0].pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "petit_au_bout": "",
        "chelem": "none",
    }
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


# --- 4. a row opens its deal; the correction screen shows the score at once --------------------


def test_each_row_of_the_sheet_links_its_deal(client, game4, four):
    for taker in four[:3]:
        deal_add(game=game4, data=DealInput(taker=taker.pk, contract="prise", bouts=1, points=60))
    html = client.get(url("sheet", game4)).content.decode()
    links = re.findall(r'<a class="row-link" href="([^"]+)">', html)
    assert links == [url("deal", game4, n) for n in (1, 2, 3)]


def test_a_replayed_sheet_links_each_entry_to_its_page(client, member, make_players):
    players = make_players("Anne", "Bram", "Chloé")
    game = game_services.game_start(
        players=players, kind="foolsfaith", first_dealer=0, created_by=member
    )
    played = kinds.get("foolsfaith").load(game)
    game_services.record_add(
        played=played,
        data={"tricks": {players[0].pk: 5, players[1].pk: 2, players[2].pk: 1}},
        user=None,
        expected_number=1,
    )
    html = client.get(url("sheet", game)).content.decode()
    assert re.findall(r'<a class="row-link" href="([^"]+)">', html) == [url("deal", game, 1)]


def test_the_correction_screen_opens_with_the_deal_score(member_client, game4, four):
    deal_add(game=game4, data=DealInput(taker=four[1].pk, contract="garde", bouts=2, points=49))
    html = member_client.get(url("deal_edit", game4, 1)).content.decode()
    assert "garde, 2 bouts, 49 points: won by 8" in html
    # each player's share, in the save bar
    bar = html.split('id="preview"', 1)[1].split("</ol>", 1)[0]
    assert [s.replace("−", "-") for s in re.findall(r'class="value [a-z]*">([^<]+)<', bar)] == [
        "-66",
        "+198",
        "-66",
        "-66",
    ]
    assert "(25 + 8) × 2 = +66 per defender" in html


def test_a_replayed_correction_screen_opens_with_the_entry(member_client, member, make_players):
    players = make_players("Anne", "Bram", "Chloé")
    game = game_services.game_start(
        players=players, kind="foolsfaith", first_dealer=0, created_by=member
    )
    game_services.record_add(
        played=kinds.get("foolsfaith").load(game),
        data={"tricks": {players[0].pk: 2, players[1].pk: 5, players[2].pk: 1}},
        user=None,
        expected_number=1,
    )
    html = member_client.get(url("deal_edit", game, 1)).content.decode()
    preview = html.split('id="preview"', 1)[1].split('class="bar-buttons"', 1)[0]
    assert "Bram wins and takes 1 card." in preview


# --- 5. no red before saving; the card points said for both sides ----------------------------


def test_the_live_preview_hints_what_is_missing_without_an_error(client, game4, four):
    html = client.post(url("deal_preview", game4), deal_post(four, contract=None)).content
    html = html.decode()
    assert "Choose the contract." in html
    assert 'class="bar-hint"' in html
    assert "errors" not in html and 'role="alert"' not in html


def test_pressing_preview_or_save_still_shows_the_error(client, game4, four):
    for button in ("preview", "save"):
        response = client.post(
            url("deal_new", game4), {**deal_post(four, contract=None), button: "1"}
        )
        assert response.status_code == 400
        assert 'role="alert"' in response.content.decode()


def test_the_points_are_said_for_both_sides(client, game4, four):
    html = client.post(
        url("deal_preview", game4), deal_post(four, points_side="defence", points="45")
    ).content.decode()
    assert "defence 45 = attack 46" in html
    # the preview counts the attack's 46
    assert "46 points" in html
    html = client.post(url("deal_preview", game4), deal_post(four, points="40.5")).content
    assert "attack 40½ = defence 50½" in html.decode()
    # out of range or unreadable: nothing said
    html = client.post(url("deal_preview", game4), deal_post(four, points="95")).content
    assert "= defence" not in html.decode()


def test_the_correction_screen_says_the_stored_points_for_both_sides(member_client, game4, four):
    deal_add(game=game4, data=DealInput(taker=four[1].pk, contract="garde", bouts=2, points=49))
    html = member_client.get(url("deal_edit", game4, 1)).content.decode()
    assert "attack 49 = defence 42" in html


# --- 1. names for narrow columns ---------------------------------------------------------------


def test_compact_names():
    assert compact_name("Anne") == "Anne"
    assert compact_name("Maximilien") == "Maximil."
    assert compact_name("Marie-Christine") == f"Marie{NB_HYPHEN}C."
    assert compact_name("Jo-Ann") == f"Jo{NB_HYPHEN}Ann"
    assert compact_name("Claire M.") == "Claire M."


@given(st.text(alphabet="abcdéèAB- .", min_size=1, max_size=40))
def test_a_compact_name_never_breaks_at_a_hyphen_and_keeps_words_short(label):
    shown = compact_name(label)
    # A hyphen between two letters is where a browser would break the name.
    assert not re.search(r"\w-\w", shown)
    assert all(len(word) <= 9 for word in shown.split(" "))


def test_compact_names_stay_unique_at_a_table():
    class P:
        def __init__(self, pk, label):
            self.pk, self.label = pk, label

    table = [P(1, "Marie-Christine"), P(2, "Marie-Claire"), P(3, "Anne")]
    names = compact_names(table)
    assert len(set(names.values())) == 3
    assert "-" not in "".join(names.values())


def test_the_sheet_gives_the_full_names_as_titles(client, make_players, member):
    players = make_players("Élodie Leroy", "Hanneke Bakker", "Maximilien Dubois", "Marie-Christine")
    game = game_services.game_start(players=players, first_dealer=0, created_by=member)
    html = client.get(url("sheet", game)).content.decode()
    assert 'title="Maximilien Dubois">Maximil.<' in html
    assert f'title="Marie-Christine">Marie{NB_HYPHEN}C.<' in html
