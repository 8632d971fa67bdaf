"""What a person reads about a game of Fool's Faith: challenge cards held, rounds won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarotclub.games.presenters import Cell, PlayerCard, Row, Summary, join_names
from tarotclub.games.replayed import pk_map


def summary(state, players, names) -> Summary:
    most = max(state.cards.values()) if state.cards else 0
    cards = []
    for p in players:
        held = state.cards[p.pk]
        css = "leader" if (held and held == most) or p.pk == state.winner else ""
        sub = ngettext("card", "cards", held)
        cards.append(PlayerCard(p.pk, p.label, str(held), sub, css))
    summary = Summary(cards=cards)
    if state.finished:
        summary.over = True
        summary.winner = state.winner
        summary.headline = _("Game over: %(winner)s won.") % {"winner": names[state.winner]}
        return summary
    n = len(state.history) + 1
    summary.lines.append(
        ngettext(
            "Round %(n)s: %(dealer)s deals. It is worth %(stake)s challenge card.",
            "Round %(n)s: %(dealer)s deals. It is worth %(stake)s challenge cards.",
            state.stake,
        )
        % {"n": n, "dealer": names[state.dealer], "stake": state.stake}
    )
    if state.stake >= 2:
        summary.lines.append(_("After the tie, whoever wins this round wins the game."))
    return summary


def rows(state, players, names) -> list[Row]:
    rows = []
    for r in state.history:
        if r.winner is not None:
            text = ngettext(
                "%(winner)s wins and takes %(n)s card.",
                "%(winner)s wins and takes %(n)s cards.",
                r.cards_won,
            ) % {"winner": names[r.winner], "n": r.cards_won}
        else:
            text = _("Tie: %(players)s. Nobody takes a card.") % {
                "players": join_names(r.tied, names)
            }
        cells = {}
        for p in players:
            held = r.cards[p.pk]
            cells[p.pk] = Cell(
                main=str(r.tricks[p.pk]),
                sub="★" * held,
                css="leader" if p.pk == r.winner else "",
            )
        rows.append(Row(r.number, names[r.dealer], text, cells))
    return rows


#: The counts a sentence of the phone's preview may take (a stake, the cards a round wins).
COUNTS = (1, 2)


def offline_words() -> dict:
    """The sentences of `rows` and `summary` the phone fills in (static/js/foolsfaith-score.js),
    each plural given for every count it may take ("other" for any further one)."""

    def forms(singular: str, plural: str) -> dict:
        out = {str(n): ngettext(singular, plural, n) for n in COUNTS}
        out["other"] = ngettext(singular, plural, 3)
        return out

    return {
        "wins": forms(
            "%(winner)s wins and takes %(n)s card.", "%(winner)s wins and takes %(n)s cards."
        ),
        "tie": _("Tie: %(players)s. Nobody takes a card."),
        "over": _("Game over: %(winner)s won."),
        "round": forms(
            "Round %(n)s: %(dealer)s deals. It is worth %(stake)s challenge card.",
            "Round %(n)s: %(dealer)s deals. It is worth %(stake)s challenge cards.",
        ),
    }


def describe(data: Any, names: Mapping[int, str]) -> str:
    """A stored round in words (for the change history); never raises."""
    try:
        tricks = pk_map(data.get("tricks", data))
        return _("tricks: %(list)s") % {
            "list": ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in tricks.items())
        }
    except (KeyError, TypeError, AttributeError, ValueError):
        return str(data)
