"""The player page and the head-to-head page: what they show, their filters, their queries."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.urls import reverse

from tarotclub.games.models import Game
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal


def play(game, taker, *, contract="garde", points=50, bouts=2, partner=None, **extra):
    return tarot.deal_add(
        game=game,
        data=tarot.DealInput(
            taker=taker.pk,
            contract=contract,
            bouts=bouts,
            points=Fraction(points),
            partner=partner.pk if partner else None,
            **extra,
        ),
    )


def test_the_page_shows_the_figures(member_client, game4, four):
    anne = four[0]
    play(game4, anne, contract="garde", points=50)  # won
    play(game4, anne, contract="prise", points=30)  # lost
    play(game4, four[1], contract="garde", points=60)
    page = member_client.get(reverse("players:detail", args=[anne.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Deals played" in html
    assert "<svg" in html and 'role="img"' in html
    assert reverse("games:sheet", args=[game4.token]) in html


def test_anonymous_visitors_are_sent_to_log_in(client, four):
    response = client.get(reverse("players:detail", args=[four[0].pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize(
    "query",
    [
        "from=2026-13-45",
        "to=yesterday",
        "from=2026-05-01&to=2026-01-01",
        "size=6",
        "size=abc",
        "size=99999999999999999999",
        "from=" + "9" * 500,
    ],
)
def test_bad_filters_get_a_message_and_filter_nothing(member_client, game4, four, query):
    play(game4, four[0])
    page = member_client.get(reverse("players:detail", args=[four[0].pk]) + "?" + query)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'role="alert"' in html
    assert "The filters were not applied" in html
    assert page.context["tarot"]["stats"].deals == 1


def test_the_filters_narrow_the_figures(member_client, game4, four, make_players):
    anne = four[0]
    game5 = game_start(players=[*four, *make_players("Eva")], first_dealer=0)
    play(game4, anne)
    play(game5, anne, partner=four[1])
    old = game_start(players=four, first_dealer=0)
    play(old, anne)
    # a deal's day is its game's: the evening, even when the deal came after midnight
    Game.objects.filter(pk=old.pk).update(created_at=dt.datetime(2025, 1, 10, 20, tzinfo=dt.UTC))
    Deal.objects.filter(game=old).update(created_at=dt.datetime(2025, 1, 11, 1, tzinfo=dt.UTC))
    url = reverse("players:detail", args=[anne.pk])
    assert member_client.get(url).context["tarot"]["stats"].deals == 3
    assert member_client.get(url + "?size=5").context["tarot"]["stats"].deals == 1
    assert member_client.get(url + "?size=4").context["tarot"]["stats"].deals == 2
    assert member_client.get(url + "?to=2025-12-31").context["tarot"]["stats"].deals == 1
    assert member_client.get(url + "?from=2025-02-01&size=4").context["tarot"]["stats"].deals == 1


def test_a_missing_player_is_a_404(member_client):
    assert member_client.get(reverse("players:detail", args=[999999])).status_code == 404
    assert member_client.get(reverse("players:versus", args=[999999])).status_code == 404


def test_head_to_head(member_client, game4, four, make_players):
    anne, bram = four[0], four[1]
    play(game4, anne, points=50)
    play(game4, bram, points=30)
    (zoe,) = make_players("Zoé")
    url = reverse("players:versus", args=[anne.pk])
    page = member_client.get(url, {"other": bram.pk})
    result = page.context["result"]
    assert result.deals == 2 and result.games == 1
    assert result.first_total + result.second_total == sum(
        line.score
        for d in game4.deals.all()
        for line in d.lines.all()
        if line.player_id in (anne.pk, bram.pk)
    )
    assert member_client.get(url, {"other": zoe.pk}).context["result"].deals == 0
    for bad in ("x", str(anne.pk), "99999999999999999999", ""):
        response = member_client.get(url, {"other": bad})
        assert response.status_code == 200
        assert response.context["result"] is None
        assert 'role="alert"' in response.content.decode()


def _on(game, day: dt.date) -> None:
    from django.utils import timezone

    at = timezone.make_aware(dt.datetime.combine(day, dt.time(20)))
    Game.objects.filter(pk=game.pk).update(created_at=at)


def test_head_to_head_counts_only_the_games_within_the_dates(member_client, four):
    """A French Tarot game and a Keys session outside the range are not counted; the same
    page without dates counts them."""
    from tarotclub.games.services import record_add

    anne, bram = four[0], four[1]
    inside = game_start(players=four, first_dealer=0)
    play(inside, anne, points=50)
    _on(inside, dt.date(2026, 3, 10))
    outside = game_start(players=four, first_dealer=0)
    play(outside, bram, points=60)
    play(outside, anne, points=30)
    _on(outside, dt.date(2026, 4, 2))
    keys = game_start(players=[anne, bram], kind="keys")
    suits = {anne.pk: "hearts", bram.pk: "spades"}
    record_add(game=keys, data={"suits": suits, "winner": bram.pk, "keys": {anne.pk: 1}})
    _on(keys, dt.date(2026, 4, 2))
    url = reverse("players:versus", args=[anne.pk])

    everything = member_client.get(url, {"other": bram.pk}).context
    assert (everything["result"].deals, everything["result"].games) == (3, 2)
    assert [k["games"] for k in everything["other_kinds"]] == [1]

    march = {"other": bram.pk, "from": "2026-03-01", "to": "2026-03-31"}
    page = member_client.get(url, march)
    result = page.context["result"]
    assert (result.deals, result.games) == (1, 1)
    inside_scores = {
        line.player_id: line.score for d in inside.deals.all() for line in d.lines.all()
    }
    assert (result.first_total, result.second_total) == (
        inside_scores[anne.pk],
        inside_scores[bram.pk],
    )
    assert page.context["other_kinds"] == []  # the Keys session was in April
    html = page.content.decode()
    assert 'value="2026-03-01"' in html and f'href="?other={bram.pk}"' in html

    april = member_client.get(url, {"other": bram.pk, "from": "2026-04-01"}).context
    assert (april["result"].deals, april["result"].games) == (2, 1)
    assert [k["games"] for k in april["other_kinds"]] == [1]
    until = member_client.get(url, {"other": bram.pk, "to": "2026-04-01"}).context
    assert until["result"].deals == 1 and until["other_kinds"] == []
    nothing = member_client.get(url, {"other": bram.pk, "from": "2026-05-01"})
    assert nothing.context["result"].deals == 0
    assert "within these dates" in nothing.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"from": "2026-13-45"},
        {"to": "x"},
        {"from": "2026-04-01", "to": "2026-03-01"},
        {"from": "٢٠٢٦-٠٣-٠١"},
        {"to": "9" * 5000},
        {"from": "2026-02-30", "to": "' OR 1=1 --"},
    ],
)
def test_head_to_head_refuses_bad_dates_with_a_message(member_client, four, query):
    anne, bram = four[0], four[1]
    url = reverse("players:versus", args=[anne.pk])
    response = member_client.get(url, {"other": bram.pk, **query})
    assert response.status_code == 200
    assert response.context["result"] is None
    assert 'role="alert"' in response.content.decode()


def _page_queries(client, player, query=""):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("players:detail", args=[player.pk]) + query
    client.get(url)  # the first view rates the games the ratings had not seen yet
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


def _club(make_players, names, *, deals: int, tournaments: int):
    from tarotclub.demo.builders import make_tournament, play_round
    from tarotclub.demo.history import tarot_history
    from tarotclub.tournaments import services as tournament_services

    players = make_players(*names)
    tarot_history(players, deals=deals)
    for _ in range(tournaments):
        t, _others = make_tournament(7, rounds=2, deals=1)
        tournament_services.entry_register(tournament=t, player=players[0])
        t = tournament_services.tournament_start(tournament=t)
        play_round(t)
    return players[0]


#: The player page's queries: session and user, the player, games with seats and records,
#: each kind's totals (here French Tarot's), tournaments and their standings (3), the days of
#: the games and the deals' compact rows; the ratings' two staleness reads, the player's
#: rating, its history and how many are ahead of it.
PAGE_QUERIES = 18


@pytest.mark.parametrize("query", ["", "?size=4&from=2026-01-01&to=2026-12-31"])
def test_the_page_takes_the_same_queries_for_10_and_1000_deals(member_client, make_players, query):
    small = _club(make_players, ("Anne", "Bram", "Chloé", "Dirk", "Eva"), deals=10, tournaments=1)
    big = _club(make_players, ("Fien", "Gilles", "Hanne", "Ivo", "Joke"), deals=1000, tournaments=3)
    few, response = _page_queries(member_client, small, query)
    assert sum(response.context["tarot"]["stats"].by_size.values()) >= 10
    many, response = _page_queries(member_client, big, query)
    assert sum(response.context["tarot"]["stats"].by_size.values()) >= 1000
    assert len(response.context["tournaments"]) == 3
    assert response.context["rating"]["games"] >= 3  # the rated tournament tables, charted
    assert "<svg" in str(response.context["rating"]["chart"])
    assert few == many == PAGE_QUERIES, f"{few} queries for 10 deals, {many} for 1,000"


def test_names_link_to_the_players_pages_for_members_only(client, member, game4, four):
    play(game4, four[0])
    url = reverse("players:detail", args=[four[0].pk])
    standings = reverse("games:standings_kind", args=["tarot"])
    assert f'href="{url}"' not in client.get(standings).content.decode()
    client.force_login(member)
    assert f'href="{url}"' in client.get(standings).content.decode()
    assert f'href="{url}"' in client.get(reverse("players:list")).content.decode()
    assert f'href="{url}"' in client.get(reverse("games:standings")).content.decode()


def test_the_edit_page_moved_under_the_player_page(member_client, four):
    anne = four[0]
    assert (
        reverse("players:edit", args=[anne.pk])
        == reverse("players:detail", args=[anne.pk]) + "edit/"
    )
    assert anne.get_absolute_url() == reverse("players:detail", args=[anne.pk])
    page = member_client.get(reverse("players:detail", args=[anne.pk])).content.decode()
    assert f'href="{reverse("players:edit", args=[anne.pk])}"' in page


def _duplicates(count: int, score_of):
    """`count` finished duplicate tournaments of 2 tables (2 rounds), the same 8 players."""
    from tarotclub.tournaments import services as tournament_services
    from tests.tournaments.duplicate_helpers import make_duplicate, play_duplicate_round

    t, players = make_duplicate(2, rounds=2)
    made = [t]
    for _ in range(count - 1):
        other = tournament_services.tournament_create(
            name="Duplicate again",
            date=t.date,
            rounds=2,
            deals_per_round=4,
            format="duplicate",
            tables=2,
        )
        for p in players:
            tournament_services.entry_register(tournament=other, player=p)
        made.append(other)
    for t in made:
        tournament_services.tournament_start(tournament=t)
        play_duplicate_round(t, score_of)
        tournament_services.tournament_next_round(tournament=t)
        play_duplicate_round(t, score_of)
    return made, players


def test_a_duplicate_tournament_shows_the_alternating_place_and_overall(member_client):
    """Not a place from summed scores: the one that counts (duplicate.md 1.9), and the
    player's overall %, as the tournament's rankings page says."""
    from tarotclub.players.pages import percent2
    from tarotclub.tournaments import duplicate

    (t,), players = _duplicates(1, lambda board, rnd, table: 50 + 10 * table + 4 * board)
    g = duplicate.graded(t)
    for player in players:
        response = member_client.get(reverse("players:detail", args=[player.pk]))
        (item,) = response.context["tournaments"]
        seat = next(s for s, e in g.entries.items() if e.player_id == player.pk)
        assert item["line"].place == g.session.alternating.index(seat) + 1
        assert item["line"].entrants == 8
        assert item["overall"] == percent2(g.session.records[seat].overall)
        assert item["overall"] in response.content.decode()
    summary = response.context["tournament_summary"]
    assert summary["count"] == 1 and summary["average_round"] == ""  # boards are no rounds


def test_the_page_takes_the_same_queries_for_1_and_3_duplicate_tournaments(member_client):
    few_t, few_players = _duplicates(1, lambda board, rnd, table: 50 + 20 * table)
    many_t, many_players = _duplicates(3, lambda board, rnd, table: 60 + 20 * table)
    few, _ = _page_queries(member_client, few_players[0])
    many, response = _page_queries(member_client, many_players[0])
    assert len(response.context["tournaments"]) == 3
    assert all(item["overall"] for item in response.context["tournaments"])
    assert few == many
