"""What a person reads about a game of Death's Pot: balances, the pot, who paid what."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring import deathspot
from tarotclub.games.presenters import Cell, PlayerCard, Row, Summary, number, signed
from tarotclub.games.replayed import pk_map

from .labels import HONOUR_LABELS, honour_name


def summary(state, players, names, *, finished: bool = False) -> Summary:
    """The balances, then who deals next and the pot; a finished game names no dealer and
    says what is left in the pot (nobody takes it)."""
    cards = []
    for p in players:
        balance = state.balances[p.pk]
        css = "pos" if balance > 0 else "neg" if balance < 0 else ""
        cards.append(PlayerCard(p.pk, p.label, signed(balance), _("balance"), css))
    summary = Summary(cards=cards)
    if finished:
        summary.lines.append(_("Left in the pot: %(pot)s") % {"pot": state.pot})
    else:
        summary.lines.append(
            _("Deal %(n)s: %(dealer)s deals (the deal passes to the right).")
            % {"n": len(state.history) + 1, "dealer": names[state.dealer]}
        )
        summary.lines.append(_("Pot: %(pot)s") % {"pot": state.pot})
    total = sum(state.balances.values()) + state.pot
    if total == 0:
        summary.lines.append(_("Balances and pot add up to 0 ✓"))
    else:  # pragma: no cover - the rules assert it
        summary.lines.append(_("Balances and pot do not add up to 0."))
    return summary


def _re_ante(stake: int) -> str:
    return _("Everybody pays in again (%(stake)s each).") % {"stake": stake}


def _say(message: str, **values) -> SafeString:
    """A translated sentence with its values (names wrapped whole) put in, escaped."""
    return mark_safe(
        conditional_escape(message) % {k: conditional_escape(v) for k, v in values.items()}
    )


def deal_text(r, names) -> SafeString:
    """The deal's payments in the order they happened, each time everybody paid in again
    included (a pot emptied by Death, an honour or the tricks), then the pot left.

    Each name is kept whole (`dp-name`): "Marie-Christine" never breaks at its hyphen."""

    def name(pk):
        return format_html('<span class="dp-name">{}</span>', names[pk])

    parts = []
    payments = list(r.payments)
    for i, pay in enumerate(payments):
        if pay.kind == deathspot.ANTE:
            # one line for the whole round of antes: at its first payment
            if i == 0 or payments[i - 1].kind != deathspot.ANTE:
                parts.append(_say(_re_ante(-pay.amount)))
        elif pay.kind == deathspot.DEATH:
            message = _("%(player)s shows Death and takes the pot (%(amount)s).")
            parts.append(_say(message, player=name(pay.player), amount=pay.amount))
        elif pay.kind == deathspot.TRICKS:
            message = _("%(player)s takes the pot with %(tricks)s tricks (%(amount)s).")
            if r.tied:  # house rule: the tied players share the pot
                message = _(
                    "%(player)s takes a share of the pot with %(tricks)s tricks (%(amount)s)."
                )
            parts.append(
                _say(
                    message,
                    player=name(pay.player),
                    tricks=r.tricks[pay.player],
                    amount=pay.amount,
                )
            )
        else:
            text = format_html(
                "{}: {} {}", honour_name(pay.kind), name(pay.player), signed(pay.amount)
            )
            if pay.capped:
                text = format_html("{} {}", text, _("(all the pot held)"))
            parts.append(text)
    if r.death is None and r.tricks_winner is None:
        tied = mark_safe(", ".join(str(name(pk)) for pk in r.tied))
        shared = any(pay.kind == deathspot.TRICKS for pay in payments)
        if shared:
            message = _("Tie for the most tricks: %(players)s share the pot.")
        else:
            message = _("Tie for the most tricks: %(players)s. The pot stays.")
        parts.append(_say(message, players=tied))
    parts.append(_say(_("Pot: %(pot)s"), pot=r.pot))
    return mark_safe(" · ".join(str(part) for part in parts))


def rows(state, players, names) -> list[Row]:
    rows = []
    previous = {p.pk: 0 for p in players}
    for pay in state.opening:
        previous[pay.player] += pay.amount
    for r in state.history:
        cells = {}
        for p in players:
            change = r.balances[p.pk] - previous[p.pk]
            css = "pos" if change > 0 else "neg" if change < 0 else ""
            cells[p.pk] = Cell(signed(change), number(r.balances[p.pk]), css)
        previous = dict(r.balances)
        rows.append(Row(r.number, names[r.dealer], deal_text(r, names), cells))
    return rows


def offline_words() -> dict:
    """The sentences of a deal's row and of the next deal the phone fills in
    (static/js/deathspot-score.js)."""
    from tarotclub.games.forms import ERR_CHOICE

    return {
        "re_ante": _("Everybody pays in again (%(stake)s each)."),
        "death": _("%(player)s shows Death and takes the pot (%(amount)s)."),
        "tricks": _("%(player)s takes the pot with %(tricks)s tricks (%(amount)s)."),
        "tricks_share": _(
            "%(player)s takes a share of the pot with %(tricks)s tricks (%(amount)s)."
        ),
        "honours": {kind: honour_name(kind) for kind in HONOUR_LABELS},
        "capped": _("(all the pot held)"),
        "tie": _("Tie for the most tricks: %(players)s. The pot stays."),
        "tie_shared": _("Tie for the most tricks: %(players)s share the pot."),
        "pot": _("Pot: %(pot)s"),
        "next_deal": _("Deal %(n)s: %(dealer)s deals (the deal passes to the right)."),
        "choice": str(ERR_CHOICE),
    }


def describe(data: Any, names: Mapping[int, str]) -> str:
    """A stored deal in words (for the change history); never raises."""
    try:
        d = data
        if d.get("death") is not None:
            return _("Death: %(player)s") % {"player": names.get(d["death"], "?")}
        parts = [
            f"{honour_name(k)}: {names.get(d[k], '?')}"
            for k in HONOUR_LABELS
            if d.get(k) is not None
        ]
        tricks = ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in pk_map(d["tricks"]).items())
        parts.append(_("tricks: %(list)s") % {"list": tricks})
        return " · ".join(parts)
    except (KeyError, TypeError, AttributeError, ValueError):
        return str(data)
