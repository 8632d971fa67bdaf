from django.db.models import Q, QuerySet

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
