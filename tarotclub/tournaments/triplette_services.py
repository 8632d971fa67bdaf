"""Writes of triplette tournaments (duplicate.md 2.2): registering and removing a team of 3,
drawing the first attacker's colour again. Each is one transaction under the tournament's
lock, refuses bad input with a translated message and changes nothing then, and leaves a
history entry. The start, the rounds and the deals are `services`' (they know triplettes).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring import triplette as rules
from tarotclub.core.models import action, log_action
from tarotclub.core.text import text_key
from tarotclub.players.models import Player

from .models import Entry, Line, Status, Tournament, TripletteMovementKind
from .services import (
    ERR_FINISHED,
    ERR_NOT_REGISTRATION,
    TEAM_NAME_MAX,
    TournamentError,
    _lock,
    _player,
    team_players,
)

TEAM_REGISTERED = action("tournament.triplette_registered", _("triplette registered"))
TEAM_REMOVED = action("tournament.triplette_removed", _("triplette removed"))
MOVEMENT_CHOSEN = action("tournament.triplette_movement", _("triplettes' movement chosen"))
COLOUR_DRAWN = action("tournament.colour_redrawn", _("first attacker's colour drawn again"))

ERR_NOT_TRIPLETTE = _("This tournament is not played in triplettes.")
ERR_TEAM_NAME_EMPTY = _("Give the triplette a name.")
ERR_TEAM_NAME_LONG = _("A team name has at most %(max)s characters.")
ERR_TEAM_NAME_TAKEN = _("There is already a triplette called %(team)s.")
ERR_TEAM_THREE = _("A triplette has exactly 3 players (here %(count)s).")
ERR_TEAM_TWICE = _("%(name)s is named twice in this triplette.")
ERR_IN_TEAM = _("%(name)s already plays in triplette %(team)s.")
ERR_LINE = _("Choose the line North-South or East-West.")
ERR_NO_TEAM = _("There is no triplette called %(team)s (any more).")
ERR_PLAYER_NAME = _("Give each player's name.")
ERR_MOVEMENT = _("Choose the movement Stay or Howell.")
ERR_HOWELL_SIZE = _(
    "There is no Howell movement for %(teams)s triplettes (none for 4, 6 or 10): choose the "
    "Stay movement, or register another number of teams."
)


def howell_possible(teams: int) -> bool:
    """Whether a Howell movement exists for `teams` teams (an even number, at least 4)."""
    from scoring import triplette_movement as moves

    if teams < 4 or teams % 2:
        return False
    return moves.howell_starter(teams // 2) is not None


@transaction.atomic
def triplette_choose_movement(*, tournament: Tournament, kind: str, user=None) -> Tournament:
    """Choose the triplettes' movement before the start: Stay or Howell. Howell is refused
    for a number of teams registered where none exists (4, 6, 10); the start checks again."""
    t = _lock(tournament)
    _check_open(t)
    kind = str(kind or "")
    if kind not in TripletteMovementKind.values:
        raise TournamentError(ERR_MOVEMENT)
    if kind == TripletteMovementKind.HOWELL:
        count = len({text_key(e.team) for e in t.entries.all() if e.team})
        if count >= 4 and count % 2 == 0 and not howell_possible(count):
            raise TournamentError(ERR_HOWELL_SIZE, params={"teams": count})
    before = t.triplette_movement
    if before != kind:
        t.triplette_movement = kind
        t.save(update_fields=["triplette_movement"])
        log_action(
            t,
            MOVEMENT_CHOSEN,
            user=user,
            before={"movement": before},
            after={"movement": kind},
        )
    return t


def _check_open(t: Tournament) -> None:
    if not t.triplette:
        raise TournamentError(ERR_NOT_TRIPLETTE)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.status != Status.REGISTRATION:
        raise TournamentError(ERR_NOT_REGISTRATION)


def _members(members: Sequence) -> list[tuple[Player | None, str]]:
    """Each member as (roster player, "") or (None, guest name), checked for shape."""
    out = []
    for m in members:
        if isinstance(m, Player):
            out.append((m, ""))
        elif isinstance(m, str) and " ".join(m.split()):
            out.append((None, " ".join(m.split())[:80]))
        else:
            raise TournamentError(ERR_PLAYER_NAME)
    return out


@transaction.atomic
def triplette_register(
    *, tournament: Tournament, team: str, members: Sequence, line: str = "", user=None
) -> list[Entry]:
    """Register a triplette: a team name, its 3 players (roster players, or guests by name)
    and its line, North-South or East-West (without one: the line with fewer teams, N-S on a
    tie, so the lines stay balanced). Refused: a name taken, not exactly 3 players, a player
    named twice or already in another team, an unknown line, after the start."""
    t = _lock(tournament)
    _check_open(t)
    name = " ".join(str(team or "").split())
    if not name:
        raise TournamentError(ERR_TEAM_NAME_EMPTY)
    if len(name) > TEAM_NAME_MAX:
        raise TournamentError(ERR_TEAM_NAME_LONG, params={"max": TEAM_NAME_MAX})
    members = [] if isinstance(members, str | bytes) else list(members or [])
    if len(members) != rules.TEAM_SIZE:
        raise TournamentError(ERR_TEAM_THREE, params={"count": len(members)})
    given = _members(members)
    line = str(line or "")
    existing = list(t.entries.select_related("player"))
    names_taken = {text_key(e.team): e.team for e in existing if e.team}
    if text_key(name) in names_taken:
        raise TournamentError(ERR_TEAM_NAME_TAKEN, params={"team": names_taken[text_key(name)]})
    if not line:
        counts = {v: len({text_key(e.team) for e in existing if e.line == v}) for v in Line.values}
        line = (
            Line.EAST_WEST
            if counts[Line.EAST_WEST] < counts[Line.NORTH_SOUTH]
            else Line.NORTH_SOUTH
        )
    if line not in Line.values:
        raise TournamentError(ERR_LINE)
    # guests found by their name's key, as for one player (`services.entry_register`)
    players = team_players(given, existing, twice=ERR_TEAM_TWICE, in_team=ERR_IN_TEAM, user=user)
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, licence=(p.licence or "")[:20], team=name, line=line)
        for p in players
    )
    log_action(
        t,
        TEAM_REGISTERED,
        user=user,
        after={"team": name, "line": line, "players": [_player(p) for p in players]},
    )
    return entries


@transaction.atomic
def triplette_remove(*, tournament: Tournament, team: str, user=None) -> int:
    """Remove a triplette before the start (its 3 registrations); the number removed."""
    t = _lock(tournament)
    _check_open(t)
    key = text_key(" ".join(str(team or "").split()))
    entries = [e for e in t.entries.select_related("player") if e.team and text_key(e.team) == key]
    if not key or not entries:
        raise TournamentError(ERR_NO_TEAM, params={"team": str(team or "")[:60]})
    before = {
        "team": entries[0].team,
        "line": entries[0].line,
        "players": [_player(e.player) for e in entries],
    }
    Entry.objects.filter(pk__in=[e.pk for e in entries]).delete()
    log_action(t, TEAM_REMOVED, user=user, before=before)
    return len(entries)


@transaction.atomic
def triplette_redraw_colour(*, tournament: Tournament, draws: int | None = None, user=None):
    """Draw the first attacker's colour again, before the start, with the tournament's seed
    (`scoring.triplette.draw_first_colour`). `draws` is the count the director's page showed:
    a second tap of the same form is refused (it would draw again)."""
    from .services import ERR_REDRAWN_ALREADY

    t = _lock(tournament)
    _check_open(t)
    if draws is not None and draws != t.colour_draws:
        raise TournamentError(ERR_REDRAWN_ALREADY, code="redrawn")
    before = t.first_colour
    t.colour_draws += 1
    t.first_colour = rules.draw_first_colour(t.seed, t.colour_draws)
    t.save(update_fields=["colour_draws", "first_colour"])
    log_action(
        t,
        COLOUR_DRAWN,
        user=user,
        before={"first_colour": before},
        after={"first_colour": t.first_colour, "draws": t.colour_draws},
    )
    return t
