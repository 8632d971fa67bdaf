"""Reads of the other games: a game's state, and standings over many games.

Every figure comes from replaying the stored records through the game's `scoring` module.
The standings read a constant number of queries whatever the number of games.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, QuerySet

from scoring import cuckoo, deathspot, keys
from tarotclub.games.models import Game, Record, Seat
from tarotclub.games.services import GameError, seat_players
from tarotclub.players.models import Player

from . import rules, services
from .models import ChallengeAward

log = logging.getLogger(__name__)


@dataclass
class GameState:
    game: Game
    players: list[Player]
    records: list[Record]
    state: Any  # the scoring module's state; None when the stored records are broken
    error: str = ""

    @property
    def names(self) -> dict[int, str]:
        return {p.pk: p.label for p in self.players}

    @property
    def over(self) -> bool:
        """Ended by the rules (a winner or a draw)."""
        return self.state is not None and rules.is_finished(self.state)

    @property
    def stopped(self) -> bool:
        """Finished by hand before the rules ended it."""
        return self.game.finished and not self.over


def game_state(game: Game, records: Iterable[Record] | None = None) -> GameState:
    """Replay a game (uses the prefetch caches when there are some)."""
    players = seat_players(game)
    recs = list(records if records is not None else game.records.order_by("number"))
    recs.sort(key=lambda r: r.number)
    try:
        state = services.replay(game, [r.data for r in recs], players)
    except GameError as e:  # should never happen: every record was replayed when stored
        log.error("game %s: stored records do not replay: %s", game.pk, e)
        return GameState(game, players, recs, None, " ".join(e.messages))
    return GameState(game, players, recs, state)


def state_before(game: Game, number: int) -> Any:
    """The state before record `number`: what the entry screen of that record starts from."""
    datas = list(
        game.records.filter(number__lt=number).order_by("number").values_list("data", flat=True)
    )
    return services.replay(game, datas)


def last_record(game: Game) -> Record | None:
    return game.records.order_by("-number").first()


def games_in_progress(limit: int = 20) -> list[Game]:
    """The latest unfinished games of the other kinds, with their seats."""
    qs = Game.objects.filter(kind__in=rules.KINDS, finished_at__isnull=True)
    qs = qs.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )
    return list(qs.order_by("-created_at", "-pk")[:limit])


# --- standings ---------------------------------------------------------------------------------


def games_in_range(
    kind: str, date_from: dt.date | None = None, date_to: dt.date | None = None
) -> QuerySet[Game]:
    """Games of `kind` started within the dates (inclusive), seats, records (and awards)."""
    qs = Game.objects.filter(kind=kind)
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    prefetch = [
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("records", queryset=Record.objects.order_by("number")),
    ]
    if kind == rules.FOOLS_FAITH:
        prefetch.append(
            Prefetch(
                "challenge_awards",
                queryset=ChallengeAward.objects.select_related("player").order_by("card"),
            )
        )
    return qs.prefetch_related(*prefetch).order_by("-created_at", "-pk")


@dataclass
class Standings:
    kind: str
    rows: list[dict]
    states: list[GameState] = field(default_factory=list)


def _line(lines: dict, player: Player, **zeros) -> dict:
    if player.pk not in lines:
        lines[player.pk] = {"pk": player.pk, "player": player.short_name, **zeros}
    return lines[player.pk]


def _ratio(num, den) -> float | None:
    return float(Fraction(num, den)) if den else None


def _ff_rows(states: list[GameState]) -> list[dict]:
    """Finished games only (a stopped game counts nowhere): the figures of variants.md."""
    lines: dict[int, dict] = {}
    for gs in states:
        if not gs.over:
            continue
        st = gs.state
        received = {}
        for award in gs.game.challenge_awards.all():
            received.setdefault(award.player_id, []).append(award.text)
        for p in gs.players:
            line = _line(
                lines,
                p,
                played=0,
                won=0,
                rounds_won=0,
                tricks=0,
                cards=0,
                received=0,
                challenges=[],
            )
            line["played"] += 1
            line["won"] += int(st.winner == p.pk)
            line["rounds_won"] += st.rounds_won[p.pk]
            line["tricks"] += st.tricks[p.pk]
            line["cards"] += st.cards[p.pk]
            line["received"] += len(received.get(p.pk, []))
            line["challenges"] += received.get(p.pk, [])
    for line in lines.values():
        line["win_rate"] = _ratio(line["won"], line["played"])
    return list(lines.values())


def _dp_rows(states: list[GameState]) -> list[dict]:
    """Every game with at least one deal, finished or not: the balances are final at any time."""
    lines: dict[int, dict] = {}
    for gs in states:
        st = gs.state
        if not st.history:
            continue
        stake = st.stake
        for p in gs.players:
            line = _line(lines, p, games=0, deals=0, pots=0, net=0)
            line["games"] += 1
            line["deals"] += len(st.history)
            line["net"] += st.balances[p.pk]
            line["pots"] += sum(
                1
                for r in st.history
                for pay in r.payments
                if pay.player == p.pk and pay.kind in (deathspot.DEATH, deathspot.TRICKS)
            )
            line.setdefault("stakes", set()).add(stake)
    for line in lines.values():
        line["average"] = _ratio(line["net"], line["games"])
        line.pop("stakes", None)
    return list(lines.values())


def _keys_rows(states: list[GameState]) -> list[dict]:
    """Every recorded game (each record is a whole game), via `scoring.keys.standings`."""
    games = []
    players: dict[int, Player] = {}
    for gs in states:
        for p in gs.players:
            players[p.pk] = p
        games += [
            {"suits": g.suits, "winner": g.winner, "keys": g.keys, "guards": g.guards}
            for g in gs.state.games
        ]
    table = keys.standings(games)
    rows = []
    for pk, rec in table.players.items():
        rows.append(
            {
                "pk": pk,
                "player": players[pk].short_name,
                "played": rec.played,
                "won": rec.won,
                "lost": rec.lost,
                "win_rate": float(rec.win_rate),
                "average_keys": (
                    float(rec.average_keys_when_losing)
                    if rec.average_keys_when_losing is not None
                    else None
                ),
            }
        )
    return rows


def _cuckoo_rows(states: list[GameState]) -> list[dict]:
    """Matches ended by the rules (a stopped match counts nowhere)."""
    lines: dict[int, dict] = {}
    for gs in states:
        if not gs.over:
            continue
        st = gs.state
        places = cuckoo.places(st)
        first_out = next((r.out for r in st.history if r.out), ())
        draw_group = set(st.history[-1].out) if st.draw and st.history else set()
        for p in gs.players:
            line = _line(lines, p, played=0, won=0, draws=0, first_out=0, places=0)
            line["played"] += 1
            line["won"] += int(st.winner == p.pk)
            line["draws"] += int(p.pk in draw_group)
            line["first_out"] += int(p.pk in first_out and p.pk not in draw_group)
            line["places"] += places.get(p.pk, len(gs.players))
    for line in lines.values():
        line["average_place"] = _ratio(line["places"], line["played"])
        line["win_rate"] = _ratio(line["won"], line["played"])
    return list(lines.values())


ROWS = {
    rules.FOOLS_FAITH: _ff_rows,
    rules.DEATHS_POT: _dp_rows,
    rules.KEYS: _keys_rows,
    rules.CUCKOO: _cuckoo_rows,
}


def standings(
    kind: str, date_from: dt.date | None = None, date_to: dt.date | None = None
) -> Standings:
    """Per-player figures over the games of `kind` in the date range (see each `_x_rows`)."""
    states = []
    for game in games_in_range(kind, date_from, date_to):
        gs = game_state(game, game.records.all())
        if gs.state is not None:
            states.append(gs)
    rows = [r for r in ROWS[kind](states) if r]
    rows.sort(key=lambda r: r["player"].lower())
    return Standings(kind=kind, rows=rows, states=states)
