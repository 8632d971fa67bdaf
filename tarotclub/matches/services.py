"""Every write to a team match: keyword-only, validated, atomic, and logged in the history.

Only directors write (the pages are guarded the same way). `user=None` is the command line
(a script, the tests). The two captains' entries of a quarter are separate writes
(`quarter_record`, one team each), so two phones entering the same quarter at once never
overwrite each other: the match row is locked (`select_for_update`) for the check "a
different attacker in each quarter" and the write that follows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import RuleError, fft
from tarotclub.core.errors import Refused
from tarotclub.core.models import log_action
from tarotclub.games import policy
from tarotclub.players.models import Player

from .history import CREATED, EDITED, QUARTER_RECORDED
from .models import QUARTERS, TEAMS, MatchContract, Member, Quarter, Result, TeamMatch
from .models import placing_team as placing_team_of

MIN_PLAYERS, MAX_PLAYERS = 4, 6
BOARD_COUNTS = (16, 20, 24)
#: No board score of a garde, garde sans or garde contre comes near it (chelem included).
MAX_SCORE = 1200
MAX_BONUS = Decimal("999.999")
MILLI = Decimal("0.001")

ERR_DIRECTOR = _("Only a director can run a team match.")
ERR_NAME = _("Give the team match a name.")
ERR_DATE = _("Give the team match a date.")
ERR_BOARDS = _("A team match has 16, 20 or 24 boards: the 4 quarters share them evenly.")
ERR_TEAM_NAME = _("Give each team a name, and two different names.")
ERR_TEAM_SIZE = _("Each team has 4 to 6 players, the captain first.")
ERR_PLAYER = _("Choose the players from the club's players.")
ERR_TWICE = _("A player plays in one team only, once.")
ERR_BONUS = _("A bonus is a number of match points from 0 to 999.999, with at most 3 decimals.")
ERR_QUARTER = _("A team match has 4 quarters, numbered 1 to 4.")
ERR_WHICH_TEAM = _("Say which team enters its quarter: A or B.")
ERR_ATTACKER = _("The attacker must be a player of the team.")
ERR_ATTACKER_AGAIN = _(
    "%(name)s already attacked for the team in quarter %(number)s: "
    "the attacker is a different player in each quarter."
)
ERR_ROOMS = _("Say whose attacker plays in the closed room.")
ERR_ROOMS_NOT_YOURS = _(
    "In quarter %(number)s the rooms are chosen by %(team)s (team A for quarters 1 and 3, "
    "team B for 2 and 4)."
)
ERR_RESULTS = _("Enter a result for each of the quarter's %(count)s boards.")
ERR_CONTRACT = _("The contract is garde, garde sans or garde contre: the taker may not pass.")
ERR_SCORE = _(
    "A board score is an even whole number of points, from −%(max)s to %(max)s "
    "(with a garde or higher every part of the score is even)."
)

ERR_STALE = _(
    "Somebody else changed this team match since you opened it. Here is the newer version; "
    "check it and make your change again if it is still needed."
)
ERR_REMOVE_ATTACKER = _(
    "%(name)s attacked for %(team)s in quarter %(number)s, which is recorded: keep them in "
    "the team, or correct that quarter's attacker first."
)
ERR_BOARDS_RECORDED = _(
    "The number of boards can only change before any quarter is recorded: each quarter's "
    "boards follow from it. Correct or keep the recorded quarters."
)
ERR_BOARDS_CHANGED = _(
    "The number of boards of this team match was changed meanwhile: this quarter now has "
    "boards %(first)s to %(last)s. Enter it again."
)
ERR_FACTS = _("Board %(board)s: the deal's facts are incomplete or not understood.")
ERR_FACTS_RULE = _("Board %(board)s: %(message)s")

#: The seats of a team match's table: the attacker always sits South (p. 26).
SOUTH = "S"
SEATS = ("S", "E", "N", "W")
FACTS_KEYS = frozenset({"bouts", "points_half", "petit_au_bout", "poignees", "chelem"})


class MatchError(Refused):
    pass


def _check_director(user) -> None:
    if user is not None and not policy.is_director(user):
        raise MatchError(ERR_DIRECTOR)


def _text(value, size: int) -> str:
    return " ".join(str(value or "").split())[:size]


def _bonus(value) -> Decimal:
    if value in (None, ""):
        return Decimal("0.000")
    if isinstance(value, bool | float):
        raise MatchError(ERR_BONUS)
    try:
        bonus = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise MatchError(ERR_BONUS) from None
    if not bonus.is_finite() or not 0 <= bonus <= MAX_BONUS or bonus != bonus.quantize(MILLI):
        raise MatchError(ERR_BONUS)
    return bonus.quantize(MILLI)


def _players(values) -> list[Player]:
    values = list(values or [])
    if not MIN_PLAYERS <= len(values) <= MAX_PLAYERS:
        raise MatchError(ERR_TEAM_SIZE)
    pks = []
    for v in values:
        pk = v.pk if isinstance(v, Player) else v
        if not isinstance(pk, int) or isinstance(pk, bool):
            raise MatchError(ERR_PLAYER)
        pks.append(pk)
    found = {p.pk: p for p in Player.objects.filter(pk__in=pks)}
    if len(found) != len(set(pks)):
        raise MatchError(ERR_PLAYER)
    return [found[pk] for pk in pks]


def _snapshot_match(match: TeamMatch, a: list[Player], b: list[Player]) -> dict:
    return {
        "name": match.name,
        "date": match.date.isoformat(),
        "boards": match.boards,
        "teams": {
            "A": {"name": match.a_name, "players": [p.pk for p in a], "bonus": str(match.a_bonus)},
            "B": {"name": match.b_name, "players": [p.pk for p in b], "bonus": str(match.b_bonus)},
        },
    }


def _checked_match(name, date, boards, a_name, b_name, a_players, b_players, a_bonus, b_bonus):
    """A match's fields as creating or correcting it checks them: the names cleaned, the
    players found, the bonuses read (MatchError on the first that is wrong)."""
    name = _text(name, 120)
    if not name:
        raise MatchError(ERR_NAME)
    if not isinstance(date, dt.date):
        raise MatchError(ERR_DATE)
    if isinstance(boards, bool) or boards not in BOARD_COUNTS:
        raise MatchError(ERR_BOARDS)
    a_name, b_name = _text(a_name, 80), _text(b_name, 80)
    if not a_name or not b_name or a_name.casefold() == b_name.casefold():
        raise MatchError(ERR_TEAM_NAME)
    a, b = _players(a_players), _players(b_players)
    if len({p.pk for p in a + b}) != len(a) + len(b):
        raise MatchError(ERR_TWICE)
    a_bonus, b_bonus = _bonus(a_bonus), _bonus(b_bonus)
    return name, a_name, b_name, a, b, a_bonus, b_bonus


def match_create(
    *,
    name: str,
    date: dt.date,
    boards: int,
    a_name: str,
    b_name: str,
    a_players: Sequence,
    b_players: Sequence,
    a_bonus=Decimal("0.000"),
    b_bonus=Decimal("0.000"),
    user=None,
) -> TeamMatch:
    """A team match (2.4): two teams of 4 to 6 players (the captain first; a player in one
    team only), 16, 20 or 24 boards, and each team's optional match-point bonus (p. 26)."""
    _check_director(user)
    name, a_name, b_name, a, b, a_bonus, b_bonus = _checked_match(
        name, date, boards, a_name, b_name, a_players, b_players, a_bonus, b_bonus
    )
    with transaction.atomic():
        match = TeamMatch.objects.create(
            name=name,
            date=date,
            boards=boards,
            a_name=a_name,
            b_name=b_name,
            a_bonus=a_bonus,
            b_bonus=b_bonus,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        Member.objects.bulk_create(
            [
                Member(match=match, team=team, player=p, order=i)
                for team, players in (("A", a), ("B", b))
                for i, p in enumerate(players)
            ]
        )
        log_action(match, CREATED, user=user, after=_snapshot_match(match, a, b))
    return match


def facts_score(*, board: int, contract: str, facts) -> tuple[int, dict]:
    """The board score of a deal's facts, and the facts as they are stored.

    The attacker (seated South, p. 26) takes alone against the three defenders at a table of
    4; the board score is U, what one defender pays (duplicate.md 1.5, open questions 8 and
    16), worked out by `scoring.fft`. `facts`: {"bouts", "points_half" (the attack's card
    points in halves, 0–182), "petit_au_bout" ("", "attack", "defence"), "poignees" ([[seat,
    kind]], seats S, E, N, W), "chelem"}. Facts the rules refuse raise MatchError with the
    rules' own message; this writes nothing."""
    if not isinstance(facts, dict) or set(facts) != FACTS_KEYS:
        raise MatchError(ERR_FACTS, params={"board": board})
    bouts, half = facts["bouts"], facts["points_half"]
    pab, chelem, poignees = facts["petit_au_bout"], facts["chelem"], facts["poignees"]
    if (
        any(not isinstance(v, int) or isinstance(v, bool) for v in (bouts, half))
        or not isinstance(pab, str)
        or not isinstance(chelem, str)
        or not isinstance(poignees, list | tuple)
        or len(poignees) > len(SEATS)
        or any(
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or pair[0] not in SEATS
            or not isinstance(pair[1], str)
            for pair in poignees
        )
    ):
        raise MatchError(ERR_FACTS, params={"board": board})
    if contract not in MatchContract.values:
        raise MatchError(ERR_CONTRACT)
    if not 0 <= half <= 2 * fft.TOTAL_POINTS:
        raise MatchError(ERR_FACTS, params={"board": board})
    try:
        result = fft.score_deal(
            seats=SEATS,
            taker=SOUTH,
            contract=contract,
            bouts=bouts,
            points=Fraction(half, 2),
            petit_au_bout=pab or None,
            poignees=tuple((seat, kind) for seat, kind in poignees),
            chelem=chelem,
        )
    except RuleError as e:
        raise MatchError(
            ERR_FACTS_RULE, params={"board": board, "message": e.translated(gettext)}
        ) from e
    stored = {
        "bouts": result.bouts,
        "points_half": int(result.points * 2),
        "petit_au_bout": str(result.petit_au_bout) if result.petit_au_bout else "",
        "poignees": [[seat, str(kind)] for seat, kind in result.poignees],
        "chelem": str(result.chelem),
    }
    return result.unit, stored


def _removal_check(match: TeamMatch, teams: dict[str, list[Player]], names: dict) -> None:
    """Refuse taking out of a team (or moving to the other) a player who attacked for it in
    a recorded quarter."""
    for q in match.quarters.all():
        for team, pk in (("A", q.a_attacker_id), ("B", q.b_attacker_id)):
            if pk is not None and pk not in {p.pk for p in teams[team]}:
                raise MatchError(
                    ERR_REMOVE_ATTACKER,
                    params={
                        "name": names.get(pk, "?"),
                        "team": match.team_name(team),
                        "number": q.number,
                    },
                )


def match_edit(
    *,
    match: TeamMatch,
    expected_revision: int,
    name: str,
    date: dt.date,
    boards: int,
    a_name: str,
    b_name: str,
    a_players: Sequence,
    b_players: Sequence,
    a_bonus=Decimal("0.000"),
    b_bonus=Decimal("0.000"),
    user=None,
) -> TeamMatch:
    """Correct a team match: its name and date, the teams' names, their players (4 to 6, the
    captain first, one team each), the number of boards (only before any quarter is
    recorded) and the bonuses. A player who attacked in a recorded quarter stays in his team.

    Refused when the match changed since `expected_revision` (another director's screen),
    unless that change already made it what is asked (a double submit: nothing is logged)."""
    _check_director(user)
    name, a_name, b_name, a, b, a_bonus, b_bonus = _checked_match(
        name, date, boards, a_name, b_name, a_players, b_players, a_bonus, b_bonus
    )
    if isinstance(expected_revision, bool) or not isinstance(expected_revision, int):
        raise MatchError(ERR_STALE, code="stale")
    with transaction.atomic():
        match = TeamMatch.objects.select_for_update().get(pk=match.pk)
        members = list(match.members.select_related("player").order_by("team", "order"))
        old = {t: [m.player for m in members if m.team == t] for t in TEAMS}
        before = _snapshot_match(match, old["A"], old["B"])
        match.name, match.date, match.boards = name, date, boards
        match.a_name, match.b_name = a_name, b_name
        match.a_bonus, match.b_bonus = a_bonus, b_bonus
        after = _snapshot_match(match, a, b)
        if before == after:
            return match  # nothing to change (a double submit): nothing is logged
        if match.revision != expected_revision:
            raise MatchError(ERR_STALE, code="stale")
        names = {m.player_id: m.player.name for m in members}
        _removal_check(match, {"A": a, "B": b}, names)
        if before["boards"] != boards and Result.objects.filter(quarter__match=match).exists():
            raise MatchError(ERR_BOARDS_RECORDED)
        match.revision += 1
        match.save()
        if before["teams"]["A"]["players"] != after["teams"]["A"]["players"] or (
            before["teams"]["B"]["players"] != after["teams"]["B"]["players"]
        ):
            Member.objects.filter(match=match).delete()
            Member.objects.bulk_create(
                [
                    Member(match=match, team=team, player=p, order=i)
                    for team, players in (("A", a), ("B", b))
                    for i, p in enumerate(players)
                ]
            )
        log_action(match, EDITED, user=user, before=before, after=after)
    return match


def _side(quarter: Quarter | None, team: str, names: dict) -> dict | None:
    """What one team entered for a quarter (None: nothing yet)."""
    if quarter is None:
        return None
    attacker = quarter.a_attacker_id if team == "A" else quarter.b_attacker_id
    if attacker is None:
        return None
    results = [
        [r.board, r.contract, r.score, *([r.facts] if r.facts is not None else [])]
        for r in sorted(quarter.results.all(), key=lambda r: r.board)
        if r.team == team
    ]
    side = {"attacker_id": attacker, "attacker": names.get(attacker, ""), "results": results}
    if placing_team_of(quarter.number) == team:
        side["closed"] = quarter.closed
    return side


def _score(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MatchError(ERR_SCORE, params={"max": MAX_SCORE})
    if abs(value) > MAX_SCORE or value % 2:
        raise MatchError(ERR_SCORE, params={"max": MAX_SCORE})
    return value


def quarter_record(
    *,
    match: TeamMatch,
    number: int,
    team: str,
    attacker,
    results: Sequence[tuple[str, int | dict]],
    closed: str | None = None,
    user=None,
) -> Quarter:
    """One team's entry of one quarter, as its captain hands it in: the team's attacker, its
    attacker's contract and signed board score on each board of the quarter (in board
    order), and, from the team that places the players this quarter (A in 1 and 3, B in 2 and
    4), whose attacker plays in the closed room.

    Each board is `(contract, score)`, the board's signed score as the room's score sheet
    carries it (U of `fft.md`, p. 26), or `(contract, facts)`, the deal's facts (a dict, see
    `facts_score`) from which `scoring.fft` works the score out; the facts are kept, so a
    correction reopens them. An entered score must be even (every part of U is even from
    garde up, duplicate.md 2.5), which catches most slips of the pen.

    Entering the same thing again (a double submit) changes nothing and logs nothing;
    entering it differently replaces the team's side of the quarter, logged before/after.
    """
    _check_director(user)
    if isinstance(number, bool) or number not in QUARTERS:
        raise MatchError(ERR_QUARTER)
    if team not in TEAMS:
        raise MatchError(ERR_WHICH_TEAM)
    placing = placing_team_of(number)
    if team == placing:
        if closed not in TEAMS:
            raise MatchError(ERR_ROOMS)
    elif closed not in (None, ""):
        raise MatchError(
            ERR_ROOMS_NOT_YOURS, params={"number": number, "team": match.team_name(placing)}
        )
    results = list(results or [])
    boards = list(match.quarter_boards(number))
    if len(results) != len(boards):
        raise MatchError(ERR_RESULTS, params={"count": len(boards)})
    clean = []
    for board, entry in zip(boards, results, strict=True):
        try:
            contract, score = entry
        except (TypeError, ValueError):
            raise MatchError(ERR_RESULTS, params={"count": len(boards)}) from None
        if contract not in MatchContract.values:
            raise MatchError(ERR_CONTRACT)
        if isinstance(score, dict):
            value, facts = facts_score(board=board, contract=contract, facts=score)
            clean.append([board, contract, value, facts])
        else:
            clean.append([board, contract, _score(score)])
    attacker_pk = attacker.pk if isinstance(attacker, Player) else attacker
    if not isinstance(attacker_pk, int) or isinstance(attacker_pk, bool):
        raise MatchError(ERR_ATTACKER)
    with transaction.atomic():
        match = TeamMatch.objects.select_for_update().get(pk=match.pk)
        now = list(match.quarter_boards(number))
        if now != boards:  # corrected (`match_edit`) since the entry was checked above
            raise MatchError(ERR_BOARDS_CHANGED, params={"first": now[0], "last": now[-1]})
        members = {
            m.player_id: m.player for m in match.members.filter(team=team).select_related("player")
        }
        if attacker_pk not in members:
            raise MatchError(ERR_ATTACKER)
        field = "a_attacker_id" if team == "A" else "b_attacker_id"
        quarters = {q.number: q for q in match.quarters.prefetch_related("results")}
        for other in quarters.values():
            if other.number != number and getattr(other, field) == attacker_pk:
                raise MatchError(
                    ERR_ATTACKER_AGAIN,
                    params={"name": members[attacker_pk].name, "number": other.number},
                )
        quarter = quarters.get(number)
        names = {pk: p.name for pk, p in members.items()}
        before = _side(quarter, team, names)
        after = {"attacker_id": attacker_pk, "attacker": names[attacker_pk], "results": clean}
        if team == placing:
            after["closed"] = closed
        if before == after:
            return quarter  # a double submit: nothing changes, nothing is logged
        if quarter is None:
            quarter = Quarter.objects.create(match=match, number=number, placed_by=placing)
        setattr(quarter, field, attacker_pk)
        update = [field.removesuffix("_id")]
        if team == placing:
            quarter.closed = closed
            update.append("closed")
        quarter.save(update_fields=update)
        Result.objects.filter(quarter=quarter, team=team).delete()
        Result.objects.bulk_create(
            [
                Result(
                    quarter=quarter,
                    team=team,
                    board=row[0],
                    contract=row[1],
                    score=row[2],
                    facts=row[3] if len(row) > 3 else None,
                )
                for row in clean
            ]
        )
        log_action(
            match,
            QUARTER_RECORDED,
            user=user,
            before={"quarter": number, "team": team, **(before or {})},
            after={"quarter": number, "team": team, **after},
        )
    return quarter
