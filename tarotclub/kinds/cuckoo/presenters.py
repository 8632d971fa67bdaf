"""What a person reads about a Cuckoo match: lives as hearts, who rests, who is out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarotclub.games.presenters import Cell, PlayerCard, Row, Summary, join_names
from tarotclub.games.replayed import pk_map

from .labels import rank_label


def hearts(lives: int, starting: int) -> str:
    return "♥" * lives + "♡" * max(0, starting - lives)


def summary(state, players, names) -> Summary:
    cards = []
    for p in players:
        lives = state.lives[p.pk]
        if lives == 0:
            sub, css = _("out"), "out"
        elif p.pk in state.resting:
            sub, css = _("rests"), "rest"
        elif state.winner == p.pk:
            sub, css = _("winner"), "leader"
        elif p.pk == state.dealer:
            sub, css = _("deals"), ""
        else:
            sub, css = ngettext("%(n)s life", "%(n)s lives", lives) % {"n": lives}, ""
        cards.append(PlayerCard(p.pk, p.label, hearts(lives, state.starting_lives), sub, css))
    summary = Summary(cards=cards)
    if state.finished:
        summary.over = True
        if state.draw:
            last = state.history[-1].out if state.history else ()
            summary.headline = _(
                "Game over: a draw. %(players)s lost their last lives together."
            ) % {"players": join_names(last, names)}
        else:
            summary.winner = state.winner
            summary.headline = _("Game over: %(winner)s won.") % {"winner": names[state.winner]}
        return summary
    summary.lines.append(
        _("Deal %(n)s: %(dealer)s deals.")
        % {"n": len(state.history) + 1, "dealer": names[state.dealer]}
    )
    if state.resting:
        summary.lines.append(
            _("Resting this deal (held a Fool): %(players)s.")
            % {"players": join_names(state.resting, names)}
        )
    if state.out:
        summary.lines.append(_("Out: %(players)s.") % {"players": join_names(state.out, names)})
    if len(state.taking_part) < 2:
        summary.lines.append(
            _("Fewer than two players get a card: this deal is skipped, nobody loses a life.")
        )
    return summary


def deal_text(r, names) -> str:
    if r.skipped:
        parts = [_("Skipped: fewer than two players to compare.")]
    else:
        parts = []
        if r.fools:
            parts.append(_("Fool: %(players)s") % {"players": join_names(r.fools, names)})
        parts.append(_("a life lost: %(players)s") % {"players": join_names(r.losers, names)})
    if r.swap_losses:
        swaps = ", ".join(f"{names[pk]} −{n}" for pk, n in r.swap_losses.items())
        parts.insert(0, _("swaps: %(losses)s") % {"losses": swaps})
    if r.out:
        parts.append(_("out: %(players)s") % {"players": join_names(r.out, names)})
    if r.resting:
        parts.append(_("rests next: %(players)s") % {"players": join_names(r.resting, names)})
    return " · ".join(parts)


def rows(state, players, names) -> list[Row]:
    rows = []
    lives_before = {p.pk: state.starting_lives for p in players}
    for r in state.history:
        cells = {}
        for p in players:
            lives = r.lives[p.pk]
            lost = lives_before[p.pk] - lives
            if p.pk in r.cards:
                main = rank_label(r.cards[p.pk])
            elif lives_before[p.pk] == 0:
                main = "—"
            else:
                main = _("rests")
            sub = f"♥{lives}" if lives else _("out")
            css = "neg" if lost else ""
            cells[p.pk] = Cell(main, sub, css)
        lives_before = dict(r.lives)
        rows.append(Row(r.number, names[r.dealer], deal_text(r, names), cells))
    return rows


def offline_words() -> dict:
    """The sentences of a deal's row, of the match's end and of the next deal, and the entry
    form's, that the phone fills in (static/js/cuckoo-score.js)."""
    return {
        "skipped": _("Skipped: fewer than two players to compare."),
        "fool": _("Fool: %(players)s"),
        "lost": _("a life lost: %(players)s"),
        "swaps": _("swaps: %(losses)s"),
        "out": _("out: %(players)s"),
        "rests": _("rests next: %(players)s"),
        "draw": _("Game over: a draw. %(players)s lost their last lives together."),
        "over": _("Game over: %(winner)s won."),
        "next_deal": _("Deal %(n)s: %(dealer)s deals."),
        "card_required": _("Which card did %(name)s end with?"),
        "card_choice": _("Choose a card from the list."),
    }


def describe(data: Any, names: Mapping[int, str]) -> str:
    """A stored deal in words (for the change history); never raises."""
    try:
        d = data if isinstance(data, Mapping) else {}
        cards = ", ".join(
            f"{names.get(pk, '?')} {rank_label(r)}" for pk, r in pk_map(d.get("cards", {})).items()
        )
        text = _("cards: %(list)s") % {"list": cards or "—"}
        swaps = pk_map(d.get("swap_losses") or {})
        if swaps:
            text += " · " + _("swaps: %(losses)s") % {
                "losses": ", ".join(f"{names.get(pk, '?')} −{n}" for pk, n in swaps.items())
            }
        return text
    except (KeyError, TypeError, AttributeError, ValueError):
        return str(data)
