"""Cuckoo, 3 to 12 players: each deal, the lowest card loses a life; the last one in wins."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import cuckoo
from tarotclub.games.kinds import DEAL_WORDS, top
from tarotclub.games.replayed import ReplayedKind
from tarotclub.games.standings import player_line, ratio
from tarotclub.games.tables import GameStandingsTable, NumberColumn

from . import presenters
from .forms import CuckooForm


class CuckooStandings(GameStandingsTable):
    played = NumberColumn(verbose_name=_("Matches"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    draws = NumberColumn(verbose_name=_("Draws"))
    average_place = NumberColumn(verbose_name=_("Average place"), digits=1)
    first_out = NumberColumn(verbose_name=_("Out first"))


class Cuckoo(ReplayedKind):
    identifier = "cuckoo"
    verbose_name = _("Cuckoo")
    rules = cuckoo
    words = DEAL_WORDS
    presenters = presenters
    form_class = CuckooForm
    form_template = "kinds/cuckoo/_form.html"
    stylesheets = ("kinds/cuckoo/cuckoo.css",)
    ends_by_rules = True
    player_maps = ("cards", "swap_losses")
    standings_table = CuckooStandings
    standings_note = _(
        "Matches played to their end. Place: 1 for the winner (and for everybody in a draw); "
        "players who went out together share a place. Out first: went out before everybody else."
    )

    trend_figure = "won"
    trend_title = _("Matches won")
    trend_note = _("Over time: the matches won, added up match after match.")
    results_note = _("Matches played to their end: the place each player finished in.")
    offline_rules_scripts = ("js/cuckoo-score.js",)

    def offline_words(self) -> dict:
        return presenters.offline_words()

    season_note = _(
        "Cuckoo: each match played to its end counts the players one finished ahead of (the "
        "winner of five beats four; players who went out on the same deal share a place); "
        "an evening's score is the sum over the player's matches."
    )

    def table_results(self, played) -> list[dict[int, int]]:
        """The places of `standings_rows` (a player without one finished last)."""
        if not played.over:
            return []
        final = cuckoo.places(played.state)
        return [{p.pk: final.get(p.pk, len(played.players)) for p in played.players}]

    def leaders(self, state) -> tuple:
        """The winner (a draw: nobody); during the match, the most lives left."""
        if state.winner is not None:
            return (state.winner,)
        return () if state.finished else top(state.lives)

    def standings_rows(self, played: list) -> list[dict]:
        """Matches ended by the rules (a stopped match counts nowhere)."""
        lines: dict[int, dict] = {}
        for gs in played:
            if not gs.over:
                continue
            st = gs.state
            places = cuckoo.places(st)
            first_out = next((r.out for r in st.history if r.out), ())
            draw_group = set(st.history[-1].out) if st.draw and st.history else set()
            for p in gs.players:
                line = player_line(lines, p, played=0, won=0, draws=0, first_out=0, places=0)
                line["played"] += 1
                line["won"] += int(st.winner == p.pk)
                line["draws"] += int(p.pk in draw_group)
                line["first_out"] += int(p.pk in first_out and p.pk not in draw_group)
                line["places"] += places.get(p.pk, len(gs.players))
        for line in lines.values():
            line["average_place"] = ratio(line["places"], line["played"])
            line["win_rate"] = ratio(line["won"], line["played"])
        return list(lines.values())
