"""Words and numbers a person reads to check a deal: built from `scoring.fft.DealScore`."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.fft import format_points
from tarotclub.games.presenters import signed

from .labels import CHELEM_LABELS, CONTRACT_LABELS, MISERE_LABELS, POIGNEE_LABELS, SIDE_LABELS


def result_text(won: bool, gap: int) -> str:
    """ "won by 8", "lost by 3": a deal's result as every sheet and export says it."""
    return (_("won by %(gap)s") if won else _("lost by %(gap)s")) % {"gap": gap}


@dataclass
class Breakdown:
    headline: str  # garde, 2 bouts, 49 points: won by 8
    formula: str  # (25 + 8) × 2 + petit au bout 20 + poignée 20 = 106 per defender
    shares: str  # each defender pays 106, the taker receives 318
    won: bool
    #: each player's score, in seat order: (short name, full name, "+318", "pos" | "neg" | "")
    scores: list[tuple[str, str, str, str]] = field(default_factory=list)


def breakdown(result, names: dict, *, short: dict | None = None, full: dict | None = None):
    """Explain a DealScore in the current language. `names`: player key → display name;
    `short` and `full`: the names the score line shows (compact) and gives as a title."""
    contract = CONTRACT_LABELS[str(result.contract)]
    bouts = ngettext("%(n)s bout", "%(n)s bouts", result.bouts) % {"n": result.bouts}
    points = _("%(points)s points") % {"points": format_points(result.points)}
    verdict = result_text(result.won, result.gap)
    if result.rounded_points != result.points:
        points += " (" + _("counted %(points)s") % {"points": result.rounded_points} + ")"
    headline = f"{contract}, {bouts}, {points}: {verdict}"

    terms: list[tuple[int, str]] = []
    base = f"(25 + {result.gap}) × {result.multiplier}"
    terms.append((result.contract_part, base))
    if result.petit_au_bout_bonus:
        terms.append(
            (
                result.petit_au_bout_bonus,
                _("petit au bout %(n)s") % {"n": abs(result.petit_au_bout_bonus)},
            )
        )
    if result.poignee_bonus:
        terms.append((result.poignee_bonus, _("poignée %(n)s") % {"n": abs(result.poignee_bonus)}))
    if result.chelem_bonus:
        terms.append((result.chelem_bonus, _("slam %(n)s") % {"n": abs(result.chelem_bonus)}))
    formula = ""
    for i, (value, text) in enumerate(terms):
        if i == 0:
            formula = text if value >= 0 else f"−{text}"
        else:
            formula += f" + {text}" if value >= 0 else f" − {text}"
    formula += " = " + _("%(unit)s per defender") % {"unit": signed(result.unit)}

    taker_name = names.get(result.taker, str(result.taker))
    taker_score = result.scores[result.taker]
    unit = abs(result.unit)
    if result.unit >= 0:
        shares = _("each defender pays %(unit)s; %(taker)s receives %(total)s") % {
            "unit": unit,
            "taker": taker_name,
            "total": taker_score,
        }
    else:
        shares = _("each defender receives %(unit)s; %(taker)s pays %(total)s") % {
            "unit": unit,
            "taker": taker_name,
            "total": -taker_score,
        }
    if result.partner is not None:
        shares += "; " + _("partner %(partner)s: %(score)s") % {
            "partner": names.get(result.partner, str(result.partner)),
            "score": signed(result.scores[result.partner]),
        }
    for pk, kind in getattr(result, "miseres", ()):
        shares += "; " + _("%(misere)s of %(player)s: %(amount)s from each player") % {
            "misere": MISERE_LABELS[str(kind)],
            "player": names.get(pk, str(pk)),
            "amount": result.rules.misere_amount,
        }
    short, full = short or names, full or names
    scores = [
        (
            short.get(pk, names.get(pk, str(pk))),
            full.get(pk, ""),
            signed(score),
            "pos" if score > 0 else "neg" if score < 0 else "",
        )
        for pk, score in result.scores.items()
    ]
    return Breakdown(
        headline=headline, formula=formula, shares=shares, won=result.won, scores=scores
    )


@dataclass(frozen=True)
class DealLabels:
    """A stored deal in words, as the sheet, the printouts and the exports show it."""

    dealer: str
    taker: str
    partner: str  # "" when the taker played alone (or at 3 and 4)
    contract: str
    bouts: str
    points: str
    result: str
    petit_au_bout: str
    poignees: str
    chelem: str
    miseres: str = ""


def deal_labels(deal, names: dict) -> DealLabels:
    """Label a stored deal once; `names`: player pk → the name this page shows."""
    partner = deal.partner_id if deal.partner_id and deal.partner_id != deal.taker_id else None
    return DealLabels(
        dealer=names.get(deal.dealer_id, "?"),
        taker=names.get(deal.taker_id, "?"),
        partner=names.get(partner, "?") if partner else "",
        contract=str(CONTRACT_LABELS.get(deal.contract, deal.contract)),
        bouts=str(deal.bouts),
        points=format_points(Fraction(deal.points_half, 2)),
        result=result_text(deal.won, deal.gap),
        petit_au_bout=str(SIDE_LABELS.get(deal.petit_au_bout, "")) if deal.petit_au_bout else "",
        poignees=", ".join(
            f"{POIGNEE_LABELS.get(kind, kind)} ({names.get(pk, '?')})" for pk, kind in deal.poignees
        ),
        chelem=str(CHELEM_LABELS.get(deal.chelem, deal.chelem))
        if deal.chelem and deal.chelem != "none"
        else "",
        miseres=", ".join(
            f"{MISERE_LABELS.get(kind, kind)} ({names.get(pk, '?')})"
            for pk, kind in getattr(deal, "miseres", None) or []
        ),
    )


def bonuses_text(deal, names: dict) -> str:
    """Short list of a stored deal's extras for the score sheet."""
    parts = []
    if deal.petit_au_bout:
        parts.append(_("petit au bout") + " (" + str(SIDE_LABELS[deal.petit_au_bout]) + ")")
    for pk, kind in deal.poignees:
        parts.append(_("poignée") + f" {POIGNEE_LABELS.get(kind, kind)} ({names.get(pk, '?')})")
    if deal.chelem and deal.chelem != "none":
        parts.append(_("slam") + ": " + str(CHELEM_LABELS.get(deal.chelem, deal.chelem)))
    for pk, kind in getattr(deal, "miseres", None) or []:
        parts.append(f"{MISERE_LABELS.get(kind, kind)} ({names.get(pk, '?')})")
    return ", ".join(parts)
