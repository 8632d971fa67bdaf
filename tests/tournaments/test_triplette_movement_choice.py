"""The director chooses the triplettes' movement (Stay or Howell) before the start; the start
stores it as data and seating, boards, imposed attackers, grading and rankings follow it
(duplicate.md 1.6, 2.2, open question 6)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from scoring import triplette as rules
from scoring.duplicate import TOP
from scoring.movement import movement as individual_movement
from tarotclub.core.models import LogEntry
from tarotclub.tournaments import duplicate, services, triplette, triplette_services
from tarotclub.tournaments.models import Status, Table, Tournament

from .triplette_helpers import make_triplette, play_triplette_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def _choose(t, kind):
    return triplette_services.triplette_choose_movement(tournament=t, kind=kind)


def test_stay_is_the_default_and_the_choice_leaves_history():
    t, _teams = make_triplette(8, rounds=2)
    assert t.triplette_movement == "stay"
    _choose(t, "howell")
    t.refresh_from_db()
    assert t.triplette_movement == "howell"
    log = LogEntry.objects.get(action=triplette_services.MOVEMENT_CHOSEN)
    assert (log.before, log.after) == ({"movement": "stay"}, {"movement": "howell"})
    # the same choice again (a double tap) changes nothing and logs nothing more
    _choose(t, "howell")
    assert LogEntry.objects.filter(action=triplette_services.MOVEMENT_CHOSEN).count() == 1


@pytest.mark.parametrize("kind", ["", "mitchell", "HOWELL", None, "stay' OR 1=1", "x" * 500])
def test_a_bad_kind_is_refused(kind):
    t, _teams = make_triplette(8, rounds=2)
    with pytest.raises(services.TournamentError) as e:
        _choose(t, kind)
    assert e.value.message == triplette_services.ERR_MOVEMENT
    t.refresh_from_db()
    assert t.triplette_movement == "stay"


@pytest.mark.parametrize("teams", [4, 6, 10])
def test_howell_is_refused_where_none_exists(teams):
    t, _teams = make_triplette(teams, rounds=2)
    with pytest.raises(services.TournamentError) as e:
        _choose(t, "howell")
    assert e.value.message == triplette_services.ERR_HOWELL_SIZE
    assert e.value.params == {"teams": teams}
    t.refresh_from_db()
    assert t.triplette_movement == "stay"
    assert not LogEntry.objects.filter(action=triplette_services.MOVEMENT_CHOSEN).exists()


def test_howell_chosen_then_teams_removed_is_refused_at_the_start():
    t, _teams = make_triplette(8, rounds=2)
    _choose(t, "howell")
    triplette_services.triplette_remove(tournament=t, team="Team 7")
    triplette_services.triplette_remove(tournament=t, team="Team 8")
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert "Howell" in str(e.value.messages[0])
    t.refresh_from_db()
    assert t.status == Status.REGISTRATION and t.movement == {} and not Table.objects.exists()


def test_the_choice_is_refused_once_started_and_for_other_tournaments():
    t, _teams = make_triplette(8, rounds=2)
    services.tournament_start(tournament=t)
    with pytest.raises(services.TournamentError) as e:
        _choose(t, "howell")
    assert e.value.message == services.ERR_NOT_REGISTRATION
    t.refresh_from_db()
    assert t.triplette_movement == "stay" and t.movement["kind"] == "stay"
    other = Tournament.objects.create(name="Free", date=t.date)
    with pytest.raises(services.TournamentError) as e:
        _choose(other, "howell")
    assert e.value.message == triplette_services.ERR_NOT_TRIPLETTE


def test_howell_rounds_go_up_to_teams_less_one():
    t, _teams = make_triplette(8, rounds=8)
    _choose(t, "howell")
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert e.value.message == services.ERR_TRIPLETTE_ROUNDS
    assert e.value.params == {"rounds": 8, "teams": 8, "most": 7}


def _seated_teams(t, g):
    """Each (round, table): the keys of the team seated N-S and the one seated E-W, read from
    the games' seats (3 then 3)."""
    team_of = {e.player_id: key for key, (_n, ms) in g.keys.items() for e in ms}
    out = {}
    for table in Table.objects.filter(tournament=t).select_related("game"):
        seated = [s.player_id for s in table.game.seats.order_by("position")]
        ns, ew = {team_of[p] for p in seated[:3]}, {team_of[p] for p in seated[3:]}
        assert len(ns) == len(ew) == 1
        out[(table.round, table.number)] = (ns.pop(), ew.pop(), table.game.options)
    return out


def test_a_howell_tournament_of_eight_teams_from_start_to_rankings():
    t, _teams = make_triplette(8, rounds=7, boards=4, seed=5)
    _choose(t, "howell")
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    assert t.movement["kind"] == "howell" and t.table_count == 4
    for _r in range(7):
        play_triplette_round(
            t, lambda board, rnd, table: 50 + 2 * ((board * 7 + rnd * 3 + table) % 15)
        )
        t.refresh_from_db()
        if t.current_round < 7:
            services.tournament_next_round(tournament=t)
    g = triplette.graded(t)
    seated = _seated_teams(t, g)
    assert len(seated) == 7 * 4
    # every two teams meet exactly once, and the seats follow the stored movement
    meetings = Counter(frozenset((ns, ew)) for ns, ew, _o in seated.values())
    assert len(meetings) == 8 * 7 // 2 and set(meetings.values()) == {1}
    for r in range(1, 8):
        for table, _set, ns, ew in rules.table_teams(g.movement, r):
            assert seated[(r, table)][:2] == (ns, ew)
    # some team sits on the other line than its starting one (Howell changes lines)
    assert any(ns[0] == "EW" for ns, _ew, _o in seated.values())
    # nobody plays a board twice
    played = Counter()
    for ns, ew, options in seated.values():
        for b in options["boards"]:
            played[(ns, b)] += 1
            played[(ew, b)] += 1
    assert max(played.values()) == 1
    # the imposed attacker belongs to the team seated on the board's attacking line, and each
    # team's badges rotate on from the colour drawn, board after board (round, then board)
    badge_of = {e.player_id: e.badge for _n, ms in g.keys.values() for e in ms}
    team_of = {e.player_id: key for key, (_n, ms) in g.keys.items() for e in ms}
    attacks: dict = {}
    for _where, (ns, ew, options) in sorted(seated.items()):
        for board, (taker, _c) in sorted(zip(options["boards"], options["imposed"], strict=True)):
            attacking = ns if rules.attacking_line(board) == "NS" else ew
            assert team_of[taker] == attacking
            attacks.setdefault(attacking, []).append(badge_of[taker])
    for badges in attacks.values():
        assert badges == [rules.attacker_badge(t.first_colour, k) for k in range(len(badges))]
    # grading: each board among its 4 plays (each set played once at each of 4 tables)
    by_board = Counter(p.board for p in g.plays)
    assert len(by_board) == 7 * 4 and set(by_board.values()) == {4}
    for b in triplette.boards(g):
        rows = triplette.grading_rows(g, b)
        assert sum(r["attack"] for r in rows) == Fraction(TOP, 2) * len(rows)
        assert all(r["attack"] + r["defence"] == TOP for r in rows)
    res = g.results
    for key in g.keys:
        assert res.overall[key] == (res.attack[key] + res.defence[key]) / 2
    # rankings: all 8 in the general one; the alternating one alternates the starting lines
    general = triplette.ranking_rows(g, "general")
    alternating = triplette.ranking_rows(g, "alternating")
    assert sorted(r["key"] for r in general) == sorted(g.keys)
    assert [r["overall"] for r in general] == sorted((r["overall"] for r in general), reverse=True)
    lines = [r["key"][0] for r in alternating]
    assert lines.count("NS") == lines.count("EW") == 4
    assert all(lines[i] != lines[i + 1] for i in range(0, 8, 2))
    for line in ("NS", "EW"):
        mine = [r["overall"] for r in alternating if r["key"][0] == line]
        assert mine == sorted(mine, reverse=True)


def test_stay_at_three_tables_repeats_no_meeting():
    """The old movement kept the E-W teams of 3 tables at their table (every pair met again
    each round); Stay moves them."""
    t, _teams = make_triplette(6, rounds=3)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    m = triplette.stored_movement(t)
    assert m.kind == "stay" and m.repeats() == 0
    old = rules.from_individual(individual_movement(3, 3))
    assert old.repeats() == 6


def test_a_tournament_started_before_the_choice_is_read_as_it_was():
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    old = individual_movement(2, 2)
    Tournament.objects.filter(pk=t.pk).update(movement=duplicate.movement_data(old))
    t.refresh_from_db()
    m = triplette.stored_movement(t)
    assert m == rules.from_individual(old)
    assert triplette.graded(t) is not None


def test_the_cards_pdf_before_the_start_is_not_found(director_client):
    t, _teams = make_triplette(8, rounds=2)
    r = director_client.get(reverse("tournaments:triplette_cards_pdf", args=[t.pk]))
    assert r.status_code == 404


def test_the_teams_page_chooses_and_refuses(director_client):
    t, _teams = make_triplette(6, rounds=2)
    url = reverse("tournaments:triplette_teams", args=[t.pk])
    page = director_client.get(url).content.decode()
    assert 'value="howell" disabled' in page
    r = director_client.post(url, {"movement": "howell"}, follow=True)
    assert r.status_code == 200
    assert "There is no Howell movement for 6 triplettes" in r.content.decode()
    r = director_client.post(url, {"movement": "<script>"}, follow=True)
    assert r.status_code == 200 and "Choose the movement Stay or Howell." in r.content.decode()
    t.refresh_from_db()
    assert t.triplette_movement == "stay"


@pytest.mark.django_db(transaction=True)
def test_choosing_howell_while_another_phone_starts(django_user_model):
    """Two phones at once: one chooses Howell, the other starts. Either order, no server
    error, and the movement stored is the one chosen when the start ran."""
    from .test_concurrency import logged_in, together

    director = django_user_model.objects.create_user(
        username="director", password="pw-director-1", is_staff=True
    )
    t, _teams = make_triplette(8, rounds=2)
    a, b = logged_in(director), logged_in(director)
    teams_url = reverse("tournaments:triplette_teams", args=[t.pk])
    start_url = reverse("tournaments:start", args=[t.pk])
    responses = together(
        lambda: a.post(teams_url, {"movement": "howell"}),
        lambda: b.post(start_url, {"from_round": "0"}),
    )
    assert [r.status_code for r in responses] == [302, 302]
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    chosen = LogEntry.objects.filter(action=triplette_services.MOVEMENT_CHOSEN).exists()
    assert t.movement["kind"] == ("howell" if chosen else "stay")
    assert t.triplette_movement == t.movement["kind"]


def test_position_cards_and_movement_cards_give_each_rounds_line(director_client):
    from tarotclub.tournaments.selectors import position_cards

    t, _teams = make_triplette(8, rounds=3)
    _choose(t, "howell")
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    g = triplette.graded(t)
    cards = {c["name"]: c for c in triplette.card_rows(g)}
    by_player = {c.name: c for c in position_cards(t)}
    changed = 0
    for key, (name, members) in g.keys.items():
        card = cards[name]
        assert [r["round"] for r in card["rounds"]] == [1, 2, 3]
        # round 1: the team's key is its starting line and table
        assert card["rounds"][0]["table"] == key[1]
        assert card["rounds"][0]["line"] == ("North-South" if key[0] == "NS" else "East-West")
        for e in members:
            rounds = by_player[e.player.name].rounds
            assert [(r.table, r.seat) for r in rounds] == [
                (r["table"], r["line"]) for r in card["rounds"]
            ]
        changed += len({r["line"] for r in card["rounds"]}) > 1
    assert changed  # Howell moved some team to the other line
    r = director_client.get(reverse("tournaments:triplette_cards_pdf", args=[t.pk]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")
    page = director_client.get(reverse("tournaments:triplette_teams", args=[t.pk])).content
    assert reverse("tournaments:triplette_cards_pdf", args=[t.pk]).encode() in page
