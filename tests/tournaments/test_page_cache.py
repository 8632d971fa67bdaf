"""Issue 12: the standings, projector and director pages are cached by the tournament's
revision key and answer a conditional GET with 304; every write that changes what they show
moves the key, so a cached page or a browser's copy is never stale."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.services import player_create, player_update
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Entry, Ranking, Table

from .helpers import make_tournament, play_table

pytestmark = pytest.mark.django_db

PAGES = ["standings", "projector", "projector_screen", "manage", "manage_tables"]
#: Each response masks the CSRF token anew: the same page twice differs only there.
_TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def url(name: str, t) -> str:
    return reverse(f"tournaments:{name}", args=[t.pk])


def body(response) -> str:
    return _TOKEN.sub(r"\1-", response.content.decode())


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    c.get("/")  # the CSRF cookie is set once: the pages' ETags then stay the same
    return c


def tables(t, round_number=None):
    return list(
        Table.objects.filter(tournament=t, round=round_number or t.current_round).order_by("number")
    )


def add_deal(table: Table, points: int = 56) -> None:
    game = table.game
    players = [s.player for s in game.seats.order_by("position")]
    done = game.deals.count()
    dealer = tarot.dealer_for(game, done + 1, players)
    taker = next(p for p in players if p.pk != dealer.pk)
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=points)
    )


def correct_first_deal(table: Table, user=None) -> None:
    deal = Deal.objects.get(game=table.game, number=1)
    tarot.deal_correct(
        deal=deal,
        data=tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=2, points=70),
        expected_version=deal.version,
        user=user,
    )


def confirm_round(t) -> None:
    for table in tables(t):
        play_table(table, confirm=not table.game.locked)


def staff():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(is_staff=True).first()


#: (what, prepare, write): `prepare` runs before the pages are read and cached.
WRITES = [
    ("a deal saved at a table", lambda t: None, lambda t: add_deal(tables(t)[1])),
    ("a correction", lambda t: None, lambda t: correct_first_deal(tables(t)[1])),
    (
        "a deal undone",
        lambda t: None,
        lambda t: tarot.deal_undo_last(game=tables(t)[1].game, number=1),
    ),
    (
        "a sheet confirmed",
        lambda t: play_table(tables(t)[1], confirm=False),
        lambda t: services.table_confirm(table=tables(t)[1]),
    ),
    (
        "a sheet unlocked",
        lambda t: None,
        lambda t: services.table_unlock(table=tables(t)[0], user=staff()),
    ),
    (
        "a correction in an earlier round",
        lambda t: (
            confirm_round(t),
            services.tournament_next_round(tournament=t),
            services.table_unlock(table=tables(t, 1)[0], user=staff()),
        ),
        lambda t: correct_first_deal(tables(t, 1)[0], user=staff()),
    ),
    (
        "a withdrawal",
        lambda t: None,
        lambda t: services.entry_withdraw(entry=Entry.objects.filter(tournament=t).last()),
    ),
    (
        "a late registration",
        lambda t: None,
        lambda t: services.entry_register(tournament=t, player=player_create(name="Late")),
    ),
    (
        "a new round",
        confirm_round,
        lambda t: services.tournament_next_round(tournament=t),
    ),
    (
        "the ranking changed",
        lambda t: None,
        lambda t: services.tournament_update(tournament=t, ranking=Ranking.AVERAGE),
    ),
    (
        "a player renamed",
        lambda t: None,
        lambda t: player_update(
            player=Entry.objects.filter(tournament=t).first().player, name="Zoë Renamed"
        ),
    ),
]


def running():
    """Round 1 of 3 under way: table 1 confirmed, table 2 with one deal."""
    t, _ = make_tournament(8, rounds=3, deals=2)
    t = services.tournament_start(tournament=t)
    first, second = tables(t)
    play_table(first)
    add_deal(second)
    return t


def key(t) -> str:
    return selectors.tournament_with_key(t.pk)[1]


@pytest.mark.parametrize("what,prepare,write", WRITES, ids=[w[0] for w in WRITES])
def test_a_write_moves_the_key_and_no_page_is_stale(director_client, what, prepare, write):
    t = running()
    prepare(t)
    t.refresh_from_db()
    before = key(t)
    etags = {}
    for name in PAGES:  # read (and cache) every page, twice: the second read is the cached one
        director_client.get(url(name, t))
        etags[name] = director_client.get(url(name, t))["ETag"]
    write(t)
    t.refresh_from_db()
    assert key(t) != before, what
    for name in PAGES:
        again = director_client.get(url(name, t), headers={"If-None-Match": etags[name]})
        assert again.status_code == 200, (what, name)  # the browser's copy is old
        assert again["ETag"] != etags[name], (what, name)
        cache.clear()
        fresh = director_client.get(url(name, t))
        assert body(again) == body(fresh), (what, name)  # what the cache gave is up to date


@pytest.mark.parametrize("name", PAGES)
def test_a_matching_if_none_match_gets_304_without_a_body(director_client, name):
    t = running()
    first = director_client.get(url(name, t))
    assert first.status_code == 200
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    etag = first["ETag"]
    again = director_client.get(url(name, t), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    other = director_client.get(url(name, t), headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200
    assert body(other) == body(first)


def test_the_etag_holds_the_language_and_the_reader(director_client):
    t = running()
    anonymous = Client()
    english = anonymous.get(url("standings", t))
    etag = english["ETag"]
    french = anonymous.get(
        url("standings", t), headers={"If-None-Match": etag, "Accept-Language": "fr"}
    )
    assert french.status_code == 200
    assert "Classement" in french.content.decode()
    # the director's copy (with the "Direct" button) is not the anonymous reader's
    directed = director_client.get(url("standings", t), headers={"If-None-Match": etag})
    assert directed.status_code == 200
    assert reverse("tournaments:manage", args=[t.pk]) in directed.content.decode()


def test_a_page_with_a_message_waiting_is_sent_whole(director_client):
    t = running()
    etag = director_client.get(url("manage", t))["ETag"]
    # a refused action leaves a message for the next page: it must be shown, not a 304
    director_client.post(reverse("tournaments:start", args=[t.pk]), {"from_round": 0})
    shown = director_client.get(url("manage", t), headers={"If-None-Match": etag})
    assert shown.status_code == 200
    assert 'class="messages"' in shown.content.decode()


def test_the_cached_round_section_carries_each_readers_own_csrf_token(director, django_user_model):
    t = running()
    other = django_user_model.objects.create_user(username="d2", password="pw-d2-1", is_staff=True)
    unlock = reverse("tournaments:unlock", args=[t.pk, tables(t)[0].pk])
    posts = []
    for user in (director, other):  # both read the pages (the second from the cache) ...
        c = Client(enforce_csrf_checks=True)
        c.force_login(user)
        c.get("/")  # the CSRF cookie
        for name in ("manage", "manage_tables"):
            page = c.get(url(name, t)).content.decode()
            # the token of the unlock form itself (in the cached round section)
            form = re.search(rf'action="{unlock}">(.*?)</form>', page)[1]
            token = re.search(r'csrfmiddlewaretoken" value="([^"]+)"', form)[1]
            posts.append((c, name, token))
    for c, name, token in posts:  # ... then each unlocks with the token their page held
        response = c.post(unlock, {"csrfmiddlewaretoken": token})
        assert response.status_code == 302, name  # the token was accepted
        services.table_confirm(table=tables(t)[0])


def test_made_up_queries_are_served_but_not_cached_whole(director_client):
    t = running()
    cache.clear()
    for i in range(5):
        response = Client().get(url("standings", t) + f"?utm={i}")
        assert response.status_code == 200
        assert f"utm={i}" in response.content.decode()  # the page's own address (language form)
    # one entry (LocMemCache's own dict): the standings' table, no whole page of a made-up address
    assert len(cache._cache) == 1


@pytest.mark.parametrize("name", PAGES)
def test_a_tournament_number_past_what_the_column_holds_is_not_found(director_client, name):
    running()
    for pk in (2**63, 10**20):  # read by a plain SELECT: SQLite would refuse such a number
        assert director_client.get(reverse(f"tournaments:{name}", args=[pk])).status_code == 404


def test_the_key_read_in_plain_sql_is_the_tournament_as_the_orm_reads_it():
    t = running()
    found, found_key = selectors.tournament_with_key(t.pk)
    fresh = type(t).objects.get(pk=t.pk)
    fields = [f.attname for f in type(t)._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(fresh, f) for f in fields]
    assert found_key.startswith(f"{t.pk}.{fresh.created_at.timestamp():.6f}.")
    assert selectors.tournament_with_key(t.pk + 1000) is None


# --- a 304 only for the very page the reader would get (issue 12) ----------------------------
#
# The revision key is read in plain SQL and the reader's session and user too
# (`core.sessions`, `ClubBackend.get_user`): a browser's copy made for another reader, in
# another language or with a message waiting must still get the whole page.

PUBLIC = ["standings", "projector", "projector_screen"]
LINK = 'class="player-link"'


def readers(director, member) -> dict[str, Client]:
    clients = {"anonymous": Client(), "member": Client(), "director": Client()}
    clients["member"].force_login(member)
    clients["director"].force_login(director)
    for c in clients.values():
        c.get("/")  # the CSRF cookie, as a browser has it
    return clients


@pytest.mark.parametrize("name", PUBLIC)
def test_a_copy_made_for_another_kind_of_reader_is_not_answered_304(director, member, name):
    t = running()
    clients = readers(director, member)
    etags = {who: c.get(url(name, t))["ETag"] for who, c in clients.items()}
    assert len(set(etags.values())) == 3
    for who, c in clients.items():
        assert c.get(url(name, t), headers={"If-None-Match": etags[who]}).status_code == 304
        for other, etag in etags.items():
            if other == who:
                continue
            again = c.get(url(name, t), headers={"If-None-Match": etag})
            assert again.status_code == 200, (who, other)
            page = again.content.decode()
            assert (LINK in page) == (who != "anonymous"), (who, other)  # names link for members
            if name == "standings":  # its header has the director's button
                direct = reverse("tournaments:manage", args=[t.pk])
                assert (direct in page) == (who == "director"), (who, other)


@pytest.mark.parametrize("name", PUBLIC)
def test_the_cache_gives_each_kind_of_reader_their_own_page(director, member, name):
    t = running()
    clients = readers(director, member)
    fresh = {}
    for who, c in clients.items():  # each page rendered anew
        cache.clear()
        fresh[who] = body(c.get(url(name, t)))
    # (the screen, a fragment without the menu, is the same for a member and a director)
    assert len(set(fresh.values())) == (2 if name == "projector_screen" else 3)
    for order in (["anonymous", "member", "director"], ["director", "member", "anonymous"]):
        cache.clear()
        for who in order:  # the first fills the cache, the others read from it
            page = body(clients[who].get(url(name, t)))
            assert page == fresh[who], (order, who)
            assert (LINK in page) == (who != "anonymous"), (order, who)


@pytest.mark.parametrize("name", PAGES)
def test_a_copy_in_another_language_is_not_answered_304(director_client, name):
    t = running()
    english = director_client.get(url(name, t), headers={"Accept-Language": "en"})
    etag = english["ETag"]
    same = director_client.get(
        url(name, t), headers={"If-None-Match": etag, "Accept-Language": "en"}
    )
    assert same.status_code == 304
    for language, word in (("fr", 'lang="fr"'), ("nl", 'lang="nl"')):
        other = director_client.get(
            url(name, t), headers={"If-None-Match": etag, "Accept-Language": language}
        )
        assert other.status_code == 200, (name, language)
        assert other["ETag"] != etag
        if name not in ("projector_screen", "manage_tables"):  # (fragments: no <html>)
            assert word in other.content.decode()


@pytest.mark.parametrize("name", ["standings", "projector", "manage"])
def test_a_page_with_a_message_waiting_is_never_answered_304(director_client, name):
    t = running()
    etag = director_client.get(url(name, t))["ETag"]
    assert director_client.get(url(name, t), headers={"If-None-Match": etag}).status_code == 304
    # a refused action (nothing changes) leaves a message for the next page
    director_client.post(reverse("tournaments:start", args=[t.pk]), {"from_round": 0})
    shown = director_client.get(url(name, t), headers={"If-None-Match": etag})
    assert shown.status_code == 200
    assert 'class="messages"' in shown.content.decode()
    # shown once: the page after it is the browser's copy again
    assert director_client.get(url(name, t), headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("name", ["manage", "manage_tables"])
def test_a_directors_copy_is_no_304_once_the_session_is_over(director_client, name):
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    t = running()
    etag = director_client.get(url(name, t))["ETag"]
    assert director_client.get(url(name, t), headers={"If-None-Match": etag}).status_code == 304
    Session.objects.filter(pk=director_client.session.session_key).update(
        expire_date=timezone.now()
    )
    again = director_client.get(url(name, t), headers={"If-None-Match": etag})
    assert again.status_code == 302 and "login" in again["Location"]


def test_a_staff_account_made_a_member_again_gets_no_directors_copy(director_client, director):
    t = running()
    etag = director_client.get(url("standings", t))["ETag"]
    type(director).objects.filter(pk=director.pk).update(is_staff=False)
    again = director_client.get(url("standings", t), headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert reverse("tournaments:manage", args=[t.pk]) not in again.content.decode()
