from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db.models import Prefetch, Q, QuerySet

from .models import LOOK_ALIKE_MARK, Player, name_key

__all__ = [
    "look_alikes",
    "name_key",
    "player_list",
    "players_matching",
    "roster",
    "short_labels",
]


def roster() -> QuerySet[Player]:
    """The active roster: active members. A guest (`Player.guest`, added at a table or a
    tournament) is not on it until a director makes them a member (untick "guest" on the
    player's page); an inactive player (`active=False`) is not on it either."""
    return Player.objects.filter(active=True, guest=False)


def players_matching(query: str, queryset: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """Players whose name or nickname holds `query`, without case, accents or hidden characters
    ("elo" finds "Élodie", "pena" finds "Peña"); nobody for a query with nothing to look for.

    Search with this, or compare `name_key(...)`s, never the raw names: SQLite's LIKE and
    LOWER() only fold ASCII.
    """
    qs = Player.objects.all() if queryset is None else queryset
    needle = name_key(query)
    if not needle:
        return qs.none()
    return qs.filter(Q(name_key__contains=needle) | Q(nickname_key__contains=needle))


def player_list(*, active_only: bool = False, search: str = "") -> QuerySet[Player]:
    qs = Player.objects.all()
    if active_only:
        qs = qs.filter(active=True)
    if name_key(search):
        qs = players_matching(search, qs)
    return qs.order_by("name_key", "pk")


def look_alikes() -> QuerySet[Player]:
    """Players whose name looked like an earlier player's when keys were first computed."""
    return Player.objects.filter(name_key__contains=LOOK_ALIKE_MARK).order_by("name_key")


def short_labels(players) -> dict[int, str]:
    """Short names for narrow columns: nickname, else first name, made unique at this table.

    "Claire Martin" → "Claire"; two Claires become "Claire M." and "Claire D."; when even
    that clashes, the full names.
    """
    players = list(players)

    def first(p) -> str:
        return p.nickname or p.name.split()[0]

    def initial(p) -> str:
        rest = p.name.split()[1:]
        return f"{first(p)} {rest[-1][0]}." if rest and not p.nickname else p.name

    labels = {p.pk: first(p) for p in players}
    for step in (initial, lambda p: p.name):
        seen: dict[str, int] = {}
        for label in labels.values():
            seen[label.lower()] = seen.get(label.lower(), 0) + 1
        clashing = [p for p in players if seen[labels[p.pk].lower()] > 1]
        if not clashing:
            break
        for p in clashing:
            labels[p.pk] = step(p)
    return labels


# --- a player's page -------------------------------------------------------------------------


def _game_days(player: Player, *, date_from=None, date_to=None) -> dict[int, tuple]:
    """The player's games that count (not archived, within the dates): game pk →
    (the evening it was played on, whether its dealer sits out)."""
    from django.utils import timezone

    from tarotclub.games.models import Game

    qs = Game.objects.filter(seats__player=player, archived_at__isnull=True)
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    return {
        pk: (timezone.localtime(at).date(), sits_out)
        for pk, at, sits_out in qs.values_list("pk", "created_at", "dealer_sits_out")
    }


def tarot_rows(player: Player, *, date_from=None, date_to=None) -> list:
    """Every French Tarot deal `player` played (archived games left out), in the order played,
    as compact `stats.DealRow`s: two queries whatever the number of deals (the games, then
    the deals). A deal's day is its game's: the evening it was played, even past midnight.
    A dealer sitting out a deal (tables of five in a four-player event) did not play it."""
    from django.db.models import Count, OuterRef, Subquery

    from tarotclub.kinds.tarot.models import DealLine

    from . import stats

    games = _game_days(player, date_from=date_from, date_to=date_to)
    if not games:
        return []
    lines = DealLine.objects.filter(deal=OuterRef("deal_id")).values("deal_id")
    qs = DealLine.objects.filter(player=player, deal__game__archived_at__isnull=True)
    if date_from or date_to:
        qs = qs.filter(deal__game__in=list(games))
    values = (
        qs.annotate(size=Subquery(lines.annotate(n=Count("pk")).values("n")[:1]))
        .order_by("deal__game__created_at", "deal__game_id", "deal__number")
        .values_list(
            "deal_id",
            "deal__game_id",
            "deal__number",
            "size",
            "deal__dealer_id",
            "deal__taker_id",
            "deal__partner_id",
            "deal__contract",
            "deal__won",
            "score",
            "deal__petit_au_bout",
            "deal__poignees",
            "deal__chelem",
        )
    )
    rows = []
    pk = player.pk
    for (
        deal,
        game,
        number,
        size,
        dealer,
        taker,
        partner,
        contract,
        won,
        score,
        petit,
        poignees,
        chelem,
    ) in values:
        day, sits_out = games[game]
        if sits_out:
            if dealer == pk:
                continue
            size -= 1
        rows.append(
            stats.DealRow(
                deal=deal,
                game=game,
                number=number,
                day=day,
                size=size,
                role=stats.role_of(pk, taker=taker, partner=partner),
                contract=contract,
                won=won,
                score=score,
                petit_au_bout=petit or "",
                poignees=stats.declared(poignees, pk),
                chelem=chelem or "none",
            )
        )
    return rows


@dataclass
class GameLine:
    """A game the player sat at, with their result: total (where the kind keeps one) and
    place at the table (1 = best; ties share the place)."""

    game: object
    kind: object
    players: int
    total: int | None
    place: int | None
    won: bool
    over: bool


@dataclass
class TournamentLine:
    tournament: object
    place: int
    tied: bool
    entrants: int
    total: int
    played: int
    average: Fraction | None
    # a duplicate tournament: the player's overall % (their place is in the alternating
    # ranking, the one that counts); None for free deals
    overall: Fraction | None = None
    # a quadrette tournament: the team's final match points (its place is by them)
    pm: Decimal | None = None


@dataclass
class KindFigures:
    """A kind's figures for one player: games played and won, in all and month by month."""

    kind: object
    games: int = 0
    won: int = 0
    total: int | None = None
    months: dict = field(default_factory=dict)  # "2026-11" → [games, won]

    @property
    def rate(self) -> Fraction | None:
        return Fraction(self.won, self.games) if self.games else None


def _place(totals: dict[int, int], pk: int) -> int | None:
    if pk not in totals:
        return None
    return 1 + sum(1 for v in totals.values() if v > totals[pk])


def player_games(player: Player, *, date_from=None, date_to=None) -> list[GameLine]:
    """Every casual game the player sat at, newest first, with their result: a constant
    number of queries (the games with seats and records, then each kind's totals).

    A tournament's tables are not listed: the tournament is, with the player's place (a
    table's share link is for its players and the director only, never on a member's page).
    Their deals count in the statistics all the same."""
    from tarotclub.games import kinds
    from tarotclub.games.models import Game, Record
    from tarotclub.games.replayed import ReplayedKind
    from tarotclub.games.selectors import game_with_seats

    qs = game_with_seats(
        Game.objects.filter(
            seats__player=player, archived_at__isnull=True, tournament_table__isnull=True
        )
    ).prefetch_related(Prefetch("records", queryset=Record.objects.order_by("number")))
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    games = list(qs.order_by("-created_at", "-pk"))
    by_kind: dict[str, list] = {}
    for g in games:
        by_kind.setdefault(g.kind, []).append(g)
    results = {}
    for identifier, group in by_kind.items():
        kind = kinds.get(identifier)
        if isinstance(kind, ReplayedKind):  # replayed once: kept for `kind_played`
            for g in group:
                g.replayed = kind.load(g, g.records.all())
            results.update(kind.list_results_of([g.replayed for g in group]))
        elif kind is not None:
            results.update(kind.list_results(group))
    lines = []
    for g in games:
        result = results.get(g.pk)
        totals = (result.totals if result else None) or {}
        leaders = result.leaders if result else ()
        lines.append(
            GameLine(
                game=g,
                kind=kinds.get(g.kind),
                players=len(g.seats.all()),
                total=totals.get(player.pk) if totals else None,
                place=_place(totals, player.pk) if totals else None,
                won=player.pk in leaders,
                over=bool(result and result.over),
            )
        )
    return lines


def kind_figures(lines: list[GameLine]) -> list[KindFigures]:
    """Per kind: the games played and won (a won game is a finished one the player leads)."""
    figures: dict[str, KindFigures] = {}
    for line in reversed(lines):  # oldest first, so the months come in order
        if line.kind is None:
            continue
        f = figures.setdefault(line.kind.identifier, KindFigures(line.kind))
        f.games += 1
        won = line.over and line.won
        f.won += won
        if line.total is not None:
            f.total = (f.total or 0) + line.total
        month = f.months.setdefault(line.game.created_at.strftime("%Y-%m"), [0, 0])
        month[0] += 1
        month[1] += won
    return list(figures.values())


def player_tournaments(player: Player, *, date_from=None, date_to=None) -> list[TournamentLine]:
    """The tournaments the player entered, newest first, with their place: four queries."""
    from tarotclub.tournaments import quadrette, triplette
    from tarotclub.tournaments.duplicate import graded_many
    from tarotclub.tournaments.models import Tournament
    from tarotclub.tournaments.selectors import standings_of

    qs = Tournament.objects.filter(entries__player=player)
    if date_from:
        qs = qs.filter(date__gte=date_from)
    if date_to:
        qs = qs.filter(date__lte=date_to)
    tournaments = list(qs.distinct().order_by("-date", "-pk"))
    if not tournaments:
        return []
    lines = []
    duplicates = graded_many(tournaments)
    teams = triplette.graded_many(tournaments)
    quadrettes = quadrette.graded_many(tournaments)
    results = standings_of(
        [t for t in tournaments if not t.duplicate and not t.triplette and not t.quadrette]
    )
    for t in tournaments:
        if t.duplicate:
            lines.append(_duplicate_line(t, duplicates.get(t.pk), player))
            continue
        if t.triplette:
            lines.append(_triplette_line(t, teams.get(t.pk), player))
            continue
        if t.quadrette:
            lines.append(_quadrette_line(t, quadrettes.get(t.pk), player))
            continue
        result = results[t.pk]
        row = next(r for r in result.rows if r.player.pk == player.pk)
        lines.append(
            TournamentLine(
                tournament=t,
                place=row.rank,
                tied=row.tied,
                entrants=len(result.rows),
                total=row.total,
                played=row.played,
                average=row.average,
            )
        )
    return lines


def _duplicate_line(t, g, player: Player) -> TournamentLine:
    """A duplicate tournament's line: the player's place in the alternating ranking and
    overall %, once a board they played is graded."""
    seat = next((s for s, e in (g.entries.items() if g else ()) if e.player_id == player.pk), None)
    record = g.session.records.get(seat) if seat is not None else None
    if record is None or record.overall is None:
        return TournamentLine(t, 0, False, len(g.entries) if g else 0, 0, 0, None)
    ranked = [p for p in g.session.alternating if g.session.records[p].overall is not None]
    return TournamentLine(
        tournament=t,
        place=ranked.index(seat) + 1,
        tied=False,  # the alternating ranking breaks every tie (duplicate.md 1.9)
        entrants=len(ranked),
        total=0,
        played=len(record.took) + len(record.defended),
        average=None,
        overall=record.overall,
    )


def _triplette_line(t, g, player: Player) -> TournamentLine:
    """A triplette tournament's line: the player's team's place in the alternating ranking
    (the one that counts, duplicate.md 2.2) and its overall %, once a board is graded."""
    from tarotclub.tournaments.triplette import team_of

    key = team_of(g, player.pk) if g is not None else None
    ranked = list(g.results.alternating) if g is not None else []
    if key is None or key not in ranked:
        return TournamentLine(t, 0, False, len(ranked), 0, 0, None)
    return TournamentLine(
        tournament=t,
        place=ranked.index(key) + 1,
        tied=False,
        entrants=len(ranked),
        total=0,
        played=len(g.results.boards.get(key, [])),
        average=None,
        overall=g.results.overall.get(key),
    )


def _quadrette_line(t, g, player: Player) -> TournamentLine:
    """A quadrette tournament's line: the player's team's place by final match points
    (equal totals share it, duplicate.md 2.3) and those points, once a board counts."""
    from scoring.quadrette import ranking as quadrette_ranking
    from tarotclub.tournaments.quadrette import team_of

    number = team_of(g, player.pk) if g is not None else None
    if number is None:
        return TournamentLine(t, 0, False, len(g.teams) if g else 0, 0, 0, None)
    boards = len(g.team_boards(number))
    place = next(p for p, n in quadrette_ranking(g.totals) if n == number)
    tied = sum(1 for v in g.totals.values() if v == g.totals[number]) > 1
    return TournamentLine(
        tournament=t,
        place=place if boards else 0,
        tied=tied,
        entrants=len(g.totals),
        total=0,
        played=boards,
        average=None,
        pm=g.totals[number],
    )


# --- the other games: each game replayed once, as its kind's standings replay it -------------


def replayed_kinds() -> list:
    """The kinds kept as replayed records (every kind but French Tarot), in their order."""
    from tarotclub.games import kinds
    from tarotclub.games.replayed import ReplayedKind

    return [k for k in kinds.all_kinds() if isinstance(k, ReplayedKind)]


def kind_played(games) -> list[tuple[object, list]]:
    """(kind, [Played, oldest first]) for each replayed kind among `games` (read with their
    seats and records): one query more per kind whose standings prefetch something (Fool's
    Faith's challenge cards), whatever the number of games. A game whose records no longer
    replay is left out, as the standings leave it out. A game `player_games` read comes
    replayed already (`game.replayed`) and is not replayed again."""
    from django.db.models import prefetch_related_objects

    out = []
    for kind in replayed_kinds():
        group = sorted(
            (g for g in games if g.kind == kind.identifier), key=lambda g: (g.created_at, g.pk)
        )
        if not group:
            continue
        extra = kind.standings_prefetch()
        if extra:
            prefetch_related_objects(group, *extra)
        played = [getattr(g, "replayed", None) or kind.load(g, g.records.all()) for g in group]
        out.append((kind, [p for p in played if p.state is not None]))
    return out


def shared_games(player: Player, other: Player, *, date_from=None, date_to=None) -> list:
    """The casual games of the replayed kinds where both players sat at the table (archived
    games left out, as the standings leave them out), started within the dates (both
    optional, inclusive), with seats and records: three queries."""
    from tarotclub.games.models import Game, Record
    from tarotclub.games.selectors import game_with_seats

    qs = (
        Game.objects.filter(
            kind__in=[k.identifier for k in replayed_kinds()],
            archived_at__isnull=True,
            tournament_table__isnull=True,
            seats__player=player,
        )
        .filter(seats__player=other)
        .distinct()
    )
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    qs = game_with_seats(qs).prefetch_related(
        Prefetch("records", queryset=Record.objects.order_by("number"))
    )
    return list(qs.order_by("created_at", "pk"))
