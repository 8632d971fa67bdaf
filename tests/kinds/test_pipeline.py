"""One pipeline for every kind: a sixth kind defined here alone gets every page, and a page
replays a game's records once."""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from scoring import RuleError
from scoring._common import Option, check_players, is_int, replay
from tarotclub.games import kinds
from tarotclub.games.forms import RecordForm, stepper
from tarotclub.games.kinds import Words
from tarotclub.games.models import Change, ChangeAction, Game, Record
from tarotclub.games.presenters import Cell, PlayerCard, Row, Summary
from tarotclub.games.replayed import ReplayedKind, player_map
from tarotclub.games.selectors import seat_players
from tarotclub.games.standings import player_line
from tarotclub.games.tables import GameStandingsTable, NumberColumn

pytestmark = pytest.mark.django_db

# --- a toy game, in the scoring protocol: each record gives each player some points; the first
# --- to reach the target wins.


def _start(players, target=10):
    seats = check_players(players, low=2, high=4, count_error="Toy is played by 2 to 4 players.")
    if not is_int(target) or target < 1:
        raise RuleError("The target is a whole number of at least 1.")
    totals = dict.fromkeys(seats, 0)
    return SimpleNamespace(
        players=seats, target=target, totals=totals, history=(), finished=False, winner=None
    )


def _step(state, record):
    if state.finished:
        raise RuleError("This toy game is over.")
    points = record.get("points") if isinstance(record, dict) else None
    if not isinstance(points, dict) or set(points) != set(state.players):
        raise RuleError("Give every player's points.")
    if any(not is_int(n) or n < 0 for n in points.values()):
        raise RuleError("Points are whole numbers, at least 0.")
    totals = {p: state.totals[p] + points[p] for p in state.players}
    best = max(totals.values())
    leaders = [p for p in state.players if totals[p] == best]
    finished = best >= state.target and len(leaders) == 1
    return SimpleNamespace(
        players=state.players,
        target=state.target,
        totals=totals,
        history=(*state.history, dict(points)),
        finished=finished,
        winner=leaders[0] if finished else None,
    )


TOY_RULES = SimpleNamespace(
    MIN_PLAYERS=2,
    MAX_PLAYERS=4,
    OPTIONS=(Option("target", "Target", default=10, low=1, high=100),),
    start=_start,
    step=_step,
    play=lambda players, records, target=10: replay(
        _start(players, target), _step, records, records_error="Give a list."
    ),
)


class ToyForm(RecordForm):
    def __init__(self, *args, players, state=None, **kwargs):
        super().__init__(*args, players=players, state=state, **kwargs)
        for p in self.players:
            self.fields[f"points_{p.pk}"] = stepper(label=p.label, low=0, high=9)

    def record_data(self):
        return {"points": {p.pk: self.cleaned_data[f"points_{p.pk}"] for p in self.players}}

    @staticmethod
    def initial_from(data):
        return {f"points_{pk}": n for pk, n in player_map(data.get("points")).items()}


class ToyStandings(GameStandingsTable):
    won = NumberColumn(verbose_name="Won")


class Toy(ReplayedKind):
    identifier = "toy"
    verbose_name = "Toy game"
    rules = TOY_RULES
    words = Words(
        entry="Hand %(n)s",
        correct="Correct hand %(n)s",
        new="New hand",
        save="Save",
        saved="Hand %(n)s saved.",
        corrected="Hand %(n)s corrected.",
        undone="Hand %(n)s undone.",
        undo="Undo the last hand",
        undo_question="Undo hand %(n)s?",
    )
    form_class = ToyForm
    player_maps = ("points",)
    standings_table = ToyStandings
    ends_by_rules = True

    def summary(self, state, players, names):
        cards = [PlayerCard(p.pk, p.label, str(state.totals[p.pk])) for p in players]
        summary = Summary(cards=cards, lines=[f"Target {state.target}"])
        if state.finished:
            summary.over, summary.winner = True, state.winner
            summary.headline = f"Toy over: {names[state.winner]} won."
        return summary

    def rows(self, state, players, names):
        return [
            Row(i, "", f"hand of {sum(h.values())}", {p.pk: Cell(str(h[p.pk])) for p in players})
            for i, h in enumerate(state.history, start=1)
        ]

    def describe(self, data, names):
        points = player_map(data.get("points"))
        return "toy: " + ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in points.items())

    def standings_rows(self, played):
        lines: dict = {}
        for p in played:
            for player in p.players:
                line = player_line(lines, player, won=0)
                line["won"] += int(p.state.winner == player.pk)
        return list(lines.values())


@pytest.fixture
def toy():
    kinds.register(Toy)
    yield kinds.get("toy")
    kinds.unregister("toy")


def test_a_sixth_kind_defined_in_the_tests_gets_every_page(toy, member_client, make_players):
    anne, bram = make_players("Anne", "Bram")
    client = member_client
    # the new-game screen offers it, with its option
    page = client.get(reverse("games:new") + "?kind=toy").content.decode()
    assert "Toy game" in page and 'name="target"' in page
    response = client.post(
        reverse("games:new"),
        {"kind": "toy", "seat1": anne.pk, "seat2": bram.pk, "first_dealer": "1", "target": "5"},
    )
    game = Game.objects.get(kind="toy")
    assert response.status_code == 302 and game.options == {"target": 5}
    token = game.token
    a, b = seat_players(game)
    hand = {f"points_{a.pk}": "2", f"points_{b.pk}": "3"}
    # entry, preview, sheet
    assert 'name="points_' in client.get(reverse("games:deal_new", args=[token])).content.decode()
    preview = client.post(reverse("games:deal_preview", args=[token]), hand).content.decode()
    assert "hand of 5" in preview
    assert (
        client.post(reverse("games:deal_new", args=[token]), {**hand, "number": "1"}).status_code
        == 302
    )
    sheet = client.get(reverse("games:sheet", args=[token])).content.decode()
    assert "Target 5" in sheet and "hand of 5" in sheet and "New hand" in sheet
    # a refused entry: the rules' message, nothing saved
    response = client.post(reverse("games:deal_new", args=[token]), {**hand, "number": "5"})
    assert response.status_code == 400 and Record.objects.filter(game=game).count() == 1
    # correction, then the history in words
    fixed = {f"points_{a.pk}": "1", f"points_{b.pk}": "1", "version": "1"}
    assert client.post(reverse("games:deal_edit", args=[token, 1]), fixed).status_code == 302
    history = client.get(reverse("games:history", args=[token])).content.decode()
    assert (
        f"toy: {a.label} 2, {b.label} 3" in history and f"toy: {a.label} 1, {b.label} 1" in history
    )
    # undo, with its confirmation
    assert "Undo hand 1?" in client.get(reverse("games:deal_undo", args=[token])).content.decode()
    assert client.post(reverse("games:deal_undo", args=[token]), {"number": "1"}).status_code == 302
    assert not Record.objects.filter(game=game).exists()
    # the rules end it; the standings count it
    win = {f"points_{a.pk}": "6", f"points_{b.pk}": "0", "number": "1"}
    client.post(reverse("games:deal_new", args=[token]), win)
    game.refresh_from_db()
    assert game.finished
    assert "Toy over: " in client.get(reverse("games:sheet", args=[token])).content.decode()
    standings = client.get(reverse("games:standings_kind", args=["toy"]))
    assert standings.status_code == 200 and "Anne" in standings.content.decode()
    # a second game is finished by hand
    other = Game.objects.create(kind="toy", options={"target": 5})
    other.seats.create(player=anne, position=0)
    other.seats.create(player=bram, position=1)
    page = client.get(reverse("games:finish", args=[other.token])).content.decode()
    assert "Stop the game?" in page
    assert client.post(reverse("games:finish", args=[other.token])).status_code == 302
    other.refresh_from_db()
    assert other.finished
    assert Change.objects.filter(game=other, action=ChangeAction.FINISHED).count() == 1


def test_the_registry_refuses_two_kinds_of_one_name(toy):
    class Other(Toy):
        pass

    with pytest.raises(ValueError):
        kinds.register(Other)


@pytest.fixture
def ff_two_rounds(member, make_players):
    from tarotclub.games.services import game_start, record_add

    players = make_players("Anne", "Bram", "Chloé")
    game = game_start(players=players, kind="foolsfaith", created_by=member)
    for counts in ((4, 2, 2), (2, 4, 2)):
        record_add(
            game=game, data={"tricks": dict(zip([p.pk for p in players], counts, strict=True))}
        )
    return game, players


def _replays(client_call):
    with mock.patch.object(
        ReplayedKind, "replay", autospec=True, side_effect=ReplayedKind.replay
    ) as spy:
        response = client_call()
    return spy.call_count, response


def test_a_page_replays_the_game_once(ff_two_rounds):
    game, players = ff_two_rounds
    client = Client()
    token = game.token
    good = {f"tricks_{p.pk}": n for p, n in zip(players, ("5", "2", "1"), strict=True)}
    bad = {f"tricks_{p.pk}": n for p, n in zip(players, ("5", "2", "2"), strict=True)}
    calls = {
        "sheet": lambda: client.get(reverse("games:sheet", args=[token])),
        "entry screen": lambda: client.get(reverse("games:deal_new", args=[token])),
        "preview": lambda: client.post(reverse("games:deal_preview", args=[token]), good),
        "refused entry": lambda: client.post(
            reverse("games:deal_new", args=[token]), {**bad, "save": "1"}
        ),
        "correction": lambda: client.post(
            reverse("games:deal_edit", args=[token, 1]),
            {
                **{f"tricks_{p.pk}": n for p, n in zip(players, ("5", "1", "2"), strict=True)},
                "version": "1",
            },
        ),
        "entry": lambda: client.post(
            reverse("games:deal_new", args=[token]), {**good, "number": "3"}
        ),
    }
    for what, call in calls.items():
        count, response = _replays(call)
        assert response.status_code < 500, what
        assert count == 1, (what, count)
    assert Record.objects.filter(game=game).count() == 3
