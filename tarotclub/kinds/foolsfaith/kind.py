"""Fool's Faith, 3 to 5 players: the round's winner takes challenge cards; two win the game,
and the winner gives them to the others as challenges from the club's list."""

from __future__ import annotations

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from scoring import foolsfaith
from tarotclub.games.kinds import Words, top
from tarotclub.games.replayed import ReplayedKind
from tarotclub.games.standings import places, player_line, ratio
from tarotclub.games.tables import GameStandingsTable, NumberColumn

from . import presenters
from .forms import AwardForm, FoolsFaithForm
from .models import Challenge, ChallengeAward
from .services import awards_snapshot


class FoolsFaithStandings(GameStandingsTable):
    played = NumberColumn(verbose_name=_("Games"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    rounds_won = NumberColumn(verbose_name=_("Rounds won"))
    tricks = NumberColumn(verbose_name=_("Tricks"))
    cards = NumberColumn(verbose_name=_("Challenge cards"))
    received = NumberColumn(verbose_name=_("Challenges received"))

    def render_received(self, value, record):
        if not record["challenges"]:
            return value
        items = format_html_join("", "<li>{}</li>", ((c,) for c in record["challenges"]))
        return format_html(
            '<details><summary>{}</summary><ul class="challenge-list">{}</ul></details>',
            value,
            items,
        )


class FoolsFaith(ReplayedKind):
    identifier = "foolsfaith"
    verbose_name = _("Fool's Faith")
    rules = foolsfaith
    words = Words(
        entry=_("Round %(n)s"),
        correct=_("Correct round %(n)s"),
        new=_("New round"),
        save=_("Save"),
        saved=_("Round %(n)s saved."),
        corrected=_("Round %(n)s corrected."),
        undone=_("Round %(n)s undone."),
        undo=_("Undo the last round"),
        undo_question=_("Undo round %(n)s?"),
    )
    presenters = presenters
    form_class = FoolsFaithForm
    form_template = "kinds/foolsfaith/_form.html"
    house_rule_labels = {"tie_dealer": _("After a tied round")}
    house_rule_choices = {
        "tie_dealer": {
            foolsfaith.TIE_SAME_DEALER: _("the same dealer deals again"),
            foolsfaith.TIE_NEXT_DEALER: _("the next player deals"),
        }
    }

    def house_rules_lines(self, rules) -> list:
        if rules.tie_dealer == foolsfaith.TIE_NEXT_DEALER:
            return [_("after a tied round the next player deals")]
        return []

    sheet_extra_template = "kinds/foolsfaith/_awards.html"
    stylesheets = ("kinds/foolsfaith/foolsfaith.css",)
    ends_by_rules = True
    player_maps = ("tricks",)
    urls = "tarotclub.kinds.foolsfaith.urls"
    standings_table = FoolsFaithStandings
    standings_note = _(
        "Games that ended with a winner. Challenge cards: the cards won; challenges received: "
        "the challenges the winners gave to the player (tap the number to read them)."
    )

    trend_figure = "cards"
    trend_title = _("Challenge cards won")
    trend_note = _("Over time: the challenge cards won, added up game after game.")
    results_note = _("Games played to their end: the winner first, then the most challenge cards.")
    offline_rules_scripts = ("js/foolsfaith-score.js",)

    def offline_words(self) -> dict:
        return presenters.offline_words()

    season_note = _(
        "Fool's Faith: each game that ended with a winner counts the players one finished "
        "ahead of (the winner first, then the most challenge cards); an evening's score is the "
        "sum over the player's games."
    )

    def table_results(self, played) -> list[dict[int, int]]:
        if not played.over:
            return []
        st = played.state
        return [places({p: (st.winner == p, st.cards[p]) for p in st.players})]

    def rules_input(self, data):
        """A stored round is {"tricks": {pk: tricks}}; the rules take the tricks."""
        out = super().rules_input(data)
        return out.get("tricks", out) if isinstance(out, dict) else out

    def on_reopen(self, game, before: dict) -> None:
        """The game opens again: the challenge cards given are taken back (kept in history)."""
        awards = awards_snapshot(game)
        if awards:
            before["awards"] = awards
            game.challenge_awards.all().delete()

    def undo_context(self, played) -> dict:
        context = super().undo_context(played)
        if played.over and played.game.challenge_awards.exists():
            context["reopen_note"] = _("The challenge cards already given are taken back.")
        return context

    def sheet_extra(self, request, played) -> dict:
        """The challenge cards of a finished Fool's Faith game: given, and the form to give them."""
        if not played.over:
            return {}
        state = played.state
        winner = state.winner
        count = state.cards[winner]
        awards = list(played.game.challenge_awards.select_related("player").order_by("card"))
        challenges = list(Challenge.objects.filter(active=True))
        others = [p for p in played.players if p.pk != winner]
        form = None
        if challenges:
            initial = {}
            for a in awards:
                initial[f"challenge_{a.card}"] = a.challenge_id
                initial[f"player_{a.card}"] = a.player_id
            form = AwardForm(
                request.POST if request.method == "POST" and "award" in request.POST else None,
                count=count,
                challenges=challenges,
                players=others,
                initial=initial,
            )
        names = played.names
        return {
            "award_winner": names[winner],
            "award_count": count,
            "awards": [(a, names.get(a.player_id, a.player.short_name)) for a in awards],
            "award_form": form,
        }

    def links(self) -> list[tuple[str, str]]:
        return [(reverse("foolsfaith:challenges"), _("Fool's Faith challenges"))]

    def standings_prefetch(self) -> list:
        return [
            Prefetch(
                "challenge_awards",
                queryset=ChallengeAward.objects.select_related("player").order_by("card"),
            )
        ]

    def leaders(self, state) -> tuple:
        """The winner; during the game, whoever holds the most challenge cards."""
        return (state.winner,) if state.winner is not None else top(state.cards)

    def standings_rows(self, played: list) -> list[dict]:
        """Finished games only (a stopped game counts nowhere): the figures of variants.md."""
        lines: dict[int, dict] = {}
        for gs in played:
            if not gs.over:
                continue
            st = gs.state
            received = {}
            for award in gs.game.challenge_awards.all():
                received.setdefault(award.player_id, []).append(award.text)
            for p in gs.players:
                line = player_line(
                    lines,
                    p,
                    played=0,
                    won=0,
                    rounds_won=0,
                    tricks=0,
                    cards=0,
                    received=0,
                    challenges=[],
                )
                line["played"] += 1
                line["won"] += int(st.winner == p.pk)
                line["rounds_won"] += st.rounds_won[p.pk]
                line["tricks"] += st.tricks[p.pk]
                line["cards"] += st.cards[p.pk]
                line["received"] += len(received.get(p.pk, []))
                line["challenges"] += received.get(p.pk, [])
        for line in lines.values():
            line["win_rate"] = ratio(line["won"], line["played"])
        return list(lines.values())
