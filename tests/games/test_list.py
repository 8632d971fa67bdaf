"""The list of games: names, winners or leaders of every kind, filters, paging; archiving a game
started by mistake, and restoring it."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re
import threading
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from tarotclub.games import policy, selectors, services
from tarotclub.games.models import Change, ChangeAction, Game
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.services import DealInput

pytestmark = pytest.mark.django_db

LIST = "/games/"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def garde(players, taker=0):
    return DealInput(
        taker=players[taker].pk,
        contract="garde",
        bouts=2,
        points=Fraction(49),
        petit_au_bout=None,
        poignees=(),
    )


def start(kind, players, user, **options):
    return services.game_start(players=players, kind=kind, created_by=user, options=options)


def rows_text(response) -> str:
    html = response.content.decode()
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0] if "<tbody" in html else ""
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


# --- names, winners and leaders ------------------------------------------------------------


def test_every_kind_shows_its_name_and_its_winner_or_leader(member_client, member, four):
    game = services.game_start(players=four, created_by=member, name="Friday night")
    tarot.deal_add(game=game, data=garde(four, taker=1))
    ff = start("foolsfaith", four[:3], member)
    for _ in range(2):  # Chloé wins two rounds: the game is over
        services.record_add(game=ff, data={"tricks": {four[0].pk: 2, four[1].pk: 2, four[2].pk: 4}})
    dp = start("deathspot", four[:3], member, stake=1)
    services.record_add(game=dp, data={"death": four[2].pk})
    kk = start("keys", four[:2], member)
    ck = start("cuckoo", four[:3], member, lives=3)
    response = member_client.get(LIST)
    assert response.status_code == 200
    text = rows_text(response)
    assert "Friday night" in text
    assert "Leading: Bram" in text  # the taker of a won garde leads the tarot game
    assert "Winner: Chloé" in text  # Fool's Faith, over by the rules
    assert "Leading: Chloé" in text  # Death's Pot: Death took the pot
    assert "Keys of the Kingdom" in text and "Cuckoo" in text
    assert {kk.pk, ck.pk} <= set(Game.objects.values_list("pk", flat=True))


def test_negative_totals_use_the_minus_sign(member_client, member, four):
    game = services.game_start(players=four, created_by=member)
    tarot.deal_add(game=game, data=garde(four))
    text = rows_text(member_client.get(LIST))
    assert "\u2212" in text and not re.search(r"(?<![\w-])-\d", text)


# --- filters ---------------------------------------------------------------------------------


def test_filters_by_kind_player_and_dates(member_client, member, four, make_players):
    (eva,) = make_players("Eva")
    old = services.game_start(players=four, created_by=member, name="Old one")
    Game.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=40))
    services.game_start(players=[*four[1:], eva], created_by=member, name="With Eva")
    start("deathspot", four[:3], member, stake=1)
    by_kind = rows_text(member_client.get(LIST, {"kind": "deathspot"}))
    assert "Death's Pot" in by_kind and "Old one" not in by_kind and "With Eva" not in by_kind
    by_player = rows_text(member_client.get(LIST, {"player": eva.pk}))
    assert "With Eva" in by_player and "Old one" not in by_player
    since = (timezone.localdate() - dt.timedelta(days=7)).isoformat()
    recent = rows_text(member_client.get(LIST, {"from": since}))
    assert "With Eva" in recent and "Old one" not in recent
    until = (timezone.localdate() - dt.timedelta(days=30)).isoformat()
    older = rows_text(member_client.get(LIST, {"to": until}))
    assert "Old one" in older and "With Eva" not in older


@pytest.mark.parametrize(
    "query, message",
    [
        ({"kind": "poker"}, "Choose one of the games"),
        ({"player": "999999"}, "Choose a player from the list"),
        ({"player": "1 OR 1=1"}, "Choose a player from the list"),
        ({"player": "9" * 30}, "Choose a player from the list"),
        ({"from": "2025-02-30"}, "YYYY-MM-DD"),
        ({"from": "yesterday"}, "YYYY-MM-DD"),
        ({"from": "2026-05-02", "to": "2026-05-01"}, "The start date comes after the end date"),
        ({"status": "everything"}, "Choose one of the options"),
        ({"status": "archived"}, "Choose one of the options"),  # nobody archived anything
        ({"page": "-1"}, None),
        ({"page": "9" * 40}, None),
        ({"kind": "<script>alert(1)</script>"}, "Choose one of the games"),
    ],
)
def test_hostile_filters_get_a_clear_message_never_a_500(member_client, game4, query, message):
    response = member_client.get(LIST, query)
    html = response.content.decode()
    if message is None:  # a bad page number shows a page
        assert response.status_code == 200
    else:
        assert response.status_code == 400
        assert message in html
        assert "The filters were not applied" in html
    assert "<script>" not in html.split("<main", 1)[-1].split("</main>")[0] or message is None


def test_paging_shows_twenty_games_a_page(member_client, member, four):
    for i in range(25):
        services.game_start(players=four, created_by=member, name=f"Game {i:02d}")
    first = rows_text(member_client.get(LIST))
    second = rows_text(member_client.get(LIST, {"page": "2"}))
    assert first.count("Game ") == 20 and second.count("Game ") == 5
    assert "Game 24" in first and "Game 00" in second
    past_the_end = member_client.get(LIST, {"page": "7"})
    assert past_the_end.status_code == 200 and "Game 00" in rows_text(past_the_end)


def test_the_list_reads_a_constant_number_of_queries(member_client, member, four):
    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert member_client.get(LIST).status_code == 200
        return len(ctx.captured_queries)

    def one_of_each():
        game = services.game_start(players=four, created_by=member)
        tarot.deal_add(game=game, data=garde(four))
        dp = start("deathspot", four[:3], member, stake=1)
        services.record_add(game=dp, data={"death": four[0].pk})
        start("foolsfaith", four[:3], member)
        start("keys", four[:2], member)
        start("cuckoo", four[:3], member, lives=3)

    one_of_each()
    few = count()
    for _ in range(3):
        one_of_each()
    assert count() == few
    assert few <= 14


# --- archive and restore -------------------------------------------------------------------


def test_the_creator_archives_a_game_and_it_leaves_lists_and_standings(member_client, member, four):
    game = services.game_start(players=four, created_by=member, name="Started by mistake")
    tarot.deal_add(game=game, data=garde(four))
    dp = start("deathspot", four[:3], member, stake=1)
    services.record_add(game=dp, data={"death": four[0].pk})
    response = member_client.post(reverse("games:archive", args=[game.token]))
    assert response.status_code == 302
    member_client.post(reverse("games:archive", args=[dp.token]))
    game.refresh_from_db()
    assert game.archived_at is not None
    assert "Started by mistake" not in rows_text(member_client.get(LIST))
    assert not selectors.game_list().filter(pk=game.pk).exists()
    from tarotclub.games import kinds

    rows, _table, _played = kinds.get("tarot").standings()
    assert rows == []
    rows, _table, played = kinds.get("deathspot").standings()
    assert rows == [] and played == []
    assert game not in selectors.games_in_progress(kinds.all_kinds())
    # kept in the history, with who did it
    change = Change.objects.filter(game=game).first()
    assert change.action == ChangeAction.ARCHIVED and change.user == member
    history = member_client.get(reverse("games:history", args=[game.token]))
    assert "archived" in history.content.decode()
    # its creator finds it under the archived filter, and restores it
    archived = rows_text(member_client.get(LIST, {"status": "archived"}))
    assert "Started by mistake" in archived
    member_client.post(reverse("games:restore", args=[game.token]))
    game.refresh_from_db()
    assert game.archived_at is None
    assert "Started by mistake" in rows_text(member_client.get(LIST))
    assert Change.objects.filter(game=game, action=ChangeAction.RESTORED).count() == 1


def test_an_archived_game_takes_no_entry(member, four):
    game = services.game_start(players=four, created_by=member)
    services.game_archive(game=game, user=member)
    game.refresh_from_db()
    verdict = policy.check(game, policy.DEAL, user=member)
    assert not verdict and "archived" in verdict.reason
    with pytest.raises(services.GameError):
        tarot.deal_add(game=game, data=garde(four))


def test_only_the_creator_or_a_director_archives(client, member, director, four, django_user_model):
    other = django_user_model.objects.create_user(username="other", password="pw-other-1")
    game = services.game_start(players=four, created_by=member)
    client.force_login(other)
    response = client.post(reverse("games:archive", args=[game.token]))
    assert response.status_code == 403 or response.status_code == 302
    game.refresh_from_db()
    assert game.archived_at is None
    assert not policy.may_archive(game, user=other)
    assert not policy.may_archive(game, user=None)
    with pytest.raises(services.GameError) as e:
        services.game_archive(game=game, user=other)
    assert "creator" in str(e.value.messages[0])
    # the other member does not see it among the archived games either
    services.game_archive(game=game, user=director)
    assert "archived" not in rows_text(client.get(LIST, {"status": "archived"}))
    assert rows_text(client.get(LIST, {"status": "archived"})).count("#") == 0
    with pytest.raises(services.GameError):
        services.game_restore(game=game, user=other)
    services.game_restore(game=game, user=director)
    game.refresh_from_db()
    assert game.archived_at is None


def test_archiving_needs_a_login_and_a_post(client, member, game4):
    url = reverse("games:archive", args=[game4.token])
    response = client.post(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(member)
    assert client.get(url).status_code == 405
    game4.refresh_from_db()
    assert game4.archived_at is None


def test_a_tournament_table_is_not_archived_from_here(member, director, four):
    game = services.game_start(players=four, created_by=member)

    def table(g):
        return policy.EventTable(round_over=False, event_finished=False)

    policy.register_event_lookup(table)
    try:
        assert not policy.may_archive(game, user=director)
    finally:
        policy._event_lookups.remove(table)


def test_a_double_tap_archives_once(member_client, member, game4):
    url = reverse("games:archive", args=[game4.token])
    first = member_client.post(url)
    second = member_client.post(url)
    assert first.status_code == second.status_code == 302
    assert Change.objects.filter(game=game4, action=ChangeAction.ARCHIVED).count() == 1
    services.game_restore(game=game4, user=member)
    services.game_restore(game=game4, user=member)
    assert Change.objects.filter(game=game4, action=ChangeAction.RESTORED).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_archiving_at_once_leave_one_history_entry(member, four):
    game = services.game_start(players=four, created_by=member)
    errors = []

    def tap():
        try:
            services.game_archive(game=Game.objects.get(pk=game.pk), user=member)
        except Exception as e:  # noqa: BLE001 - collected for the assertion
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Change.objects.filter(game=game, action=ChangeAction.ARCHIVED).count() == 1
    assert errors == []  # the second tap finds the game archived already: nothing to do


def test_the_sheet_offers_archive_and_restore_to_who_may(client, member, four, django_user_model):
    game = services.game_start(players=four, created_by=member)
    sheet = reverse("games:sheet", args=[game.token])
    assert "Archive this game" not in client.get(sheet).content.decode()  # a share-link phone
    other = django_user_model.objects.create_user(username="other", password="pw-other-1")
    client.force_login(other)
    assert "Archive this game" not in client.get(sheet).content.decode()
    client.force_login(member)
    assert "Archive this game" in client.get(sheet).content.decode()
    services.game_archive(game=game, user=member)
    html = client.get(sheet).content.decode()
    assert "This game is archived." in html and "Restore this game" in html
    assert "Archive this game" not in html


def test_games_in_range_counts_the_days_of_the_clubs_clock(four):
    """A game started late in the evening belongs to that day (Europe/Paris), not to the UTC
    date, at both ends of the range; the first and last minutes of the range count."""
    import datetime as dt

    from django.utils import timezone

    from tarotclub.games import kinds
    from tarotclub.games.models import Game
    from tarotclub.games.selectors import games_in_range
    from tarotclub.games.services import game_start

    paris = timezone.get_default_timezone()
    at = {
        "before": dt.datetime(2026, 3, 9, 23, 59, tzinfo=paris),
        "first minute": dt.datetime(2026, 3, 10, 0, 0, tzinfo=paris),  # 23:00 UTC the day before
        "late": dt.datetime(2026, 3, 12, 23, 30, tzinfo=paris),  # 22:30 UTC, the same day
        "after": dt.datetime(2026, 3, 13, 0, 30, tzinfo=paris),  # 23:30 UTC on the 12th
    }
    pks = {}
    for label, when in at.items():
        game = game_start(players=four, kind="keys")
        Game.objects.filter(pk=game.pk).update(created_at=when)
        pks[game.pk] = label
    keys = kinds.get("keys")
    found = {pks[g.pk] for g in games_in_range(keys, dt.date(2026, 3, 10), dt.date(2026, 3, 12))}
    assert found == {"first minute", "late"}
    assert {pks[g.pk] for g in games_in_range(keys, None, dt.date(2026, 3, 9))} == {"before"}
    assert {pks[g.pk] for g in games_in_range(keys, dt.date(2026, 3, 13))} == {"after"}
    assert len(games_in_range(keys, None, dt.date.max)) == 4  # the last day there is
