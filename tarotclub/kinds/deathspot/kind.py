"""Death's Pot, 2 to 6 players: stakes paid into a pot; Death, the honours and the tricks
take from it."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import deathspot
from scoring import season as season_rules
from tarotclub.games.kinds import DEAL_WORDS, top
from tarotclub.games.presenters import signed
from tarotclub.games.replayed import ReplayedKind
from tarotclub.games.standings import places, player_line, ratio
from tarotclub.games.tables import GameStandingsTable, NumberColumn

from . import presenters
from .forms import DeathsPotForm


class DeathsPotStandings(GameStandingsTable):
    games = NumberColumn(verbose_name=_("Games"))
    deals = NumberColumn(verbose_name=_("Deals"))
    pots = NumberColumn(verbose_name=_("Pots taken"))
    net = NumberColumn(verbose_name=_("Net balance"))
    average = NumberColumn(verbose_name=_("Per game"), digits=1)

    def render_net(self, value):
        return signed(value)


class DeathsPot(ReplayedKind):
    identifier = "deathspot"
    verbose_name = _("Death's Pot")
    rules = deathspot
    words = DEAL_WORDS
    presenters = presenters
    form_class = DeathsPotForm
    form_template = "kinds/deathspot/_form.html"
    house_rule_labels = {"tie_pot": _("When the most tricks are shared")}
    house_rule_choices = {
        "tie_pot": {
            deathspot.TIE_POT_STAYS: _("the pot stays for the next deal"),
            deathspot.TIE_POT_SHARED: _("the tied players share the pot"),
        }
    }

    def house_rules_lines(self, rules) -> list:
        if rules.tie_pot == deathspot.TIE_POT_SHARED:
            return [_("on a tie for most tricks the tied players share the pot")]
        return []

    stylesheets = ("kinds/deathspot/deathspot.css",)
    player_maps = ("tricks",)
    standings_table = DeathsPotStandings
    standings_note = _(
        "Every game with at least one deal, finished or not. Net balance: stakes won minus "
        "stakes paid, over all games; per game: the net balance divided by the games played. "
        "Pots taken: with Death or the most tricks."
    )

    trend_figure = "net"
    trend_title = _("Net balance")
    trend_note = _("Over time: the net balance in stakes, added up game after game.")
    results_note = _("Every game with at least one deal: the better net balance first.")
    offline_rules_scripts = ("js/deathspot-score.js",)

    def offline_words(self) -> dict:
        return presenters.offline_words()

    season_figure = season_rules.SCORE
    season_note = _(
        "Death's Pot: each game counts the player's net balance in stakes, finished or not; "
        "an evening's score is the sum over the games the player sat at."
    )

    def season_results(self, played) -> list[dict[int, int]]:
        st = played.state
        return [dict(st.balances)] if st.history else []

    def table_results(self, played) -> list[dict[int, int]]:
        st = played.state
        return [places(dict(st.balances))] if st.history else []

    def sheet(self, played, *, link=None) -> dict:
        """A finished game: what is left in the pot, and no next dealer."""
        context = super().sheet(played, link=link)
        if context["summary"] is not None and played.game.finished:
            context["summary"] = presenters.summary(
                played.state, played.players, played.names, finished=True
            )
        return context

    def leaders(self, state) -> tuple:
        """The best balance (the rules never end a game: the players stop)."""
        return top(state.balances) if state.history else ()

    def standings_rows(self, played: list) -> list[dict]:
        """Every game with at least one deal, finished or not (balances are final at any time)."""
        lines: dict[int, dict] = {}
        for gs in played:
            st = gs.state
            if not st.history:
                continue
            stake = st.stake
            for p in gs.players:
                line = player_line(lines, p, games=0, deals=0, pots=0, net=0)
                line["games"] += 1
                line["deals"] += len(st.history)
                line["net"] += st.balances[p.pk]
                line["pots"] += sum(
                    1
                    for r in st.history
                    for pay in r.payments
                    if pay.player == p.pk and pay.kind in (deathspot.DEATH, deathspot.TRICKS)
                )
                line.setdefault("stakes", set()).add(stake)
        for line in lines.values():
            line["average"] = ratio(line["net"], line["games"])
            line.pop("stakes", None)
        return list(lines.values())
