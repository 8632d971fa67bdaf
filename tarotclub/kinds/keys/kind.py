"""Keys of the Kingdom, 2 to 4 players: each record is a whole game; a session never ends
by itself."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import keys
from tarotclub.games.kinds import Words, top
from tarotclub.games.replayed import ReplayedKind
from tarotclub.games.standings import places
from tarotclub.games.tables import GameStandingsTable, NumberColumn

from . import presenters
from .forms import KeysForm
from .labels import SUIT_LABELS


class KeysStandings(GameStandingsTable):
    played = NumberColumn(verbose_name=_("Games"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    average_keys = NumberColumn(verbose_name=_("Keys when losing"), digits=1)


class Keys(ReplayedKind):
    identifier = "keys"
    verbose_name = _("Keys of the Kingdom")
    rules = keys
    words = Words(
        entry=_("Game %(n)s"),
        correct=_("Correct game %(n)s"),
        new=_("Enter a game played"),
        save=_("Save"),
        saved=_("Game %(n)s saved."),
        corrected=_("Game %(n)s corrected."),
        undone=_("Game %(n)s undone."),
        undo=_("Undo the last game"),
        undo_question=_("Undo game %(n)s?"),
    )
    presenters = presenters
    form_class = KeysForm
    form_template = "kinds/keys/_form.html"
    house_rule_labels = {
        "partial_table": _("A game may be played by only some of the table (2 or more)")
    }

    def house_rules_lines(self, rules) -> list:
        if rules.partial_table:
            return [_("a game may be played by only some of the table")]
        return []

    stylesheets = ("kinds/keys/keys.css",)
    shows_dealer = False
    player_maps = ("suits", "keys", "guards")
    rule_values = {"suit": SUIT_LABELS}  # "… chose ♥ Hearts", never the stored code
    standings_table = KeysStandings
    standings_note = _(
        "Every game entered. Keys when losing: the average number of keys held at the end of "
        "the games lost."
    )

    trend_figure = "won"
    trend_title = _("Games won")
    trend_note = _("Over time: the games won, added up session after session.")
    results_note = _("Each game entered: the winner first, then the most keys held.")
    offline_rules_scripts = ("js/keys-score.js",)

    def offline_words(self) -> dict:
        return presenters.offline_words()

    season_note = _(
        "Keys of the Kingdom: each game entered counts the players one finished ahead of (the "
        "winner first, then the most keys held); an evening's score is the sum over the "
        "player's games."
    )

    def table_results(self, played) -> list[dict[int, int]]:
        """One result per game entered (each record is a whole game)."""
        return [
            places({p: (p == g.winner, g.keys.get(p, 0)) for p in g.suits})
            for g in played.state.games
        ]

    def next_line(self, summary) -> str:
        return ""  # a session of Keys has no "next"

    def initial(self, played, number: int) -> dict:
        if played.entry(number) is not None:
            return super().initial(played, number)
        previous = played.entries[-1].data if played.entries else None
        return KeysForm.initial_suits(played.players, previous)

    def leaders(self, state) -> tuple:
        """Whoever won the most games of the session."""
        won = {p: 0 for p in state.players}
        for g in state.games:
            won[g.winner] = won.get(g.winner, 0) + 1
        return top(won)

    def standings_rows(self, played: list) -> list[dict]:
        """Every recorded game (each record is a whole game), via `scoring.keys.standings`."""
        games = []
        players: dict = {}
        for gs in played:
            for p in gs.players:
                players[p.pk] = p
            games += [
                {"suits": g.suits, "winner": g.winner, "keys": g.keys, "guards": g.guards}
                for g in gs.state.games
            ]
        table = keys.standings(games)
        rows = []
        for pk, rec in table.players.items():
            rows.append(
                {
                    "pk": pk,
                    "player": players[pk].short_name,
                    "played": rec.played,
                    "won": rec.won,
                    "lost": rec.lost,
                    "win_rate": float(rec.win_rate),
                    "average_keys": (
                        float(rec.average_keys_when_losing)
                        if rec.average_keys_when_losing is not None
                        else None
                    ),
                }
            )
        return rows
