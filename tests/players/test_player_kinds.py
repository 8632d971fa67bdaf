"""The other games on the player page and on head to head: the figures their standings compute
(compared with the standings page itself), the trend over time and who finished ahead
(compared with a recount from the replayed games), and constant queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tarotclub.games import kinds
from tarotclub.games.models import Game, Record, Seat
from tarotclub.players import pages, selectors

OTHER_KINDS = ("foolsfaith", "deathspot", "keys", "cuckoo")


def _age(game, days: int) -> None:
    """The game was started `days` ago (no service dates a game)."""
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - dt.timedelta(days=days))


@pytest.fixture
def demo(db, member):
    return other_games(member)


def other_games(user) -> dict:
    """The demo club's other games (its builders), twice, the first time a month ago."""
    from tarotclub.demo.builders import LONG_NAMES, ROSTER, _roster, demo_other_kinds

    players = _roster(ROSTER)
    long_names = _roster(LONG_NAMES)
    first = demo_other_kinds(user, players, long_names)
    for game in first.values():
        _age(game, 30)
    # the second time with the roster turned round: other players, other results
    second = demo_other_kinds(user, players[3:] + players[:3], long_names[1:] + long_names[:1])
    # the demo's Cuckoo match is under way: two more played to their end
    finished = [
        _cuckoo_match(user, [players[16], long_names[0], players[0], players[1]], days=12),
        _cuckoo_match(user, [players[0], players[3], long_names[0], players[5]], days=5),
    ]
    games = [*first.values(), *second.values(), *finished]
    return {"players": players + long_names, "games": games}


def _cuckoo_match(user, seated, *, days: int):
    """A match of one life each: the lowest card goes out, deal after deal, until one is left."""
    from tarotclub.games import services

    game = services.game_start(players=seated, kind="cuckoo", created_by=user, options={"lives": 1})
    alive = list(seated)
    while len(alive) > 1:
        cards = {p.pk: rank for p, rank in zip(alive, ["V", "VII", "IX", "XI"], strict=False)}
        services.record_add(game=game, data={"cards": cards}, user=user)
        alive = alive[1:]
    _age(game, days)
    game.refresh_from_db()
    assert game.finished
    return game


def _kind_section(context, identifier):
    return next((s for s in context["other_kinds"] if s["kind"].identifier == identifier), None)


def _cells(bound_row, table):
    return [
        (str(c.header), str(bound_row.get_cell(c.name)))
        for c in table.columns
        if c.name != "player"
    ]


@pytest.mark.parametrize("identifier", OTHER_KINDS)
def test_the_player_page_shows_the_figures_of_the_kinds_standings(member_client, demo, identifier):
    standings = member_client.get(reverse("games:standings_kind", args=[identifier]))
    table = standings.context["table"]
    rows = list(table.rows)
    assert len(rows) >= 4  # every player of the demo's games has a line
    for bound in rows:
        pk = bound.record["pk"]
        page = member_client.get(reverse("players:detail", args=[pk]))
        section = _kind_section(page.context, identifier)
        assert section is not None, f"no {identifier} section for player {pk}"
        assert section["row"] == bound.record  # the same numbers...
        shown = [(str(f["label"]), str(f["cells"][0])) for f in section["figures"]]
        assert shown == _cells(bound, table)  # ...under the same columns, shown the same way
        html = page.content.decode()
        for _label, cell in shown:
            assert cell in html


def _final_states(player_pk, identifier):
    """Brute force: every casual game of the kind the player sat at, replayed from its
    records by the scoring module itself, with its day."""
    kind = kinds.get(identifier)
    return [
        (timezone.localtime(game.created_at).date(), _replay(game, kind), game.seats.count())
        for game in Game.objects.filter(kind=identifier, seats__player_id=player_pk)
    ]


def _trend_recount(player_pk, identifier):
    daily: dict = {}
    for day, st, _seats in _final_states(player_pk, identifier):
        if identifier == "foolsfaith":
            value = st.cards[player_pk] if st.finished else None
        elif identifier == "deathspot":
            value = st.balances[player_pk] if st.history else None
        elif identifier == "keys":
            value = sum(1 for g in st.games if g.winner == player_pk) if st.games else None
        else:
            value = int(st.winner == player_pk) if st.finished else None
        if value is not None:
            daily[day] = daily.get(day, 0) + value
    running, points = 0, []
    for day in sorted(daily):
        running += daily[day]
        points.append((day, running))
    return points


@pytest.mark.parametrize("identifier", OTHER_KINDS)
def test_the_trend_is_a_recount_of_the_replayed_games(member_client, demo, identifier):
    kind = kinds.get(identifier)
    checked = 0
    for player in demo["players"]:
        expected = _trend_recount(player.pk, identifier)
        page = member_client.get(reverse("players:detail", args=[player.pk]))
        section = _kind_section(page.context, identifier)
        if not expected:
            assert section is None or section["chart"] is None
            continue
        checked += 1
        games = [line.game for line in selectors.player_games(player)]
        (played,) = [p for k, p in selectors.kind_played(games) if k is kind]
        assert pages.kind_trend(kind, played, player.pk) == expected
        chart = str(section["chart"])
        assert "<svg" in chart and 'role="img"' in chart and "<title>" in chart
        assert str(kind.trend_title) in chart
        assert "<table" in chart  # the text alternative: every point as a table
        last = expected[-1][1]
        assert f'<td class="num">{"−" if last < 0 else ""}{abs(last)}</td>' in chart
    assert checked >= 4


def _ahead_recount(identifier, st, a, b, seats):
    """Brute force: who finished ahead in each result of a replayed game, by the rules of
    `results_note` (1: a ahead, -1: b ahead, 0: level)."""

    def cmp(x, y):
        return (x > y) - (x < y)

    if identifier == "foolsfaith":
        if not st.finished:
            return []
        return [cmp((st.winner == a, st.cards[a]), (st.winner == b, st.cards[b]))]
    if identifier == "deathspot":
        return [cmp(st.balances[a], st.balances[b])] if st.history else []
    if identifier == "keys":
        out = []
        for g in st.games:
            if a in g.suits and b in g.suits:
                out.append(
                    cmp((g.winner == a, g.keys.get(a, 0)), (g.winner == b, g.keys.get(b, 0)))
                )
        return out
    if not st.finished:
        return []
    from scoring.cuckoo import places

    final = places(st)
    return [cmp(final.get(b, seats), final.get(a, seats))]


@pytest.mark.parametrize("identifier", OTHER_KINDS)
def test_head_to_head_for_every_kind(member_client, demo, identifier):
    kind = kinds.get(identifier)
    seated = {}
    for game in demo["games"]:
        if game.kind == identifier:
            for s in game.seats.all():
                seated.setdefault(s.player_id, set()).add(game.pk)
    pairs = [(a, b) for a in seated for b in seated if a < b and seated[a] & seated[b]]
    assert pairs
    compared = 0
    for a, b in pairs[:6]:
        page = member_client.get(reverse("players:versus", args=[a]), {"other": b})
        assert page.status_code == 200
        section = next(s for s in page.context["other_kinds"] if s["kind"] is kind)
        assert section["games"] == len(seated[a] & seated[b])
        results = []
        shared = [g for g in Game.objects.filter(pk__in=seated[a] & seated[b])]
        for game in shared:
            st = _replay(game, kind)
            results += _ahead_recount(identifier, st, a, b, game.seats.count())
        met = section["meetings"]
        assert met.results == len(results)
        assert met.first_ahead == results.count(1)
        assert met.second_ahead == results.count(-1)
        assert met.level == results.count(0)
        # their figures side by side: the standings' rows over the shared games only
        played = [kind.load(g, g.records.all()) for g in shared]
        rows = {r["pk"]: r for r in kind.standings_rows(played)}
        table = kind.standings_table(list(rows.values()))
        bound = {r.record["pk"]: r for r in table.rows}
        assert bool(section["figures"]) == bool({a, b} & set(bound))
        compared += bool(section["figures"]) and met.results > 0
        for i, f in enumerate(section["figures"]):
            for j, pk in enumerate((a, b)):
                column = [c for c in table.columns if c.name != "player"][i]
                assert str(f["label"]) == str(column.header)
                expected = str(bound[pk].get_cell(column.name)) if pk in bound else "—"
                assert str(f["cells"][j]) == expected
        html = page.content.decode()
        assert str(kind.verbose_name).replace("'", "&#x27;") in html
    assert compared  # some pairs have results and figures to compare


def _replay(game, kind):
    from tarotclub.games.replayed import rules_order

    seats = list(Seat.objects.filter(game=game).order_by("position"))
    order = rules_order([s.player_id for s in seats], game.first_dealer)
    options = {o.name: (game.options or {}).get(o.name, o.default) for o in kind.options}
    state = kind.rules.start(order, **options)
    for record in Record.objects.filter(game=game).order_by("number"):
        state = kind.rules.step(state, kind.rules_input(record.data))
    return state


def test_head_to_head_without_a_shared_game_of_a_kind(member_client, demo):
    players = demo["players"]
    # players[6] only played Fool's Faith in the demo, players[9] only Death's Pot
    page = member_client.get(
        reverse("players:versus", args=[players[6].pk]), {"other": players[9].pk}
    )
    assert page.status_code == 200
    assert page.context["other_kinds"] == []


# --- constant queries ----------------------------------------------------------------------


def _templates(user, seated):
    """One game of each other kind at these four players' table, through the services: Fool's
    Faith won with challenge cards given, Death's Pot, Keys (two games), Cuckoo played out."""
    from tarotclub.games import services
    from tarotclub.kinds.foolsfaith import services as challenges
    from tarotclub.kinds.foolsfaith.models import Challenge

    a, b, c, d = (p.pk for p in seated)
    ff = services.game_start(players=seated, kind="foolsfaith", created_by=user)
    for tricks in ({a: 5, b: 1, c: 1, d: 1}, {a: 2, b: 2, c: 2, d: 2}, {a: 1, b: 5, c: 1, d: 1}):
        services.record_add(game=ff, data={"tricks": tricks}, user=user)
    challenges.challenges_suggest(user=user)
    sing, joke = Challenge.objects.order_by("order")[:2]
    ff.refresh_from_db()
    challenges.challenges_award(game=ff, awards=[(sing.pk, a), (joke.pk, c)], user=user)
    dp = services.game_start(players=seated, kind="deathspot", created_by=user)
    for data in (
        {"death": c},
        {"excuse": a, "trump1": None, "trump11": d, "tricks": {a: 4, b: 3, c: 3, d: 2}},
    ):
        services.record_add(game=dp, data=data, user=user)
    kk = services.game_start(players=seated, kind="keys", created_by=user)
    for data in (
        {
            "suits": {a: "hearts", b: "spades", c: "diamonds", d: "clubs"},
            "winner": b,
            "keys": {a: 3, c: 1, d: 4},
        },
        {
            "suits": {a: "clubs", b: "hearts", c: "spades", d: "diamonds"},
            "winner": a,
            "keys": {b: 2, c: 2, d: 1},
        },
    ):  # fmt: skip  (the whole table plays each game: the federation of Keys' own rule)
        services.record_add(game=kk, data=data, user=user)
    ck = _cuckoo_match(user, seated, days=0)
    return [ff, dp, kk, ck]


def _copy(template, n: int) -> None:
    """`n` more games like `template` (seats, records, end), in bulk, over `n` evenings."""
    seats = list(template.seats.all())
    records = list(template.records.order_by("number"))
    games = Game.objects.bulk_create(
        Game(
            kind=template.kind,
            first_dealer=template.first_dealer,
            options=template.options,
            finished_at=template.finished_at,
            created_by=template.created_by,
        )
        for _ in range(n)
    )
    Seat.objects.bulk_create(
        Seat(game=g, player_id=s.player_id, position=s.position) for g in games for s in seats
    )
    Record.objects.bulk_create(
        Record(game=g, number=r.number, data=r.data) for g in games for r in records
    )
    now = timezone.now()
    step = max(n // 10, 1)
    for start in range(0, n, step):
        chunk = [g.pk for g in games[start : start + step]]
        Game.objects.filter(pk__in=chunk).update(created_at=now - dt.timedelta(days=1 + start))


def _table_of_four(make_players, member, names, games_per_kind: int):
    seated = make_players(*names)
    for template in _templates(member, seated):
        _copy(template, games_per_kind - 1)
    return seated


def _queries(client, url, params=None):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url, params)  # the first view rates the games the ratings had not seen yet
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, params)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


#: The player page's queries, here: session and user, the player, the ratings' two staleness
#: reads, the games with seats and records (3), the tournaments (none), French Tarot's game
#: days and rows, Fool's Faith's challenge cards (for its standings figures), the rating.
PAGE_QUERIES = 13
#: Head to head: session and user, the player, the form's other player, each player's French
#: Tarot game days and rows (2 each), the shared games with seats and records (3), Fool's
#: Faith's challenge cards, and the roster in the form's list.
VERSUS_QUERIES = 13


def test_the_pages_take_the_same_queries_for_10_and_200_games_of_each_kind(
    member_client, make_players, member
):
    small = _table_of_four(make_players, member, ("Anne", "Bram", "Chloé", "Dirk"), 10)
    big = _table_of_four(make_players, member, ("Fien", "Gilles", "Hanne", "Ivo"), 200)
    counts = {}
    for label, (first, second), size in (("small", small[:2], 10), ("big", big[:2], 200)):
        n, page = _queries(member_client, reverse("players:detail", args=[first.pk]))
        sections = page.context["other_kinds"]
        assert [s["kind"].identifier for s in sections] == list(OTHER_KINDS)
        assert all(s["games"] == size and s["figures"] and s["chart"] for s in sections)
        wins = _kind_section(page.context, "keys")["row"]["won"]
        assert wins == size  # Anne and Fien win the second game of each Keys session
        v, versus = _queries(
            member_client, reverse("players:versus", args=[first.pk]), {"other": second.pk}
        )
        assert [s["meetings"].results for s in versus.context["other_kinds"]] == [
            size, size, 2 * size, size,
        ]  # fmt: skip
        counts[label] = (n, v)
    assert counts["small"] == counts["big"] == (PAGE_QUERIES, VERSUS_QUERIES), counts


def test_the_dates_filter_the_figures_as_they_filter_the_standings(member_client, demo):
    since = (timezone.localdate() - dt.timedelta(days=10)).isoformat()
    for identifier in OTHER_KINDS:
        url = reverse("games:standings_kind", args=[identifier])
        everything = {
            r.record["pk"]: r.record for r in member_client.get(url).context["table"].rows
        }
        recent = member_client.get(url, {"from": since}).context["table"].rows
        assert recent and len(recent) <= len(everything)
        for bound in recent:
            pk = bound.record["pk"]
            page = member_client.get(reverse("players:detail", args=[pk]), {"from": since})
            assert _kind_section(page.context, identifier)["row"] == bound.record
        changed = [b for b in recent if b.record != everything[b.record["pk"]]]
        assert changed or len(recent) < len(everything), identifier  # the older games are out


def test_the_player_page_replays_each_game_once(member_client, demo, monkeypatch):
    from tarotclub.games.replayed import ReplayedKind

    marie = next(p for p in demo["players"] if p.name == "Marie-Christine Vandenbroucke")
    url = reverse("players:detail", args=[marie.pk])
    member_client.get(url)  # the ratings catch up first
    loaded = []
    real = ReplayedKind.load

    def load(self, game, records=None):
        loaded.append(game.pk)
        return real(self, game, records)

    monkeypatch.setattr(ReplayedKind, "load", load)
    page = member_client.get(url)
    games = sum(s["games"] for s in page.context["other_kinds"])
    assert games >= 4
    assert sorted(loaded) == sorted(set(loaded)) and len(loaded) == games
