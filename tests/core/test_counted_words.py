"""A counted word agrees with its number in each language: French puts 0 and 1 in the
singular ("1 inscrit", "0 gagnée"), English and Dutch only 1; and "1 of 4 deals" is said
"donnes : 1 sur 4" in French, since there the noun would agree with the 1, in English and
Dutch with the 4. Each case is read where a user meets it: the projector, a refused start,
a refused confirmation, the director's round, a season's rule and the player page.

Some refusals say their number without a noun that would have to agree with it ("(1)",
"1 of the 3 bouts"): the rules' refusals are also shown by the phone's offline scorers,
which have no plural forms, and the others follow them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from scoring import RuleError, cuckoo, fft
from tarotclub.demo.builders import make_tournament, play_table
from tarotclub.games import policy
from tarotclub.games import selectors as game_selectors
from tarotclub.games import services as games
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.models import Player
from tarotclub.seasons.models import Season
from tarotclub.seasons.views import formula_text
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tarotclub.tournaments.seating import SeatingError, plan_rounds

pytestmark = pytest.mark.django_db


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


def test_a_full_sheet_of_one_deal_refuses_another_in_each_language():
    t, _ = make_tournament(4, rounds=1, deals=1)
    t = services.tournament_start(tournament=t)
    game = Table.objects.get(tournament=t, round=1).game
    seated = game_selectors.seat_players(game)

    def deal():
        data = tarot.DealInput(taker=seated[1].pk, contract="prise", bouts=1, points=Fraction(51))
        tarot.deal_add(game=game, data=data)

    deal()
    refused = {}
    for language in ("en", "fr", "nl"):
        with translation.override(language):
            with pytest.raises(ValidationError) as e:
                deal()
            refused[language] = e.value.messages  # (lazy: read in the reader's language)
    assert refused == {
        "en": ["Every deal planned at this table is in (1): confirm the sheet, or correct a deal."],
        "fr": [
            "Chaque donne prévue à cette table est saisie (1) : validez la feuille, ou corrigez "
            "une donne."
        ],
        "nl": [
            "Elk gepland spel van deze tafel is ingevoerd (1): bevestig het scoreblad, of "
            "corrigeer een spel."
        ],
    }
    assert Deal.objects.filter(game=game).count() == 1  # (refused three times, kept once)


def test_a_team_larger_than_one_table_is_refused_in_each_language():
    teams = {p: "A" for p in range(2)}  # 2 teammates, 4 players at 1 table
    with pytest.raises(SeatingError) as e:
        plan_rounds(range(4), 1, teams=teams)
    said = {}
    for language in ("en", "fr", "nl"):
        with translation.override(language):
            said[language] = e.value.translated(gettext)
    assert said == {
        "en": "Team A has 2 players, more than the tables (1): teammates cannot all sit at "
        "different tables.",
        "fr": "L’équipe A compte 2 joueurs, plus que de tables (1) : les coéquipiers ne peuvent "
        "pas tous jouer à des tables différentes.",
        "nl": "Team A heeft 2 spelers, meer dan er tafels zijn (1): teamgenoten kunnen niet "
        "allemaal aan verschillende tafels zitten.",
    }


@pytest.mark.parametrize(
    "template, params, expected",
    [
        (
            cuckoo.ERR_SWAP_TOO_MANY,
            {"player": "Anne", "lives": 1, "lost": 2},
            {
                "en": "Anne cannot lose 2 lives during the swaps: they have only 1 left.",
                "fr": "Anne ne peut pas perdre 2 vies pendant les échanges : il ne lui en reste "
                "que 1.",
                "nl": "Anne kan tijdens het ruilen geen 2 levens verliezen: er zijn er nog maar 1 "
                "over.",
            },
        ),
        (
            fft.ERR_CHELEM_ATTACK_LOST,
            {"points": "40", "bouts": 1},
            {
                "en": "The attack made a slam, so it won the contract, but 40 points with 1 of "
                "the 3 bouts is a lost contract.",
                "fr": "L'attaque a réalisé un chelem, elle a donc gagné le contrat, mais 40 points "
                "avec 1 des 3 bouts est un contrat chuté.",
                "nl": "De aanval haalde een slem en won dus het contract, maar 40 punten met 1 van "
                "de 3 oudlers is een verloren contract.",
            },
        ),
        (
            fft.ERR_CHELEM_DEFENCE_WON,
            {"points": "60", "bouts": 1},
            {
                "en": "The defence made a slam, so the attack lost the contract, but 60 points "
                "with 1 of the 3 bouts is a won contract.",
                "fr": "La défense a réalisé un chelem, l'attaque a donc chuté, mais 60 points avec "
                "1 des 3 bouts est un contrat gagné.",
                "nl": "De verdediging haalde een slem en dus verloor de aanval het contract, maar "
                "60 punten met 1 van de 3 oudlers is een gewonnen contract.",
            },
        ),
        (
            fft.ERR_SLAM_ATTACK_CARDS,
            {"points": "80", "bouts": 1},
            {
                "en": "The attack made a slam, so the defence kept at most the Excuse: the attack "
                "has 3 bouts and 91 points, or 2 bouts and at least 86½ points, not 80 points "
                "with 1 of the 3 bouts.",
                "fr": "L'attaque a fait un chelem : la défense a gardé au plus l'Excuse. L'attaque "
                "a donc 3 bouts et 91 points, ou 2 bouts et au moins 86½ points, pas 80 points "
                "avec 1 des 3 bouts.",
                "nl": "De aanval maakte slem, dus de verdediging hield hoogstens de Excuse: de "
                "aanval heeft 3 oudlers en 91 punten, of 2 oudlers en minstens 86½ punten, niet "
                "80 punten met 1 van de 3 oudlers.",
            },
        ),
        (
            fft.ERR_SLAM_DEFENCE_CARDS,
            {"points": "30", "bouts": 1},
            {
                "en": "The defence made a slam, so the attack took no trick and holds at most the "
                "Excuse: at most 1 bout and 4½ points, not 30 points with 1 of the 3 bouts.",
                "fr": "La défense a fait un chelem : l'attaque n'a fait aucun pli et a au plus "
                "l'Excuse, soit au plus 1 bout et 4½ points, pas 30 points avec 1 des 3 bouts.",
                "nl": "De verdediging maakte slem, dus de aanval haalde geen slag en heeft "
                "hoogstens de Excuse: hoogstens 1 oudler en 4½ punten, niet 30 punten met 1 van "
                "de 3 oudlers.",
            },
        ),
    ],
)
def test_a_rules_message_counts_without_a_noun_that_would_disagree(template, params, expected):
    error = RuleError(template, **params)
    said = {}
    for language in ("en", "fr", "nl"):
        with translation.override(language):
            said[language] = error.translated(gettext)
    assert said == expected
