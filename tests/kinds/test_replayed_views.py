"""The pages of the other games: entry screens, sheet, corrections, undo, finish, history."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import deathspot, foolsfaith
from tarotclub.games import services
from tarotclub.games.models import Change, ChangeAction, Record

pytestmark = pytest.mark.django_db


#: The names of the pages before every kind shared one set of views, and their names now.
PAGES = {
    "sheet": "sheet",
    "poll": "poll",
    "history": "history",
    "finish": "finish",
    "record_new": "deal_new",
    "record_preview": "deal_preview",
    "record_undo": "deal_undo",
    "record_edit": "deal_edit",
}


def url(name, game, *args):
    return reverse(f"games:{PAGES[name]}", args=[game.token, *args])


def ff_post(players, *counts, **extra):
    data = {f"tricks_{p.pk}": str(n) for p, n in zip(players, counts, strict=True)}
    data.update(extra)
    return data


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- the sheet ---------------------------------------------------------------------------------


def test_every_kind_has_its_sheet_at_t_and_the_old_v_paths_move_there(
    client, ff, three, make_players
):
    """One set of pages serves every kind; the /v/ paths printed as QR codes still work."""
    from tarotclub.games.services import game_start

    game4 = game_start(players=make_players("Wim", "Xavier", "Yann"))
    for game in (ff, game4):
        assert client.get(reverse("games:sheet", args=[game.token])).status_code == 200
        response = client.get(f"/v/{game.token}/?rev=3")
        assert response.status_code == 301
        assert response.url == reverse("games:sheet", args=[game.token]) + "?rev=3"
    # A POST to an old entry page goes on as a POST (308), so nothing typed is lost.
    response = client.post(f"/v/{ff.token}/r/new/", ff_post(three, 4, 2, 2))
    assert response.status_code == 308 and response.url == url("record_new", ff)
    assert client.get(f"/v/{ff.token}/r/1/edit/").status_code == 301


@pytest.mark.parametrize("token, status", [("nope", 404), ("x" * 40, 404), ("%00", 400)])
def test_tampered_tokens_are_refused(client, token, status):
    assert client.get(f"/v/{token}/").status_code == status
    assert client.post(f"/v/{token}/r/new/", {}).status_code == status


def test_sheet_shows_state_share_link_and_qr(client, ff, three):
    response = client.get(url("sheet", ff))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1: Anne deals. It is worth 1 challenge card." in html
    assert url("sheet", ff) in html  # share link
    assert "<svg" in html
    assert url("record_new", ff) in html
    assert f'name="rev" value="{ff.revision}"' in html  # what the poll sends


def test_poll_answers_204_when_nothing_changed(client, ff, three):
    assert client.get(url("poll", ff), {"rev": "0"}).status_code == 204
    services.record_add(game=ff, data={"tricks": {three[0].pk: 8, three[1].pk: 0, three[2].pk: 0}})
    response = client.get(url("poll", ff), {"rev": "0"})
    assert response.status_code == 200
    assert 'id="sheet"' in response.content.decode()
    assert 'name="rev" value="1"' in response.content.decode()


# --- Fool's Faith ------------------------------------------------------------------------------


def test_ff_entry_screen_has_steppers(client, ff, three):
    response = client.get(url("record_new", ff))
    assert response.status_code == 200
    html = response.content.decode()
    for p in three:
        assert f'name="tricks_{p.pk}"' in html
    assert html.count('data-step="1"') == 3 and html.count('data-step="-1"') == 3
    assert "steppers.js" in html


def test_ff_valid_round_then_sheet_shows_state(client, ff, three):
    response = client.post(url("record_new", ff), ff_post(three, 5, 2, 1, save="1"))
    assert response.status_code == 302 and response.url == url("sheet", ff)
    assert Record.objects.filter(game=ff).count() == 1
    html = client.get(url("sheet", ff)).content.decode()
    assert "Round 1 saved." in html
    assert "Anne wins and takes 1 card." in html
    assert "Round 2: Anne deals. It is worth 1 challenge card." in html


def test_ff_tie_makes_next_round_worth_two(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 3, 3, 2))
    html = client.get(url("sheet", ff)).content.decode()
    assert "Tie: Anne, Bram. Nobody takes a card." in html
    assert "It is worth 2 challenge cards." in html


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        (("4", "2", "1"), foolsfaith.ERR_TRICKS_TOTAL % {"total": 7}),
        (("9", "0", "0"), "At most 8."),
        (("-1", "5", "4"), "At least 0."),
        (("two", "3", "3"), "Enter a whole number."),
        (("", "4", "4"), "Set a number."),
    ],
)
def test_ff_refusals_save_nothing(client, ff, three, counts, message):
    data = {f"tricks_{p.pk}": n for p, n in zip(three, counts, strict=True)}
    response = client.post(url("record_new", ff), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Record.objects.filter(game=ff).exists()


def test_ff_missing_fields_and_foreign_fields(client, ff, three, make_players):
    response = client.post(url("record_new", ff), {f"tricks_{three[0].pk}": "8"})
    assert response.status_code == 400
    (stranger,) = make_players("Zoé")
    data = ff_post(three, 4, 2, 2)
    data[f"tricks_{stranger.pk}"] = "3"  # ignored: not a field of this table
    assert client.post(url("record_new", ff), data).status_code == 302
    assert list(Record.objects.get(game=ff).data["tricks"]) == [str(p.pk) for p in three]


def test_ff_preview_says_what_will_happen_without_saving(client, ff, three):
    response = client.post(url("record_preview", ff), ff_post(three, 6, 1, 1))
    assert response.status_code == 200
    assert "Anne wins and takes 1 card." in response.content.decode()
    response = client.post(url("record_new", ff), ff_post(three, 6, 1, 1, preview="1"))
    assert "Anne wins and takes 1 card." in response.content.decode()
    # while the tricks do not add up yet, the live preview waits (the count left shows that)
    response = client.post(url("record_preview", ff), ff_post(three, 6, 1, 0))
    assert response.content.decode().strip() == ""
    # the Preview button says why
    response = client.post(url("record_new", ff), ff_post(three, 6, 1, 0, preview="1"))
    assert foolsfaith.ERR_TRICKS_TOTAL % {"total": 7} in response.content.decode()
    # a tampered value still gets a message, never a 500
    response = client.post(url("record_preview", ff), ff_post(three, "x", 1, 0))
    assert "Enter a whole number." in response.content.decode()
    assert not Record.objects.exists()


def test_ff_game_over_winner_and_no_more_rounds(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    ff.refresh_from_db()
    assert ff.finished
    html = client.get(url("sheet", ff)).content.decode()
    assert "Game over: Anne won." in html
    assert f'href="{url("record_new", ff)}"' not in html
    response = client.get(url("record_new", ff))
    assert response.status_code == 302
    response = client.post(url("record_new", ff), ff_post(three, 8, 0, 0), follow=True)
    assert str(services.ERR_OVER) in messages_of(response)
    assert ff.records.count() == 2


def test_ff_correction_and_stale_version(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    edit = url("record_edit", ff, 1)
    response = client.get(edit)
    assert response.status_code == 200
    assert f'name="tricks_{three[0].pk}" value="5"' in response.content.decode()
    response = client.post(edit, ff_post(three, 1, 5, 2, version="1"))
    assert response.status_code == 302
    record = Record.objects.get(game=ff)
    assert record.version == 2 and record.data["tricks"][str(three[1].pk)] == 5
    # a second phone still holds version 1
    response = client.post(edit, ff_post(three, 2, 2, 4, version="1"))
    assert response.status_code == 409
    html = response.content.decode()
    assert "Somebody else changed this entry" in html
    assert 'name="version" value="2"' in html  # the newer version is in the form now
    record.refresh_from_db()
    assert record.version == 2
    assert client.get(url("record_edit", ff, 7)).status_code == 404


def test_ff_correction_refused_when_the_rules_refuse(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    response = client.post(url("record_edit", ff, 1), ff_post(three, 5, 2, 2, version="1"))
    assert response.status_code == 400
    assert foolsfaith.ERR_TRICKS_TOTAL % {"total": 9} in response.content.decode()
    assert Record.objects.get(game=ff).version == 1


def test_ff_undo_last_with_confirmation(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    client.post(url("record_new", ff), ff_post(three, 2, 5, 1))
    response = client.get(url("record_undo", ff))
    assert response.status_code == 200
    assert "Undo round 2?" in response.content.decode()
    response = client.post(url("record_undo", ff), {"number": "1"}, follow=True)
    assert services.ERR_NOT_LAST % {"number": 2} in messages_of(response)
    response = client.post(url("record_undo", ff), {"number": "abc"}, follow=True)
    assert ff.records.count() == 2
    response = client.post(url("record_undo", ff), {"number": "2"}, follow=True)
    assert "Round 2 undone." in messages_of(response)
    assert list(ff.records.values_list("number", flat=True)) == [1]


def test_ff_undo_of_the_winning_round_reopens(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    response = client.get(url("record_undo", ff))
    assert "undoing this entry opens it again" in response.content.decode()
    response = client.post(url("record_undo", ff), {"number": "2"}, follow=True)
    assert "The game is open again." in messages_of(response)
    ff.refresh_from_db()
    assert not ff.finished


def test_history_page_lists_changes_in_words(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    client.post(url("record_edit", ff, 1), ff_post(three, 4, 3, 1, version="1"))
    html = client.get(url("history", ff)).content.decode()
    assert "tricks: Anne 4, Bram 3, Chloé 1" in html
    assert "tricks: Anne 5, Bram 2, Chloé 1" in html


# --- Death's Pot -------------------------------------------------------------------------------


def dp_post(players, death="", excuse="", trump1="", trump11="", tricks=(0, 0, 0)):
    data = {"death": death, "excuse": excuse, "trump1": trump1, "trump11": trump11}
    data.update({f"tricks_{p.pk}": str(n) for p, n in zip(players, tricks, strict=True)})
    return data


def whole_names(html: str) -> str:
    """The sheet without the spans that keep each name of a Death's Pot line whole."""
    return re.sub(r'<span class="dp-name">([^<]*)</span>', r"\1", html)


def test_dp_entry_screen(client, dp, three):
    html = client.get(url("record_new", dp)).content.decode()
    assert 'name="death"' in html and 'name="excuse"' in html and 'name="trump11"' in html
    assert "Pot: 3" in html  # the opening ante of three players


def test_dp_death_deal(client, dp, three):
    response = client.post(url("record_new", dp), dp_post(three, death=three[0].pk))
    assert response.status_code == 302
    assert Record.objects.get(game=dp).data["death"] == three[0].pk
    html = whole_names(client.get(url("sheet", dp)).content.decode())
    assert "Anne shows Death and takes the pot (3)." in html
    assert "Balances and pot add up to 0 ✓" in html
    assert "Deal 2: Bram deals" in html  # anticlockwise: to the right of Anne, next in play


def test_dp_death_ignores_the_rest_of_the_screen(client, dp, three):
    data = dp_post(three, death=three[1].pk, excuse=three[0].pk, tricks=(4, 4, 4))
    assert client.post(url("record_new", dp), data).status_code == 302
    stored = Record.objects.get(game=dp).data
    assert stored["death"] == three[1].pk and stored["excuse"] is None and "tricks" not in stored


def test_dp_honours_and_tricks(client, dp, three):
    data = dp_post(three, excuse=three[1].pk, trump11=three[2].pk, tricks=(6, 3, 3))
    assert client.post(url("record_new", dp), data).status_code == 302
    html = whole_names(client.get(url("sheet", dp)).content.decode())
    # pot 3: Excuse Bram +1 (pot 2), trump 11 Chloé +2 (pot 0, everybody antes: 3),
    # Anne takes 3 with 6 tricks, everybody antes again: pot 3.
    assert "Bram +1" in html and "Chloé +2" in html
    assert "Anne takes the pot with 6 tricks (3)." in html


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tricks": (6, 3, 2)}, deathspot.ERR_TRICKS_TOTAL % {"total": 11}),
        ({"death": "99999"}, "Choose one of the buttons."),
        ({"excuse": "abc", "tricks": (4, 4, 4)}, "Choose one of the buttons."),
        ({"tricks": ("", 6, 6)}, "Set a number."),
        ({"tricks": (13, 0, 0)}, "At most 12."),
    ],
)
def test_dp_refusals(client, dp, three, kwargs, message):
    response = client.post(url("record_new", dp), dp_post(three, **kwargs))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Record.objects.filter(game=dp).exists()


def test_dp_tie_keeps_the_pot_and_finish_by_hand(client, dp, three):
    client.post(url("record_new", dp), dp_post(three, tricks=(5, 5, 2)))
    html = whole_names(client.get(url("sheet", dp)).content.decode())
    assert "Tie for the most tricks: Anne, Bram. The pot stays." in html
    assert client.get(url("finish", dp)).status_code == 200
    response = client.post(url("finish", dp), follow=True)
    dp.refresh_from_db()
    assert dp.finished
    assert f'href="{url("record_new", dp)}"' not in response.content.decode()
    response = client.post(url("record_undo", dp), {"number": "1"}, follow=True)
    assert str(services.ERR_STOPPED) in messages_of(response)
    assert dp.records.count() == 1


# --- Keys of the Kingdom -----------------------------------------------------------------------


def keys_post(players, suits, winner, keys=(), guards=None):
    data = {f"suit_{p.pk}": s for p, s in zip(players, suits, strict=True)}
    data["winner"] = str(winner.pk) if winner else ""
    for p, n in zip(players, keys, strict=False):
        data[f"keys_{p.pk}"] = str(n)
    for p, g in (guards or {}).items():
        data[f"guards_{p.pk}"] = str(g)
    return data


def test_keys_entry_screen_and_valid_game(client, kk, three):
    a, b, c = three
    html = client.get(url("record_new", kk)).content.decode()
    assert 'name="winner"' in html and f'name="suit_{a.pk}"' in html
    # suits are pre-chosen in seat order for the first game
    for p, suit in zip(three, ["hearts", "spades", "diamonds"], strict=True):
        assert re.search(rf'name="suit_{p.pk}" value="{suit}"[^>]*checked', html)
    data = keys_post(three, ["hearts", "spades", "clubs"], a, keys=(0, 3, 1), guards={b: 2})
    response = client.post(url("record_new", kk), data)
    assert response.status_code == 302
    stored = Record.objects.get(game=kk).data
    assert stored["keys"] == {str(b.pk): 3, str(c.pk): 1}  # the winner's keys are not kept
    assert stored["guards"] == {str(b.pk): 2}
    html = client.get(url("sheet", kk)).content.decode()
    assert "Anne wins with ♥." in html
    assert "1 game played." in html
    # the next game starts with the same suits
    html = client.get(url("record_new", kk)).content.decode()
    assert "Game 2" in html


@pytest.mark.parametrize(
    ("suits", "keys", "message"),
    [
        (["hearts", "hearts", "clubs"], (0, 1, 1), "Bram chose ♥ Hearts, which another player"),
        (["hearts", "spades", "stars"], (0, 1, 1), "Choose one of the buttons."),
        (["hearts", "spades", "clubs"], (0, 6, 1), "At most 5."),
        (["hearts", "spades", "clubs"], (0, "", 1), "Set a number."),
    ],
)
def test_keys_refusals(client, kk, three, suits, keys, message):
    response = client.post(url("record_new", kk), keys_post(three, suits, three[0], keys=keys))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Record.objects.filter(game=kk).exists()


def test_keys_winner_required(client, kk, three):
    data = keys_post(three, ["hearts", "spades", "clubs"], None)
    response = client.post(url("record_new", kk), data)
    assert response.status_code == 400
    assert "Who won? Tap the winner." in response.content.decode()


# --- Cuckoo ------------------------------------------------------------------------------------


def cuckoo_post(cards, swaps=None):
    data = {f"card_{p.pk}": r for p, r in cards.items()}
    for p, n in (swaps or {}).items():
        data[f"swap_{p.pk}"] = str(n)
    return data


def test_cuckoo_entry_screen_lists_the_players_taking_part(client, ck, three):
    a, b, c = three
    html = client.get(url("record_new", ck)).content.decode()
    for p in three:
        assert f'name="card_{p.pk}"' in html and f'name="swap_{p.pk}"' in html
    client.post(url("record_new", ck), cuckoo_post({a: "owl", b: "XII", c: "cuckoo"}))
    client.post(url("record_new", ck), cuckoo_post({a: "II", b: "fool", c: "III"}))
    # Anne (II, lowest of the others) is out; Bram held the Fool and rests: one player left,
    # so the next deal is skipped.
    html = client.get(url("record_new", ck)).content.decode()
    assert f'name="card_{a.pk}"' not in html and f'name="card_{b.pk}"' not in html
    assert "it is skipped" in html
    sheet = client.get(url("sheet", ck)).content.decode()
    assert "Resting this deal (held a Fool): Bram." in sheet
    assert "Out: Anne." in sheet


def test_cuckoo_plays_to_a_winner(client, ck, three):
    a, b, c = three
    response = client.post(url("record_new", ck), cuckoo_post({a: "owl", b: "XII", c: "cuckoo"}))
    assert response.status_code == 302
    client.post(url("record_new", ck), cuckoo_post({a: "fool", b: "II", c: "III"}))
    response = client.post(url("record_new", ck), cuckoo_post({b: "pot", c: "cat"}, {b: 1}))
    assert response.status_code == 302
    html = client.get(url("sheet", ck)).content.decode()
    assert "Game over: Chloé won." in html
    assert "swaps: Bram −1" in html


@pytest.mark.parametrize(
    ("cards", "swaps", "message"),
    [
        ({"a": "owl", "b": "owl", "c": "owl"}, {}, "The deck holds two cards of each rank"),
        ({"a": "joker", "b": "I", "c": "II"}, {}, "Choose a card from the list."),
        ({"a": "", "b": "I", "c": "II"}, {}, "Which card did Anne end with?"),
        ({"a": "I", "b": "II", "c": "III"}, {"a": 2}, "At most 1."),
        ({"a": "I", "b": "II", "c": "III"}, {"b": 1}, "no final card is one"),
        ({"a": "I", "b": "II", "c": "III"}, {"a": "x"}, "Enter a whole number."),
    ],
)
def test_cuckoo_refusals(client, ck, three, cards, swaps, message):
    by = dict(zip("abc", three, strict=True))
    data = cuckoo_post({by[k]: v for k, v in cards.items()}, {by[k]: v for k, v in swaps.items()})
    response = client.post(url("record_new", ck), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Record.objects.filter(game=ck).exists()


def test_cuckoo_correction_uses_the_state_before_that_deal(client, ck, three):
    a, b, c = three
    client.post(url("record_new", ck), cuckoo_post({a: "owl", b: "XII", c: "cuckoo"}))
    client.post(url("record_new", ck), cuckoo_post({a: "I", b: "II", c: "III"}))
    data = {**cuckoo_post({a: "XII", b: "owl", c: "cuckoo"}), "version": "1"}
    response = client.post(url("record_edit", ck, 1), data)
    assert response.status_code == 302
    change = Change.objects.get(game=ck, action=ChangeAction.CORRECTED)
    assert change.before["data"]["cards"][str(a.pk)] == "owl"


# --- every kind: enter, correct (with a stale version), undo, finish ----------------------------


def payloads(kind, three):
    a, b, c = three
    if kind == "foolsfaith":
        return ff_post(three, 5, 2, 1), ff_post(three, 1, 5, 2)
    if kind == "deathspot":
        return dp_post(three, tricks=(6, 3, 3)), dp_post(three, death=b.pk)
    if kind == "keys":
        suits = ["hearts", "spades", "clubs"]
        return keys_post(three, suits, a, keys=(0, 3, 1)), keys_post(three, suits, b, (2, 0, 1))
    return (
        cuckoo_post({a: "owl", b: "XII", c: "cuckoo"}),
        cuckoo_post({a: "XII", b: "owl", c: "cuckoo"}),
    )


@pytest.mark.parametrize("kind", ["foolsfaith", "deathspot", "keys", "cuckoo"])
def test_every_kind_enter_correct_undo_finish(client, start, three, kind):
    game = start(kind, three)
    entry, correction = payloads(kind, three)
    assert client.get(url("record_new", game)).status_code == 200
    assert client.post(url("record_new", game), entry).status_code == 302
    record = Record.objects.get(game=game)
    original = record.data
    edit = url("record_edit", game, 1)
    response = client.get(edit)
    assert response.status_code == 200
    assert 'name="version" value="1"' in response.content.decode()
    assert client.post(edit, {**correction, "version": "1"}).status_code == 302
    record.refresh_from_db()
    assert record.version == 2 and record.data != original
    corrected = record.data
    # a phone that opened version 1 sends its change: refused, the newer version is shown
    response = client.post(edit, {**entry, "version": "1"})
    assert response.status_code == 409
    assert "Somebody else changed this entry" in response.content.decode()
    record.refresh_from_db()
    assert record.version == 2 and record.data == corrected
    # the sheet's row opens the entry, whose page offers the correction; the sheet the undo
    html = client.get(url("sheet", game)).content.decode()
    detail = reverse("games:deal", args=[game.token, 1])
    assert f'class="row-link" href="{detail}"' in html and url("record_undo", game) in html
    assert f'href="{edit}"' in client.get(detail).content.decode()
    assert client.get(url("record_undo", game)).status_code == 200
    client.post(url("record_undo", game), {"number": "1"})
    assert not Record.objects.filter(game=game).exists()
    assert Change.objects.filter(game=game, action=ChangeAction.UNDONE).count() == 1
    # finished by hand: no more entries, corrections or undo
    client.post(url("record_new", game), entry)
    assert client.post(url("finish", game)).status_code == 302
    game.refresh_from_db()
    assert game.finished
    for response in (
        client.get(url("record_new", game)),
        client.post(url("record_new", game), entry),
        client.get(url("record_edit", game, 1)),
        client.post(url("record_edit", game, 1), {**correction, "version": "1"}),
        client.post(url("record_undo", game), {"number": "1"}),
    ):
        assert response.status_code == 302 and response.url == url("sheet", game)
    assert Record.objects.get(game=game).version == 1
    response = client.get(url("finish", game), follow=True)
    assert "This game is already finished." in messages_of(response)


def test_poll_and_pages_of_a_finished_game_still_read(client, ff, three):
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    client.post(url("record_new", ff), ff_post(three, 5, 2, 1))
    for name in ("sheet", "history"):
        assert client.get(url(name, ff)).status_code == 200
    assert client.get(url("poll", ff), {"rev": "999"}).status_code == 200


def test_the_same_round_entered_from_two_phones_is_recorded_once(client, ff, three):
    first = client.post(url("record_new", ff), {**ff_post(three, 5, 2, 1, save="1"), "number": "1"})
    assert first.status_code == 302
    second = client.post(
        url("record_new", ff), {**ff_post(three, 5, 2, 1, save="1"), "number": "1"}
    )
    assert "Entry 1 was just made from another phone" in second.content.decode()
    assert Record.objects.filter(game=ff).count() == 1


def test_dp_deals_in_the_seating_order_of_the_new_game_screen_like_french_tarot(four):
    """The new-game screen seats players in playing order; Death's Pot, played anticlockwise
    like French Tarot, passes the deal the same way: to the next seat, from the chosen dealer."""
    from scoring import deathspot
    from tarotclub.games import replayed
    from tarotclub.games import selectors as game_selectors
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot.selectors import dealer_for

    dp = game_start(players=four, first_dealer=2, kind="deathspot", options={"stake": 1})
    tarot = game_start(players=four, first_dealer=2)
    order = replayed.rules_order([p.pk for p in game_selectors.seat_players(dp)], dp.first_dealer)
    deaths = [{"death": order[0]}] * 6
    state = deathspot.play(order, deaths)
    expected = [dealer_for(tarot, n).pk for n in range(1, 7)]
    assert [d.dealer for d in state.history] == expected
    assert expected[:2] == [four[2].pk, four[3].pk]
