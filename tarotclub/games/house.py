"""House rules: what a club may switch on, per club (its defaults), per game and per tournament.

The rules themselves are each game's explicit options object in `scoring` (``Rules``, whose
default ``DEFAULT_RULES`` is the rules as written: the federation's for French Tarot). Here is
only where they are kept and read:

- the club's defaults, one `models.ClubRules` row per kind (no row: the rules as written);
- a game's own copy, in ``Game.options["house"]``, taken when the game starts (a tournament's
  tables take the tournament's copy), so changing the club's defaults never rewrites a past
  game. A game without that key is played by the rules as written.

Writes are services (`services.club_rules_set`, `services.game_set_house_rules`); the words
a sheet shows come from each kind (`Kind.house_rules_lines`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from scoring import RuleError

from . import kinds
from .models import ClubRules, Game

#: The key of a game's options that holds its house rules.
OPTION = "house"


def rules_class(kind_id: str):
    """The kind's house rules class (``scoring.<kind>.Rules``), or None when it has none."""
    kind = kinds.get(kind_id)
    return getattr(getattr(kind, "rules", None), "Rules", None)


def read(kind_id: str, data: Any):
    """Stored house rules as the kind's ``Rules`` (the rules as written when absent or, for
    data that no longer reads, refused: never a 500); None for a kind without house rules."""
    cls = rules_class(kind_id)
    if cls is None:
        return None
    try:
        return cls.from_dict(data if isinstance(data, Mapping) else None)
    except (RuleError, TypeError):
        return cls()


def of_game(game: Game):
    """The rules this game is played by (its own copy)."""
    return read(game.kind, (game.options or {}).get(OPTION))


def club_defaults(kind_id: str):
    """The club's house rules for a kind (one query), as the kind's ``Rules``."""
    if rules_class(kind_id) is None:
        return None
    row = ClubRules.objects.filter(kind=kind_id).values_list("rules", flat=True).first()
    return read(kind_id, row)


def club_defaults_all() -> dict[str, Any]:
    """Every kind's club defaults: {kind: Rules} (one query)."""
    stored = dict(ClubRules.objects.values_list("kind", "rules"))
    return {
        k.identifier: read(k.identifier, stored.get(k.identifier))
        for k in kinds.all_kinds()
        if rules_class(k.identifier) is not None
    }


def stored(rules) -> dict:
    """Rules as a game keeps them: {} for the rules as written, else every field."""
    if rules is None or rules.is_default:
        return {}
    return rules.as_dict()


def lines(kind_id: str, rules) -> list[str]:
    """The house rules in words, one short phrase each; [] for the rules as written."""
    kind = kinds.get(kind_id)
    if kind is None or rules is None or rules.is_default:
        return []
    return [str(line) for line in kind.house_rules_lines(rules)]


def line(kind_id: str, rules) -> str:
    """ "House rules: …" for a sheet or a printout; "" when the rules as written apply."""
    phrases = lines(kind_id, rules)
    if not phrases:
        return ""
    return gettext("House rules: %(rules)s") % {"rules": "; ".join(phrases)}


def game_line(game: Game) -> str:
    return line(game.kind, of_game(game))
