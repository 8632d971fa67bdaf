from django.db.models import QuerySet

from .models import Player


def player_list(*, active_only: bool = False, search: str = "") -> QuerySet[Player]:
    qs = Player.objects.all()
    if active_only:
        qs = qs.filter(active=True)
    search = (search or "").strip()
    if search:
        qs = qs.filter(name__icontains=search) | qs.filter(nickname__icontains=search)
    return qs.order_by("name")


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
