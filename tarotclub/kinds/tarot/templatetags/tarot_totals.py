"""`{% tarot_totals %}`: the top of a tarot sheet (kinds/tarot/_totals.html): each player's
total, the zero-sum check and who deals next.

Every sheet prints it, and so does every poll that brings a change (games/_sheet_changes.html):
through the template's loop, lookups and translation tags it was some 1.4 ms of a poll's 10.
The markup here is the template's as it was, to the byte
(tests/kinds/test_tarot_totals_html.py holds that template and compares): each value printed
as `{{ }}` prints it (localized, escaped unless safe), the sentences through the same
messages as `{% translate %}` and `{% blocktranslate %}` gave (their translations, trusted as
the template's text is; only the values are escaped).
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop, ngettext

from tarotclub.core.forms import printed
from tarotclub.core.text import no_break_hyphens
from tarotclub.games.templatetags.scores import score
from tarotclub.players.links import is_member, player_urls

register = template.Library()

_SITS_OUT = gettext_noop("The dealer sits out this deal.")
_NEXT = gettext_noop("Deal %(n)s: <strong>%(name)s</strong> deals.")


@register.simple_tag(takes_context=True)
def tarot_totals(context) -> str:
    sheet, game = context.get("sheet"), context.get("game")
    cards = []
    url = player_urls() if is_member(context.get("user")) else None
    for p, total, leads in sheet.standing:
        href = printed(url(p.pk)) if url is not None and p.pk is not None else ""
        name = getattr(p, "compact", "") or getattr(p, "label", "")
        card = (
            f'<span class="name" title="{printed(p.name)}">{printed(name)}</span>'
            f'<span class="value" data-player="{printed(p.pk)}">{printed(score(total))}</span>'
        )
        if href:
            card = f'<a class="player-box" href="{href}">{card}</a>'
        cards.append(f'\n  <li class="total-card{" leader" if leads else ""}">{card}</li>')
    count, zero_sum = sheet.deal_count, sheet.zero_sum
    if zero_sum:
        added = ngettext(
            "%(n)s deal · the totals add up to 0 ✓", "%(n)s deals · the totals add up to 0 ✓", count
        ) % {"n": printed(count)}
    else:
        added = gettext("The totals do not add up to 0: check the deals.")
    label = gettext("Totals")  # (outside the f-string: `make messages` finds it here)
    out = [
        "\n",
        f'<ol class="totals {printed(context.get("totals_cols", ""))}" aria-label="{label}">',
        *cards,
        "\n</ol>\n",
        f'<p class="zero-sum {"ok" if zero_sum else "bad"}">\n  {added}\n</p>\n',
    ]
    next_dealer = sheet.next_dealer
    if not game.finished and not game.locked and next_dealer and not context.get("all_deals_in"):
        sits_out = f" {gettext(_SITS_OUT)}" if game.dealer_sits_out else ""
        # the phone's sentence, with __N__ and __NAME__ it fills (offline-app.js)
        sentence = gettext(_NEXT)
        phone = sentence % {"n": "__N__", "name": "__NAME__"}
        planned = context.get("deals_planned")
        planned = f' data-next-planned="{printed(planned)}"' if planned else ""
        said = sentence % {
            "n": printed(count + 1),
            "name": printed(no_break_hyphens(next_dealer.label)),
        }
        out.append(
            "\n\n\n"
            f'<p class="next-dealer" data-next-count="{printed(count)}" '
            f'data-next-dealers="{printed(sheet.dealers_json)}"{planned} '
            f'data-next-text="{escape(phone)}{sits_out}">{said}{sits_out}</p>\n'
        )
    return SafeString("".join(out))  # each value escaped, or trusted text
