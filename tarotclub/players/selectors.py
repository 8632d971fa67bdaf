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

    "Claire Martin" → "Claire"; two Claires become "Claire M." and "Claire D.".
    """
    first = {p.pk: p.nickname or p.name.split()[0] for p in players}
    counts: dict[str, int] = {}
    for label in first.values():
        counts[label.lower()] = counts.get(label.lower(), 0) + 1
    labels = {}
    for p in players:
        label = first[p.pk]
        if counts[label.lower()] > 1 and not p.nickname:
            rest = p.name.split()[1:]
            label = f"{label} {rest[-1][0]}." if rest else p.name
        labels[p.pk] = label
    return labels
