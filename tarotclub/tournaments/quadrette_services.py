"""Writes of quadrette tournaments (duplicate.md 2.3): registering and removing a team of 4.
Each is one transaction under the tournament's lock, refuses bad input with a translated
message and changes nothing then, and leaves a history entry. The start, the rounds and the
deals are `services`' (they know quadrettes).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring import quadrette as rules
from tarotclub.core.models import action, log_action
from tarotclub.core.text import text_key
from tarotclub.players.models import Player

from .models import Entry, Status, Tournament
from .services import (
    ERR_FINISHED,
    ERR_NOT_REGISTRATION,
    TEAM_NAME_MAX,
    TournamentError,
    _lock,
    _player,
    team_players,
)

TEAM_REGISTERED = action("tournament.quadrette_registered", _("quadrette registered"))
TEAM_REMOVED = action("tournament.quadrette_removed", _("quadrette removed"))

ERR_NOT_QUADRETTE = _("This tournament is not played in quadrettes.")
ERR_TEAM_NAME_EMPTY = _("Give the quadrette a name.")
ERR_TEAM_NAME_LONG = _("A team name has at most %(max)s characters.")
ERR_TEAM_NAME_TAKEN = _("There is already a quadrette called %(team)s.")
ERR_TEAM_FOUR = _(
    "A quadrette has exactly 4 players: its attacker and 3 defenders (here %(count)s)."
)
ERR_TEAM_TWICE = _("%(name)s is named twice in this quadrette.")
ERR_IN_TEAM = _("%(name)s already plays in quadrette %(team)s.")
ERR_NO_TEAM = _("There is no quadrette called %(team)s (any more).")
ERR_PLAYER_NAME = _("Give each player's name.")


def _check_open(t: Tournament) -> None:
    if not t.quadrette:
        raise TournamentError(ERR_NOT_QUADRETTE)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.status != Status.REGISTRATION:
        raise TournamentError(ERR_NOT_REGISTRATION)


def _member(m) -> tuple[Player | None, str]:
    if isinstance(m, Player):
        return m, ""
    if isinstance(m, str) and " ".join(m.split()):
        return None, " ".join(m.split())[:80]
    raise TournamentError(ERR_PLAYER_NAME)


@transaction.atomic
def quadrette_register(
    *, tournament: Tournament, team: str, attacker, defenders: Sequence, user=None
) -> list[Entry]:
    """Register a quadrette: a team name, the player its captain names to attack for the
    whole session (seated South at every table) and its 3 defenders, who keep North, East
    and West in the order given (roster players, or guests by name). Refused: a name taken,
    not exactly 1 + 3 players, a player named twice or already in another team, after the
    start."""
    t = _lock(tournament)
    _check_open(t)
    name = " ".join(str(team or "").split())
    if not name:
        raise TournamentError(ERR_TEAM_NAME_EMPTY)
    if len(name) > TEAM_NAME_MAX:
        raise TournamentError(ERR_TEAM_NAME_LONG, params={"max": TEAM_NAME_MAX})
    defenders = [] if isinstance(defenders, str | bytes) else list(defenders or [])
    members = ([attacker] if attacker not in (None, "") else []) + defenders
    if len(members) != rules.TEAM_SIZE or len(defenders) != len(rules.DEFENCE):
        raise TournamentError(ERR_TEAM_FOUR, params={"count": len(members)})
    given = [_member(m) for m in members]
    existing = list(t.entries.select_related("player"))
    names_taken = {text_key(e.team): e.team for e in existing if e.team}
    if text_key(name) in names_taken:
        raise TournamentError(ERR_TEAM_NAME_TAKEN, params={"team": names_taken[text_key(name)]})
    players = team_players(given, existing, twice=ERR_TEAM_TWICE, in_team=ERR_IN_TEAM, user=user)
    seats = (rules.ATTACK, *rules.DEFENCE)
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, licence=(p.licence or "")[:20], team=name, orientation=seat)
        for p, seat in zip(players, seats, strict=True)
    )
    log_action(
        t,
        TEAM_REGISTERED,
        user=user,
        after={
            "team": name,
            "attacker": _player(players[0]),
            "defenders": {
                seat: _player(p) for seat, p in zip(rules.DEFENCE, players[1:], strict=True)
            },
        },
    )
    return entries


@transaction.atomic
def quadrette_remove(*, tournament: Tournament, team: str, user=None) -> int:
    """Remove a quadrette before the start (its 4 registrations); the number removed."""
    t = _lock(tournament)
    _check_open(t)
    key = text_key(" ".join(str(team or "").split()))
    entries = [e for e in t.entries.select_related("player") if e.team and text_key(e.team) == key]
    if not key or not entries:
        raise TournamentError(ERR_NO_TEAM, params={"team": str(team or "")[:60]})
    before = {
        "team": entries[0].team,
        "players": {e.orientation: _player(e.player) for e in entries},
    }
    Entry.objects.filter(pk__in=[e.pk for e in entries]).delete()
    log_action(t, TEAM_REMOVED, user=user, before=before)
    return len(entries)
