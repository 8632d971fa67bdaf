"""The table's pages: every path through the views, and every refused input."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarotclub.games import selectors as game_selectors
from tarotclub.games import services
from tarotclub.games.models import Change, Game
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.models import Player

pytestmark = pytest.mark.django_db


def deal_post(players, **over):
    data = {
        "taker": players[0].pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "petit_au_bout": "attack",
        "chelem": "none",
        f"poignee_{players[0].pk}": "simple",
    }
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


def url(name, game, *args):
    return reverse(f"games:{name}", args=[game.token, *args])


def test_home_in_three_languages(client):
    for lang, word in [("fr", "Se connecter"), ("nl", "Inloggen"), ("en", "Log in")]:
        client.cookies["django_language"] = lang
        response = client.get("/")
        assert response.status_code == 200
        assert f'lang="{lang}"' in response.content.decode()
        assert word in response.content.decode()


def test_new_game_needs_login(client):
    response = client.get(reverse("games:new"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_start_a_game_with_order_and_first_dealer(member_client, four):
    data = {f"seat{i + 1}": p.pk for i, p in enumerate(four)}
    data.update({"first_dealer": "3", "kind": "tarot", "start": "1"})
    response = member_client.post(reverse("games:new"), data)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/t/{game.token}/")
    assert [p.pk for p in game_selectors.seat_players(game)] == [p.pk for p in four]
    assert tarot.dealer_for(game, 1) == four[2]


@pytest.mark.parametrize(
    "seats, dealer, message",
    [
        ("one", "1", "3, 4 or 5"),
        ({"seat1": "x", "seat2": "y", "seat3": "z"}, "1", "from the list"),
        (None, "5", "first dealer"),
        (None, "abc", "first dealer"),
    ],
)
def test_new_game_refusals_change_nothing(member_client, four, seats, dealer, message):
    if seats == "one":
        seats = {"seat1": four[0].pk}
    data = seats or {f"seat{i + 1}": p.pk for i, p in enumerate(four)}
    data.update({"first_dealer": dealer, "kind": "tarot", "start": "1"})
    response = member_client.post(reverse("games:new"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_guest_added_without_leaving_the_new_game_screen(member_client, four):
    data = {"seat1": four[0].pk, "seat2": four[1].pk, "guest_name": "Zoé", "add_guest": "1"}
    response = member_client.post(reverse("games:new"), data)
    assert response.status_code == 200
    guest = Player.objects.get(name="Zoé")
    assert guest.guest
    html = response.content.decode()
    # the guest fills the first empty seat and the earlier choices are kept
    assert re.search(rf'name="seat3">.*?<option value="{guest.pk}" selected', html, re.S)
    assert re.search(rf'name="seat1">.*?<option value="{four[0].pk}" selected', html, re.S)
    response = member_client.post(reverse("games:new"), {"guest_name": "zoé", "add_guest": "1"})
    assert "already a player" in response.content.decode()


def test_deal_saved_through_the_form(client, game4, four):
    response = client.post(url("deal_new", game4), deal_post(four))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert {line.player_id: line.score for line in deal.lines.all()}[four[0].pk] == 318
    page = client.get(url("sheet", game4)).content.decode()
    assert "318" in page and "−106" in page and "add up to 0" in page


def test_points_for_the_defence(client, game4, four):
    client.post(url("deal_new", game4), deal_post(four, points_side="defence", points="42"))
    assert Deal.objects.get().points_half == 98  # 91 − 42 = 49 for the attack


@pytest.mark.parametrize("points", ["40,5", "40.5", "40½"])
def test_half_points_are_accepted(client, game4, four, points):
    client.post(url("deal_new", game4), deal_post(four, points=points, petit_au_bout=""))
    deal = Deal.objects.get()
    assert deal.points_half == 81 and not deal.won and deal.gap == 1


@pytest.mark.parametrize(
    "over, field_text",
    [
        ({"points": "abc"}, "points"),
        ({"points": "95"}, "91"),
        ({"points": "40.25"}, "halves"),
        ({"points": ""}, "Enter the card points"),
        ({"taker": "999999"}, "Choose one of the buttons"),
        ({"taker": None}, "Who took"),
        ({"contract": "grande"}, "Choose one of the buttons"),
        ({"bouts": "7"}, "Choose one of the buttons"),
        ({"bouts": "3", "points": "10"}, "bout"),
        ({"chelem": "defence"}, "slam"),
    ],
)
def test_bad_deals_are_refused_with_a_message(client, game4, four, over, field_text):
    response = client.post(url("deal_new", game4), deal_post(four, **over))
    assert response.status_code == 400  # refused: the same page with the message
    assert field_text in response.content.decode()
    assert not Deal.objects.exists() and not Change.objects.exists()


def test_player_of_another_game_is_refused(client, game4, four, make_players):
    (stranger,) = make_players("Stranger")
    post = deal_post(four, **{f"poignee_{stranger.pk}": "simple", "taker": stranger.pk})
    response = client.post(url("deal_new", game4), post)
    assert response.status_code == 400 and not Deal.objects.exists()


def test_preview_shows_the_breakdown_in_words(client, game4, four):
    response = client.post(url("deal_preview", game4), deal_post(four))
    html = response.content.decode()
    assert response.status_code == 200
    assert "garde, 2 bouts, 49 points: won by 8" in html
    assert "(25 + 8) × 2 + petit au bout 20 + poignée 20 = +106 per defender" in html
    assert not Deal.objects.exists()


def test_preview_without_javascript(client, game4, four):
    response = client.post(url("deal_new", game4), {**deal_post(four), "preview": "1"})
    assert response.status_code == 200 and "won by 8" in response.content.decode()
    assert not Deal.objects.exists()


def test_preview_reports_rule_errors_and_odd_input(client, game4, four):
    html = client.post(url("deal_preview", game4), deal_post(four, bouts="3", points="10"))
    assert "bout" in html.content.decode()
    for n in ["abc", "-4", "99999"]:
        response = client.post(url("deal_preview", game4) + f"?n={n}", {"taker": "junk"})
        assert response.status_code == 200


def test_correction_and_history(client, game4, four):
    client.post(url("deal_new", game4), deal_post(four))
    post = deal_post(
        four,
        taker=four[1].pk,
        contract="prise",
        bouts="1",
        points="44",
        petit_au_bout="",
        version="1",
    )
    post.pop(f"poignee_{four[0].pk}")
    response = client.post(url("deal_edit", game4, 1), post)
    assert response.status_code == 302
    detail = client.get(url("deal", game4, 1)).content.decode()
    assert "corrected" in detail and "entered" in detail
    assert "Anne, garde, 2 bouts, 49 points" in detail  # the old value is kept


def test_stale_correction_shows_the_newer_version(client, game4, four):
    client.post(url("deal_new", game4), deal_post(four))
    first = deal_post(four, taker=four[1].pk, version="1")
    assert client.post(url("deal_edit", game4, 1), first).status_code == 302
    second = deal_post(four, taker=four[2].pk, version="1")
    response = client.post(url("deal_edit", game4, 1), second)
    html = response.content.decode()
    assert response.status_code == 409 and "Somebody else changed this deal" in html
    # the form now shows the newer version (Bram took) for the person to check
    assert re.search(rf'value="{four[1].pk}"[^>]*checked', html)
    assert Deal.objects.get().taker == four[1]


def test_undo_last_deal_with_confirmation(client, game4, four):
    client.post(url("deal_new", game4), deal_post(four))
    client.post(url("deal_new", game4), deal_post(four))
    page = client.get(url("deal_undo", game4))
    assert "Undo deal 2?" in page.content.decode()
    assert Deal.objects.count() == 2  # GET changes nothing
    client.post(url("deal_undo", game4), {"number": "1"})  # not the last one: refused
    assert Deal.objects.count() == 2
    client.post(url("deal_undo", game4), {"number": "junk"})
    assert Deal.objects.count() == 2
    client.post(url("deal_undo", game4), {"number": "2"})
    assert list(Deal.objects.values_list("number", flat=True)) == [1]


def test_finish_keeps_the_sheet_readable_and_lists_it(member_client, game4, four):
    member_client.post(url("deal_new", game4), deal_post(four))
    assert "Finish the game?" in member_client.get(url("finish", game4)).content.decode()
    member_client.post(url("finish", game4))
    game4.refresh_from_db()
    assert game4.finished
    assert member_client.get(url("sheet", game4)).status_code == 200
    response = member_client.post(url("deal_new", game4), deal_post(four))
    assert response.status_code == 302 and Deal.objects.count() == 1
    listing = member_client.get(reverse("games:list")).content.decode()
    assert "Anne 318" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", listing))


def test_poll_answers_204_when_nothing_changed(client, game4, four):
    response = client.get(url("poll", game4) + f"?rev={game4.revision}")
    assert response.status_code == 204
    client.post(url("deal_new", game4), deal_post(four))
    response = client.get(url("poll", game4) + f"?rev={game4.revision}")
    assert response.status_code == 200 and "318" in response.content.decode()


def test_bad_tokens_and_numbers_are_404_not_500(client, game4):
    for path in [
        "/t/nope/",
        "/t/nope/deal/",
        "/t/" + "x" * 40 + "/",
        url("deal", game4, 99),
        url("deal_edit", game4, 99),
        "/t/nope/qr.svg",
        "/t/nope/live/",
    ]:
        assert client.get(path).status_code == 404, path
    assert client.post("/t/nope/deal/preview/", {}).status_code == 404


def test_token_opens_only_its_own_game(client, four, make_players):
    other = services.game_start(players=make_players("X1", "X2", "X3"))
    mine = services.game_start(players=four)
    tarot.deal_add(
        game=other,
        data=tarot.DealInput(
            taker=game_selectors.seat_players(other)[0].pk, contract="prise", bouts=1, points=60
        ),
    )
    assert client.get(url("deal", mine, 1)).status_code == 404
    assert client.get(url("sheet", mine)).status_code == 200


def test_qr_code_is_svg(client, game4):
    response = client.get(url("qr", game4))
    assert response["Content-Type"] == "image/svg+xml" and b"<svg" in response.content


def test_five_player_form_has_partner_and_poignee_sizes(client, game5):
    html = client.get(url("deal_new", game5)).content.decode()
    assert "Called partner" in html and "simple (8)" in html and "triple (13)" in html


def test_rule_errors_show_next_to_their_field(client, game4, four):
    response = client.post(url("deal_new", game4), deal_post(four, bouts="3", points="10"))
    html = response.content.decode()
    points_box = html[html.index('id="fs-points"') : html.index('id="fs-petit_au_bout"')]
    assert "field-error" in points_box and "bout" in points_box
    response = client.post(url("deal_new", game4), deal_post(four, chelem="defence"))
    html = response.content.decode()
    chelem_box = html[html.index('id="fs-chelem"') :]
    assert "field-error" in chelem_box


def test_games_list_shows_every_kind_but_not_tournament_tables(member_client, four):
    services.game_start(players=four[:3], kind="cuckoo", name="Cuckoo night")
    html = member_client.get(reverse("games:list")).content.decode()
    text = re.sub(r"<[^>]+>", "", html)  # a member reads the names as links (issue 13)
    assert "Cuckoo" in text and "Anne, Bram, Chloé" in text


def test_the_same_deal_entered_from_two_phones_is_recorded_once(client, game4, four):
    # both phones opened "deal 1"; the first saves, the second is refused and told why
    assert (
        client.post(url("deal_new", game4), {**deal_post(four), "number": "1"}).status_code == 302
    )
    response = client.post(url("deal_new", game4), {**deal_post(four), "number": "1"})
    assert response.status_code == 400
    assert "Deal 1 was just entered from another phone" in response.content.decode()
    assert Deal.objects.count() == 1
    # the form now asks for deal 2
    assert 'name="number" value="2"' in response.content.decode()
