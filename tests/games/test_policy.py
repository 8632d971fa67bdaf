"""What every write route may do in every state of a game and of a tournament, over HTTP.

The table below is written by hand, independently of `tarotclub.games.policy`: for each state,
each route and each person, is the write allowed? A refused write answers with a message and
changes nothing (row counts, revisions, locks, the tournament's round); an allowed one changes
something. The buttons of the sheet follow the same table, and the entry forms (GET) of a
refused route send the person back to the sheet with the reason.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.games import selectors as game_selectors
from tarotclub.games import services as games
from tarotclub.games.models import Change, Game
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.tournaments import services as tournaments
from tarotclub.tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

A, M, D = "anonymous", "member", "director"
EVERYBODY, NOBODY = {A, M, D}, set()
ROUTES = ["deal", "correct", "undo", "finish", "confirm", "unlock"]

#: state → route → who may write. Tournament tables play 2 deals per round here.
EXPECTED = {
    # a casual game with one deal; nobody confirms it (it is no tournament table)
    "casual_open": dict(
        deal=EVERYBODY, correct=EVERYBODY, undo=EVERYBODY, finish=EVERYBODY, confirm=NOBODY
    ),
    "casual_finished": dict(
        deal=NOBODY, correct=NOBODY, undo=NOBODY, finish=NOBODY, confirm=NOBODY
    ),
    # round 1 of 2 is being played: 1 of 2 deals in
    "t_open": dict(
        deal=EVERYBODY,
        correct=EVERYBODY,
        undo=EVERYBODY,
        finish=NOBODY,
        confirm=NOBODY,
        unlock=NOBODY,
    ),
    # every deal in, not confirmed yet
    "t_complete": dict(
        deal=NOBODY,
        correct=EVERYBODY,
        undo=EVERYBODY,
        finish=NOBODY,
        confirm=EVERYBODY,
        unlock=NOBODY,
    ),
    # confirmed (locked) during its round
    "t_locked": dict(deal=NOBODY, correct={D}, undo={D}, finish=NOBODY, confirm=NOBODY, unlock={D}),
    # the tournament is at round 2; this round-1 table was confirmed
    "t_round_over": dict(
        deal=NOBODY, correct={D}, undo={D}, finish=NOBODY, confirm=NOBODY, unlock={D}
    ),
    # the round is over and the director unlocked the table for a correction
    "t_round_over_unlocked": dict(
        deal=NOBODY, correct={D}, undo={D}, finish=NOBODY, confirm={D}, unlock=NOBODY
    ),
    # the director forced the next round with 1 of 2 deals in: locked as it was
    "t_forced": dict(deal={D}, correct={D}, undo={D}, finish=NOBODY, confirm=NOBODY, unlock={D}),
    # the tournament is finished: its sheets are final
    "t_finished": dict(
        deal=NOBODY, correct=NOBODY, undo=NOBODY, finish=NOBODY, confirm=NOBODY, unlock=NOBODY
    ),
}
CASES = [
    (state, route, who)
    for state, routes in EXPECTED.items()
    for route in ROUTES
    if route in routes
    for who in (A, M, D)
]


def enter_deal(game, number: int | None = None):
    players = game_selectors.seat_players(game)
    number = number or game.deals.count() + 1
    dealer = tarot.dealer_for(game, number, players)
    taker = tarot.active_players(game, dealer, players)[0]
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=56)
    )


def build(state: str, make_players, director):
    """The game the routes act on, in `state`; and its tournament table (or None)."""
    players = make_players("Anne", "Bram", "Chloé", "Dirk")
    if state.startswith("casual"):
        game = games.game_start(players=players)
        enter_deal(game)
        if state == "casual_finished":
            games.game_finish(game=game)
        return game, None
    t = tournaments.tournament_create(
        name="Cup", date=dt.date(2026, 3, 1), rounds=2, deals_per_round=2
    )
    for p in players:
        tournaments.entry_register(tournament=t, player=p)
    t = tournaments.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1)
    enter_deal(table.game)
    if state == "t_forced":
        tournaments.tournament_next_round(tournament=t, force=True)
    elif state != "t_open":
        enter_deal(table.game)
        if state != "t_complete":
            tournaments.table_confirm(table=table)
        if state.startswith("t_round_over") or state == "t_finished":
            t = tournaments.tournament_next_round(tournament=t)
        if state == "t_round_over_unlocked":
            tournaments.table_unlock(table=table, user=director)
        if state == "t_finished":
            table = Table.objects.get(tournament=t, round=2)
            enter_deal(table.game)
            enter_deal(table.game)
            tournaments.table_confirm(table=table)
            t = tournaments.tournament_next_round(tournament=t)
            assert t.status == "finished"
    return Game.objects.get(pk=table.game_id), table


def snapshot():
    return (
        Deal.objects.count(),
        DealLine.objects.count(),
        Change.objects.count(),
        LogEntry.objects.count(),
        sorted(Game.objects.values_list("pk", "revision", "locked", "finished_at")),
        sorted(Deal.objects.values_list("pk", "version", "contract")),
        sorted(Tournament.objects.values_list("pk", "status", "current_round")),
        Table.objects.count(),
    )


def deal_data(game, number):
    players = game_selectors.seat_players(game)
    dealer = tarot.dealer_for(game, number, players)
    taker = tarot.active_players(game, dealer, players)[-1]
    return {
        "taker": taker.pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "50",
        "chelem": "none",
        "number": number,
    }


def request(route: str, client: Client, game: Game, table, *, method: str = "post"):
    token = game.token
    send = getattr(client, method)
    count = game.deals.count()
    if route == "deal":
        return send(reverse("games:deal_new", args=[token]), deal_data(game, count + 1))
    if route == "correct":
        deal = game.deals.get(number=1)
        data = {**deal_data(game, 1), "version": deal.version}
        return send(reverse("games:deal_edit", args=[token, 1]), data)
    if route == "undo":
        return send(reverse("games:deal_undo", args=[token]), {"number": count})
    if route == "finish":
        return send(reverse("games:finish", args=[token]))
    if route == "confirm":
        return send(reverse("tournaments:confirm", args=[token]))
    if route == "unlock":
        return send(reverse("tournaments:unlock", args=[table.tournament_id, table.pk]))
    raise AssertionError(route)


def client_for(who: str, member, director) -> Client:
    client = Client()
    if who == M:
        client.force_login(member)
    elif who == D:
        client.force_login(director)
    return client


def shows_a_refusal(client: Client, response) -> bool:
    """The person is told: a message on the page they land on, or a log-in / 403 page."""
    if response.status_code == 403:
        return True
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return True
    if response.status_code == 302:
        response = client.get(response["Location"])
    html = response.content.decode()
    return "msg-error" in html or 'class="errors"' in html or "field-error" in html


@pytest.mark.parametrize("state, route, who", CASES)
def test_every_write_route_in_every_state(state, route, who, make_players, member, director):
    game, table = build(state, make_players, director)
    client = client_for(who, member, director)
    allowed = who in EXPECTED[state][route]
    before = snapshot()
    response = request(route, client, game, table)
    assert response.status_code < 500
    if allowed:
        assert response.status_code == 302, response.content.decode()[:2000]
        assert snapshot() != before, "an allowed write changed nothing"
        assert "msg-error" not in client.get(response["Location"]).content.decode()
    else:
        assert snapshot() == before, "a refused write changed something"
        assert shows_a_refusal(client, response), response.content.decode()[:2000]


@pytest.mark.parametrize(
    "state, route, who",
    [c for c in CASES if c[1] in ("deal", "correct", "undo", "finish", "confirm")],
)
def test_entry_forms_open_only_where_the_write_is_allowed(
    state, route, who, make_players, member, director
):
    game, table = build(state, make_players, director)
    client = client_for(who, member, director)
    before = snapshot()
    response = request(route, client, game, table, method="get")
    assert snapshot() == before
    if who in EXPECTED[state][route]:
        assert response.status_code == 200
    else:
        assert response.status_code == 302
        assert response["Location"] == reverse("games:sheet", args=[game.token])
        assert "msg-error" in client.get(response["Location"]).content.decode()


#: The sheet's button (or link) for each route: shown exactly when the route is allowed.
BUTTONS = {
    "deal": lambda g: 'href="{}"'.format(reverse("games:deal_new", args=[g.token])),
    "undo": lambda g: 'href="{}"'.format(reverse("games:deal_undo", args=[g.token])),
    "finish": lambda g: 'href="{}"'.format(reverse("games:finish", args=[g.token])),
    # a link to the confirmation page (it asks first), not a button that locks at once
    "confirm": lambda g: 'href="{}"'.format(reverse("tournaments:confirm", args=[g.token])),
}


@pytest.mark.parametrize("state", list(EXPECTED))
@pytest.mark.parametrize("who", [A, M, D])
def test_the_sheet_shows_exactly_the_allowed_buttons(state, who, make_players, member, director):
    game, table = build(state, make_players, director)
    client = client_for(who, member, director)
    sheet = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    for route, link in BUTTONS.items():
        if route in EXPECTED[state]:
            assert (link(game) in sheet) == (who in EXPECTED[state][route]), route
    detail = client.get(reverse("games:deal", args=[game.token, 1])).content.decode()
    correct = 'href="{}"'.format(reverse("games:deal_edit", args=[game.token, 1]))
    assert (correct in detail) == (who in EXPECTED[state]["correct"])


def test_a_tournament_table_is_never_finished_through_its_link(make_players, director):
    game, _table = build("t_locked", make_players, director)
    response = Client().post(reverse("games:finish", args=[game.token]), follow=True)
    assert "confirm" in response.content.decode().lower()
    game.refresh_from_db()
    assert not game.finished
    # nor through the service, whoever calls it
    with pytest.raises(games.GameError):
        games.game_finish(game=game, user=director)
    game.refresh_from_db()
    assert not game.finished
    # and the director's unlock still works afterwards
    tournaments.table_unlock(table=game.tournament_table, user=director)
    game.refresh_from_db()
    assert not game.locked


def test_after_the_round_the_link_is_read_only_with_a_clear_message(make_players, director):
    game, table = build("t_round_over_unlocked", make_players, director)
    client = Client()
    for name, args in [("deal_new", []), ("deal_edit", [1]), ("deal_undo", [])]:
        response = client.get(reverse(f"games:{name}", args=[game.token, *args]), follow=True)
        assert "This round is over" in response.content.decode(), name
    response = client.post(
        reverse("games:deal_edit", args=[game.token, 1]),
        {**deal_data(game, 1), "version": 1},
        follow=True,
    )
    assert "This round is over" in response.content.decode()
    assert Deal.objects.get(game=game, number=1).version == 1


def test_the_services_refuse_without_the_views(make_players, member, director):
    """The services are the last line: a view that forgot a check bypasses nothing."""
    game, _table = build("t_round_over_unlocked", make_players, director)
    deal = game.deals.get(number=1)
    data = tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=1, points=60)
    for user in (None, member):
        with pytest.raises(games.GameError) as e:
            tarot.deal_correct(deal=deal, data=data, expected_version=1, user=user)
        assert "This round is over" in e.value.messages[0]
        with pytest.raises(games.GameError):
            tarot.deal_undo_last(game=game, number=2, user=user)
    tarot.deal_correct(deal=deal, data=data, expected_version=1, user=director)
    assert Deal.objects.get(pk=deal.pk).contract == "garde"


def test_the_other_games_finish_route_respects_a_finished_game(make_players):
    game = games.game_start(players=make_players("Anne", "Bram", "Chloé"), kind="cuckoo")
    games.game_finish(game=game)
    game.refresh_from_db()
    finished_at, changes = game.finished_at, Change.objects.count()
    response = Client().post(reverse("games:finish", args=[game.token]), follow=True)
    assert response.status_code == 200 and "already finished" in response.content.decode()
    game.refresh_from_db()
    assert game.finished_at == finished_at and Change.objects.count() == changes
    # and the old path of the other games' finish goes on to the same page (a 308 keeps the POST)
    response = Client().post(f"/v/{game.token}/finish/")
    assert response.status_code == 308 and response.url == reverse(
        "games:finish", args=[game.token]
    )
