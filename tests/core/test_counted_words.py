"""A counted word agrees with its number in each language: French puts 0 and 1 in the
singular ("1 inscrit", "0 gagnée"), English and Dutch only 1; and "1 of 4 deals" is said
"donnes : 1 sur 4" in French, since there the noun would agree with the 1, in English and
Dutch with the 4. Each case is read where a user meets it: the projector, a refused start,
a refused confirmation, the director's round, a season's rule and the player page."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from tarotclub.demo.builders import make_tournament, play_table
from tarotclub.games import policy
from tarotclub.games import selectors as game_selectors
from tarotclub.games import services as games
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.seasons.models import Season
from tarotclub.seasons.views import formula_text
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_kept():
    """A request's language stays active after it: the next test starts in the default one."""
    with translation.override(translation.get_language()):
        yield


def _projector(client, t, language: str) -> str:
    url = reverse("tournaments:projector", args=[t.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize(
    "players, expected",
    [
        (
            4,  # one table, one deal planned
            {
                "en": ["0 of 1 table confirmed", "0 of 1 deal entered"],
                "fr": ["table validée : 0 sur 1", "donne saisie : 0 sur 1"],
                "nl": ["0 van 1 tafel bevestigd", "0 van 1 spel ingevoerd"],
            },
        ),
        (
            8,  # two tables, two deals planned
            {
                "en": ["0 of 2 tables confirmed", "0 of 2 deals entered"],
                "fr": ["tables validées : 0 sur 2", "donnes saisies : 0 sur 2"],
                "nl": ["0 van 2 tafels bevestigd", "0 van 2 spellen ingevoerd"],
            },
        ),
    ],
)
def test_the_projector_counts_tables_and_deals_in_each_language(client, players, expected):
    t, _ = make_tournament(players, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)
    for language, phrases in expected.items():
        html = _projector(client, t, language)
        for phrase in phrases:
            assert phrase in html, (language, phrase)
    # the French plural before any table is confirmed, and after one is
    if players == 8:
        play_table(Table.objects.filter(tournament=t, round=1).order_by("number").first())
        assert "tables validées : 1 sur 2" in _projector(client, t, "fr")
        assert "1 of 2 tables confirmed" in _projector(client, t, "en")


@pytest.mark.parametrize(
    "registered, fr, en",
    [
        (1, "(1 inscrit).", "(1 registered)."),
        (2, "(2 inscrits).", "(2 registered)."),
    ],
)
def test_a_refused_start_counts_the_players_registered(registered, fr, en):
    t, _ = make_tournament(registered, rounds=2, deals=1)
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_start(tournament=t)
    for language, phrase in (("fr", fr), ("en", en)):
        with translation.override(language):
            (message,) = refused.value.messages
            assert message.endswith(phrase), (language, message)
            assert "%(" not in message


@pytest.mark.parametrize(
    "done, planned, language, expected",
    [
        (0, 1, "en", "The sheet has 0 of 1 deal: enter it first."),
        (1, 4, "en", "The sheet has 1 of 4 deals: enter them all first."),
        (0, 1, "fr", "Donne saisie sur la feuille : 0 sur 1. Saisissez-la d'abord."),
        (1, 4, "fr", "Donnes saisies sur la feuille : 1 sur 4. Saisissez-les toutes d'abord."),
        (1, 4, "nl", "Het scoreblad heeft 1 van de 4 spellen: voer ze eerst allemaal in."),
    ],
)
def test_a_refused_confirmation_counts_the_deals(done, planned, language, expected):
    verdict = policy.Verdict(False, policy.ERR_SHEET_INCOMPLETE, {"done": done, "planned": planned})
    with translation.override(language):
        assert verdict.reason == expected


def test_a_refusal_without_a_count_reads_as_before():
    verdict = policy.Verdict(False, policy.ERR_NO_DEAL)
    with translation.override("fr"):
        assert verdict.reason == str(policy.ERR_NO_DEAL) and verdict.reason


def test_the_directors_round_counts_the_deals_of_a_table_under_way(admin_client):
    t, _ = make_tournament(8, rounds=2, deals=3)
    t = services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).order_by("number").first()
    seated = game_selectors.seat_players(table.game)
    tarot.deal_add(
        game=table.game,
        data=tarot.DealInput(taker=seated[1].pk, contract="prise", bouts=1, points=Fraction(51)),
    )
    url = reverse("tournaments:manage", args=[t.pk])
    fr = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "donnes : 1 sur 3" in fr and "1 donnes" not in fr
    en = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 of 3 deals" in en


@pytest.mark.parametrize(
    "best, fr",
    [
        (1, "Classement par le score de la meilleure soirée."),
        (3, "Classement par la somme des scores des 3 meilleures soirées."),
    ],
)
def test_a_seasons_rule_counts_its_best_evenings(best, fr):
    season = Season(name="S", formula="best", best_n=best)
    with translation.override("fr"):
        assert formula_text(season) == fr
    with translation.override("en"):
        assert ("best evening" in formula_text(season)) == (best == 1)


def test_the_player_page_counts_poignees_and_slams(member_client, member):
    players = [Player.objects.create(name=n) for n in ("Anne", "Bruno", "Chloé", "Denis")]
    game = games.game_start(players=players, kind="tarot", created_by=member)
    tarot.deal_add(
        game=game,
        data=tarot.DealInput(
            taker=players[1].pk,
            contract="garde",
            bouts=2,
            points=Fraction(56),
            poignees=[(players[1].pk, "simple")],
        ),
    )
    url = reverse("players:detail", args=[players[1].pk])
    fr = member_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 montrée, 1 gagnée" in fr
    assert "0, dont 0 réalisé<" in fr  # slams announced: none
    en = member_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 shown, 1 won" in en
