"""What a person reads about a game of the other kinds: built from the scoring modules' states.

`summary()` gives the state on top of the sheet (per player, and a few lines: what the next
round is worth, the pot, who rests…); `rows()` the history, one row per record; `describe()`
one stored record in words (for the change history).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import deathspot

from . import rules
from .forms import HONOUR_LABELS, SUIT_SYMBOLS, rank_label


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def number(value: int) -> str:
    """-3 → '−3' (a real minus sign, like `signed`, but no plus)."""
    return f"−{-value}" if value < 0 else str(value)


def join_names(pks: Sequence, names: Mapping) -> str:
    return ", ".join(names.get(pk, "?") for pk in pks)


@dataclass
class PlayerCard:
    """One player's box on top of the sheet."""

    pk: int
    label: str
    value: str
    sub: str = ""
    css: str = ""


@dataclass
class Summary:
    cards: list[PlayerCard]
    lines: list[str] = field(default_factory=list)
    over: bool = False
    headline: str = ""  # "Game over: Anne won." when the game is over
    winner: int | None = None


@dataclass
class Cell:
    main: str
    sub: str = ""
    css: str = ""


@dataclass
class Row:
    number: int
    dealer: str
    summary: str
    cells: dict[int, Cell]


# --- Fool's Faith ------------------------------------------------------------------------------


def _ff_summary(state, players, names) -> Summary:
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


def _ff_rows(state, players, names) -> list[Row]:
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


# --- Death's Pot -------------------------------------------------------------------------------


def _dp_summary(state, players, names) -> Summary:
    cards = []
    for p in players:
        balance = state.balances[p.pk]
        css = "pos" if balance > 0 else "neg" if balance < 0 else ""
        cards.append(PlayerCard(p.pk, p.label, signed(balance), _("balance"), css))
    summary = Summary(cards=cards)
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


def _dp_text(r, names) -> str:
    parts = []
    if r.death is not None:
        won = sum(p.amount for p in r.payments if p.kind == deathspot.DEATH)
        parts.append(
            _("%(player)s shows Death and takes the pot (%(amount)s).")
            % {"player": names[r.death], "amount": won}
        )
    else:
        for kind, _value in deathspot.HONOURS:
            for pay in r.payments:
                if pay.kind == kind:
                    label = str(HONOUR_LABELS[kind]).split(" (")[0]
                    text = f"{label}: {names[pay.player]} {signed(pay.amount)}"
                    if pay.capped:
                        text += " " + _("(all the pot held)")
                    parts.append(text)
        if r.tricks_winner is not None:
            won = sum(p.amount for p in r.payments if p.kind == deathspot.TRICKS)
            parts.append(
                _("%(player)s takes the pot with %(tricks)s tricks (%(amount)s).")
                % {
                    "player": names[r.tricks_winner],
                    "tricks": r.tricks[r.tricks_winner],
                    "amount": won,
                }
            )
        else:
            parts.append(
                _("Tie for the most tricks: %(players)s. The pot stays.")
                % {"players": join_names(r.tied, names)}
            )
    parts.append(_("Pot: %(pot)s") % {"pot": r.pot})
    return " · ".join(parts)


def _dp_rows(state, players, names) -> list[Row]:
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
        rows.append(Row(r.number, names[r.dealer], _dp_text(r, names), cells))
    return rows


# --- Keys of the Kingdom -----------------------------------------------------------------------


def _keys_summary(state, players, names) -> Summary:
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


def _keys_rows(state, players, names) -> list[Row]:
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


# --- Cuckoo ------------------------------------------------------------------------------------


def hearts(lives: int, starting: int) -> str:
    return "♥" * lives + "♡" * max(0, starting - lives)


def _cuckoo_summary(state, players, names) -> Summary:
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


def _cuckoo_text(r, names) -> str:
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


def _cuckoo_rows(state, players, names) -> list[Row]:
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
        rows.append(Row(r.number, names[r.dealer], _cuckoo_text(r, names), cells))
    return rows


SUMMARIES = {
    rules.FOOLS_FAITH: _ff_summary,
    rules.DEATHS_POT: _dp_summary,
    rules.KEYS: _keys_summary,
    rules.CUCKOO: _cuckoo_summary,
}
ROWS = {
    rules.FOOLS_FAITH: _ff_rows,
    rules.DEATHS_POT: _dp_rows,
    rules.KEYS: _keys_rows,
    rules.CUCKOO: _cuckoo_rows,
}


def summary(kind: str, state, players) -> Summary:
    names = {p.pk: p.label for p in players}
    return SUMMARIES[kind](state, players, names)


def rows(kind: str, state, players) -> list[Row]:
    names = {p.pk: p.label for p in players}
    return ROWS[kind](state, players, names)


# --- one stored record in words ----------------------------------------------------------------


def describe(kind: str, data: Any, names: Mapping[int, str]) -> str:
    """A stored record as a line of text (for the change history); never raises."""
    try:
        d = rules.from_json(kind, data)
        if kind == rules.FOOLS_FAITH:
            return _("tricks: %(list)s") % {
                "list": ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in d.items())
            }
        if kind == rules.DEATHS_POT:
            if d.get("death") is not None:
                return _("Death: %(player)s") % {"player": names.get(d["death"], "?")}
            parts = [
                f"{str(HONOUR_LABELS[k]).split(' (')[0]}: {names.get(d[k], '?')}"
                for k in HONOUR_LABELS
                if d.get(k) is not None
            ]
            tricks = ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in d["tricks"].items())
            parts.append(_("tricks: %(list)s") % {"list": tricks})
            return " · ".join(parts)
        if kind == rules.KEYS:
            suits = ", ".join(
                f"{names.get(pk, '?')} {SUIT_SYMBOLS.get(s, s)}" for pk, s in d["suits"].items()
            )
            held = ", ".join(f"{names.get(pk, '?')} {n}" for pk, n in d["keys"].items())
            return _("winner %(winner)s · suits: %(suits)s · keys: %(keys)s") % {
                "winner": names.get(d["winner"], "?"),
                "suits": suits,
                "keys": held,
            }
        if kind == rules.CUCKOO:
            cards = ", ".join(
                f"{names.get(pk, '?')} {rank_label(r)}" for pk, r in d.get("cards", {}).items()
            )
            text = _("cards: %(list)s") % {"list": cards or "—"}
            swaps = d.get("swap_losses") or {}
            if swaps:
                text += " · " + _("swaps: %(losses)s") % {
                    "losses": ", ".join(f"{names.get(pk, '?')} −{n}" for pk, n in swaps.items())
                }
            return text
    except (KeyError, TypeError, AttributeError, ValueError):
        pass
    return str(data)


def html_cell(cell: Cell):
    template = '<span class="{}">{}</span><br><small class="muted">{}</small>'
    return format_html(template, cell.css, cell.main, cell.sub)
