"""House rules (issue 14): the club's defaults, each game's and tournament's own copy, the
services that change them (with history), the deal screen, and the line on every sheet."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring import fft
from tarotclub.core.models import LogEntry
from tarotclub.games import house, services
from tarotclub.games.models import ClubRules, Game
from tarotclub.games.services import GameError
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.kinds.tarot.services import DealInput
from tarotclub.tournaments import services as tournaments

pytestmark = pytest.mark.django_db

MISERES = {"misere_tete": True, "misere_atout": True, "misere_amount": 10}


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def club_misere(director, **extra):
    return services.club_rules_set(kind="tarot", rules={**MISERES, **extra}, user=director)


def start(players, member, **kwargs):
    return services.game_start(players=players, created_by=member, **kwargs)


# --- the club's defaults and the games' copies ------------------------------------------------


def test_a_game_plays_by_the_federations_rules_when_the_club_set_none(four, member):
    game = start(four, member)
    assert "house" not in game.options
    assert house.of_game(game) == fft.FFT_RULES
    assert house.game_line(game) == ""


def test_a_new_game_copies_the_clubs_rules_and_keeps_them(four, member, director):
    club_misere(director)
    game = start(four, member)
    assert house.of_game(game) == fft.TarotRules(misere_tete=True, misere_atout=True)
    # The club changes its mind: the game keeps what it started with.
    services.club_rules_set(kind="tarot", rules={}, user=director)
    game.refresh_from_db()
    assert house.of_game(game).misere_tete
    assert house.of_game(start(four, member)) == fft.FFT_RULES


def test_club_rules_are_for_directors_and_logged(member, director):
    with pytest.raises(GameError) as refused:
        services.club_rules_set(kind="tarot", rules=MISERES, user=member)
    assert refused.value.messages == [str(services.ERR_RULES_DIRECTOR)]
    assert not ClubRules.objects.exists()
    row = club_misere(director, misere_amount=20)
    entry = LogEntry.objects.get(action=services.CLUB_RULES_SET)
    assert entry.before == {} and entry.after["misere_amount"] == 20
    assert row.rules == entry.after
    club_misere(director, misere_amount=20)  # the same again: nothing logged
    assert LogEntry.objects.filter(action=services.CLUB_RULES_SET).count() == 1


@pytest.mark.parametrize(
    "kind, rules",
    [
        ("tarot", {"misere_amount": 0}),
        ("tarot", {"misere_tete": "on"}),
        ("tarot", {"chelem": 1}),
        ("tarot", "misere"),
        ("foolsfaith", {"tie_dealer": "loser"}),
        ("deathspot", {"tie_pot": 3}),
        ("keys", {"partial_table": None}),
        ("cuckoo", {}),
        ("nothing", {}),
    ],
)
def test_club_rules_refuse_what_is_no_rule_and_change_nothing(director, kind, rules):
    with pytest.raises(GameError):
        services.club_rules_set(kind=kind, rules=rules, user=director)
    assert not ClubRules.objects.exists()
    assert not LogEntry.objects.filter(action=services.CLUB_RULES_SET).exists()


def test_the_other_games_copy_their_rules_too(make_players, member, director):
    three = make_players("ann", "bob", "cat")
    services.club_rules_set(kind="foolsfaith", rules={"tie_dealer": "next"}, user=director)
    services.club_rules_set(kind="deathspot", rules={"tie_pot": "shared"}, user=director)
    services.club_rules_set(kind="keys", rules={"partial_table": True}, user=director)
    ff = start(three, member, kind="foolsfaith")
    dp = start(three, member, kind="deathspot", options={"stake": 1})
    kk = start(three, member, kind="keys")
    assert ff.options["house"] == {"tie_dealer": "next"}
    assert dp.options["house"] == {"tie_pot": "shared"}
    assert kk.options["house"] == {"partial_table": True}
    assert house.game_line(ff) == "House rules: after a tied round the next player deals"
    assert "share the pot" in house.game_line(dp)
    assert "only some of the table" in house.game_line(kk)


# --- a game's own rules, before its first entry ---------------------------------------------


def test_the_creator_changes_a_games_rules_before_the_first_deal(four, member):
    game = start(four, member)
    services.game_set_house_rules(game=game, rules=MISERES, user=member)
    game.refresh_from_db()
    assert house.of_game(game).miseres == (fft.Misere.TETE, fft.Misere.ATOUT)
    entry = LogEntry.objects.get(action=services.GAME_RULES_SET)
    assert entry.before == {} and entry.after["misere_tete"] is True
    tarot.deal_add(
        game=game,
        data=DealInput(taker=four[0].pk, contract="prise", bouts=1, points=Fraction(51)),
        user=member,
        expected_number=1,
    )
    with pytest.raises(GameError) as refused:
        services.game_set_house_rules(game=game, rules={}, user=member)
    assert "before the first entry" in refused.value.messages[0]
    game.refresh_from_db()
    assert house.of_game(game).misere_tete


def test_nobody_else_changes_a_games_rules(four, member, django_user_model):
    game = start(four, member)
    other = django_user_model.objects.create_user(username="other", password="pw-other-1")
    with pytest.raises(GameError):
        services.game_set_house_rules(game=game, rules=MISERES, user=other)
    with pytest.raises(GameError):
        services.game_set_house_rules(game=game, rules={"misere_amount": -1}, user=member)
    game.refresh_from_db()
    assert "house" not in game.options
    assert not LogEntry.objects.filter(action=services.GAME_RULES_SET).exists()


# --- the deal: misère and poignée amounts ------------------------------------------------------


def misere_game(four, member, **extra):
    return start(four, member, options={"house": {**fft.TarotRules(**MISERES, **extra).as_dict()}})


def test_a_deal_with_a_misere_scores_it_and_keeps_it(four, member):
    game = misere_game(four, member)
    deal = tarot.deal_add(
        game=game,
        data=DealInput(
            taker=four[0].pk,
            contract="garde",
            bouts=2,
            points=Fraction(49),
            miseres=((four[1].pk, "tete"),),
        ),
        user=member,
        expected_number=1,
    )
    assert deal.miseres == [[four[1].pk, "tete"]]
    lines = dict(DealLine.objects.filter(deal=deal).values_list("player_id", "score"))
    # garde won by 8: 66 per defender; the misère: +30 for its player, -10 for each other
    assert lines == {four[0].pk: 198 - 10, four[1].pk: -66 + 30, four[2].pk: -76, four[3].pk: -76}
    assert sum(lines.values()) == 0


def test_a_misere_is_refused_where_the_game_has_none(four, member):
    game = start(four, member)
    with pytest.raises(GameError) as refused:
        tarot.deal_add(
            game=game,
            data=DealInput(
                taker=four[0].pk,
                contract="garde",
                bouts=2,
                points=Fraction(49),
                miseres=((four[1].pk, "tete"),),
            ),
            user=member,
            expected_number=1,
        )
    assert "without the misère de tête" in refused.value.messages[0]
    assert not Deal.objects.exists()


def test_a_misere_d_atout_with_a_poignee_names_the_player(four, member):
    game = misere_game(four, member)
    with pytest.raises(GameError) as refused:
        tarot.deal_add(
            game=game,
            data=DealInput(
                taker=four[0].pk,
                contract="garde",
                bouts=2,
                points=Fraction(49),
                poignees=((four[2].pk, "simple"),),
                miseres=((four[2].pk, "atout"),),
            ),
            user=member,
            expected_number=1,
        )
    assert refused.value.messages[0].startswith(four[2].short_name)
    assert not Deal.objects.exists()


def test_poignee_amounts_follow_the_games_rules(four, member):
    game = start(four, member, options={"house": {"poignee_simple": 10}})
    deal = tarot.deal_add(
        game=game,
        data=DealInput(
            taker=four[0].pk,
            contract="garde",
            bouts=2,
            points=Fraction(49),
            poignees=((four[0].pk, "simple"),),
        ),
        user=member,
        expected_number=1,
    )
    lines = dict(DealLine.objects.filter(deal=deal).values_list("player_id", "score"))
    assert lines[four[1].pk] == -(66 + 10)


# --- pages ----------------------------------------------------------------------------------


def test_the_deal_screen_offers_misere_only_when_switched_on(client, four, member):
    client.force_login(member)
    plain = start(four, member)
    page = client.get(reverse("games:deal_new", args=[plain.token])).content.decode()
    assert 'name="misere_' not in page
    game = misere_game(four, member, poignee_simple=10)
    page = client.get(reverse("games:deal_new", args=[game.token])).content.decode()
    assert f'name="misere_{four[0].pk}"' in page
    assert "misère de tête" in page and "misère d&#x27;atout" in page
    assert "worth 10 · 30 · 40" in page


def test_a_misere_entered_on_the_deal_screen(client, four, member):
    client.force_login(member)
    game = misere_game(four, member)
    data = {
        "taker": four[0].pk,
        "contract": "garde",
        "bouts": 2,
        "points_side": "attack",
        "points": "49",
        "chelem": "none",
        f"misere_{four[3].pk}": "both",
    }
    response = client.post(reverse("games:deal_new", args=[game.token]), data)
    assert response.status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.miseres == [[four[3].pk, "tete"], [four[3].pk, "atout"]]
    line = DealLine.objects.get(deal=deal, player=four[3])
    assert line.score == -66 + 60


def test_a_bad_misere_value_is_a_message_not_a_500(client, four, member):
    client.force_login(member)
    game = misere_game(four, member)
    for value in ("dos", "x" * 500, "tete atout", "BOTH"):
        data = {
            "taker": four[0].pk,
            "contract": "garde",
            "bouts": 2,
            "points": "49",
            f"misere_{four[3].pk}": value,
        }
        response = client.post(reverse("games:deal_new", args=[game.token]), data)
        assert response.status_code == 400  # the form again, with its message
        assert "Choose one of the buttons." in response.content.decode()
    assert not Deal.objects.exists()


def test_the_sheet_says_the_house_rules(client, four, member):
    client.force_login(member)
    game = misere_game(four, member, poignee_triple=60)
    page = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    assert "House rules: misère de tête and misère d&#x27;atout, 10 from each player; " in page
    assert "poignées 20, 30 and 60" in page
    plain = client.get(reverse("games:sheet", args=[start(four, member).token])).content.decode()
    assert (
        "House rules"
        not in plain.replace('href="/t/', "").split("<main")[-1].split('class="actions"')[0]
    )


def test_the_game_sheet_pdf_says_the_house_rules(four, member):
    from tarotclub.reports import documents

    game = misere_game(four, member)
    sheet = documents.casual_sheet(game)
    assert sheet.house_rules.startswith("House rules: misère de tête")
    assert documents.casual_sheet(start(four, member)).house_rules == ""


def test_the_house_rules_page_of_a_game(client, four, member):
    client.force_login(member)
    game = start(four, member)
    url = reverse("games:house_rules", args=[game.token])
    sheet = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    assert url in sheet
    assert client.get(url).status_code == 200
    response = client.post(url, {"misere_tete": "on", "misere_amount": "15", **POIGNEES})
    assert response.status_code == 302
    game.refresh_from_db()
    assert house.of_game(game) == fft.TarotRules(misere_tete=True, misere_amount=15)
    # A hostile amount is a message, and nothing changes.
    for amount in ("0", "-3", "1e9", "٣", "x" * 300, ""):
        response = client.post(url, {"misere_amount": amount, **POIGNEES})
        assert response.status_code == 200, amount
    game.refresh_from_db()
    assert house.of_game(game).misere_amount == 15


POIGNEES = {"poignee_simple": "20", "poignee_double": "30", "poignee_triple": "40"}


def test_the_house_rules_page_refuses_after_the_first_deal(client, four, member):
    client.force_login(member)
    game = start(four, member)
    tarot.deal_add(
        game=game,
        data=DealInput(taker=four[0].pk, contract="prise", bouts=1, points=Fraction(51)),
        user=member,
        expected_number=1,
    )
    url = reverse("games:house_rules", args=[game.token])
    assert client.get(url).status_code == 302
    client.post(url, {"misere_tete": "on", "misere_amount": "10", **POIGNEES})
    game.refresh_from_db()
    assert "house" not in game.options


def test_the_clubs_page(client, member, director):
    url = reverse("games:club_house_rules")
    client.force_login(member)
    assert client.get(url).status_code == 403
    client.force_login(director)
    page = client.get(url).content.decode()
    assert "French Tarot" in page and "Fool&#x27;s Faith" in page
    response = client.post(url, {"kind": "foolsfaith", "foolsfaith-tie_dealer": "next"})
    assert response.status_code == 302
    assert house.club_defaults("foolsfaith").tie_dealer == "next"
    response = client.post(url, {"kind": "deathspot", "deathspot-tie_pot": "everything"})
    assert response.status_code == 200
    assert house.club_defaults("deathspot").tie_pot == "stays"
    assert client.post(url, {"kind": "nothing"}).status_code == 200


# --- tournaments -------------------------------------------------------------------------------


def test_a_tournament_copies_the_clubs_rules_and_its_tables_follow_it(make_players, director):
    club_misere(director)
    t = tournaments.tournament_create(name="Open", date=dt.date(2026, 12, 1), rounds=1)
    assert t.house_rules["misere_tete"] is True
    services.club_rules_set(kind="tarot", rules={}, user=director)
    tournaments.tournament_set_house_rules(
        tournament=t, rules={"poignee_simple": 25}, user=director
    )
    t.refresh_from_db()
    assert t.house_rules["poignee_simple"] == 25 and not t.house_rules["misere_tete"]
    assert LogEntry.objects.filter(action=tournaments.HOUSE_RULES_SET).count() == 1
    for p in make_players("a1", "a2", "a3", "a4"):
        tournaments.entry_register(tournament=t, player=p, user=director)
    from tarotclub.reports import documents

    t.refresh_from_db()
    line = "House rules: poignées 25, 30 and 40"
    assert [s.house_rules for s in documents.round_sheets(t, 1) or []] in ([], [line])
    tournaments.tournament_start(tournament=t, user=director)
    t.refresh_from_db()
    assert [s.house_rules for s in documents.round_sheets(t, 1)] == [line]
    game = Game.objects.get(tournament_table__tournament=t)
    assert house.of_game(game).poignee_simple == 25
    with pytest.raises(tournaments.TournamentError):
        tournaments.tournament_set_house_rules(tournament=t, rules={}, user=director)
    from tarotclub.reports.printouts import standings_paper

    assert standings_paper(t)["house_rules"] == "House rules: poignées 25, 30 and 40"


def test_the_tournaments_house_rules_page(client, member, director):
    t = tournaments.tournament_create(name="Open", date=dt.date(2026, 12, 1), rounds=1)
    url = reverse("tournaments:house_rules", args=[t.pk])
    client.force_login(member)
    assert client.get(url).status_code == 403
    client.force_login(director)
    manage = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert url in manage and "The federation's rules." in manage
    response = client.post(url, {"misere_atout": "on", "misere_amount": "20", **POIGNEES})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.house_rules["misere_atout"] is True and t.house_rules["misere_amount"] == 20
    manage = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert "House rules: misère d&#x27;atout, 20 from each player" in manage
    assert client.post(url, {"misere_amount": "x", **POIGNEES}).status_code == 200
    t.refresh_from_db()
    assert t.house_rules["misere_amount"] == 20
