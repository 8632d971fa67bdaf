"""What a person reads about a session of Keys of the Kingdom: games won, keys held."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarotclub.games.presenters import Cell, PlayerCard, Row, Summary
from tarotclub.games.replayed import pk_map

from .labels import SUIT_SYMBOLS


def summary(state, players, names) -> Summary:
    won = {p.pk: 0 for p in players}
    for g in state.games:
        won[g.winner] = won.get(g.winner, 0) + 1
    best = max(won.values()) if state.games else None
    cards = [
        PlayerCard(
            p.pk,
            p.label,
            str(won[p.pk]),
            ngettext("game won", "games won", won[p.pk]),
            "leader" if state.games and won[p.pk] == best else "",
        )
        for p in players
    ]
    summary = Summary(cards=cards)
    summary.lines.append(
        ngettext("%(n)s game played.", "%(n)s games played.", len(state.games))
        % {"n": len(state.games)}
    )
    return summary


def rows(state, players, names) -> list[Row]:
    rows = []
    for number, g in enumerate(state.games, start=1):
        text = _("%(winner)s wins with %(suit)s.") % {
            "winner": names.get(g.winner, "?"),
            "suit": SUIT_SYMBOLS[g.suits[g.winner]],
        }
        cells = {}
        for p in players:
            if p.pk not in g.suits:
                cells[p.pk] = Cell("—")
                continue
            held = 5 if p.pk == g.winner else g.keys.get(p.pk, 0)
            sub = SUIT_SYMBOLS[g.suits[p.pk]]
            if p.pk in g.guards:
                sub += " · " + ngettext("%(n)s guard", "%(n)s guards", g.guards[p.pk]) % {
                    "n": g.guards[p.pk]
                }
            main = f"{held} + E" if p.pk == g.winner else str(held)
            cells[p.pk] = Cell(main, sub, "leader" if p.pk == g.winner else "")
        rows.append(Row(number, "", text, cells))
    return rows


def offline_words() -> dict:
    """The sentences of a game's row and of the entry form the phone fills in
    (static/js/keys-score.js)."""
    from tarotclub.games.forms import ERR_CHOICE

    return {
        "wins": _("%(winner)s wins with %(suit)s."),
        "suit_required": _("Which suit did %(name)s play?"),
        "winner_required": _("Who won? Tap the winner."),
        "choice": str(ERR_CHOICE),
    }


def describe(data: Any, names: Mapping[int, str]) -> str:
    """A stored game in words (for the change history); never raises."""
    try:
        suits = ", ".join(
            f"{names.get(pk, '?')} {SUIT_SYMBOLS.get(s, s)}"
            for pk, s in pk_map(data["suits"]).items()
        )
        held = ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in pk_map(data["keys"]).items())
        winner = data["winner"]
        if isinstance(winner, str) and winner.isascii() and winner.isdigit():
            winner = int(winner)
        return _("winner %(winner)s · suits: %(suits)s · keys: %(keys)s") % {
            "winner": names.get(winner, "?"),
            "suits": suits,
            "keys": held,
        }
    except (KeyError, TypeError, AttributeError, ValueError):
        return str(data)
