"""The reads and writes of a save, made lean for speed (issue 12), still give what the ORM gave.

`game_by_token`, `lock_game` and `table_state` run plain SQL (the ORM's compiling cost more than
the statements): each must return exactly what the equivalent ORM read returns, on SQLite and
on PostgreSQL, for every field.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import DatabaseError, transaction
from django.db.transaction import TransactionManagementError
from django.urls import reverse
from django.utils import timezone

from tarotclub.games import selectors
from tarotclub.games import services as games
from tarotclub.games.forms import BigChoiceField
from tarotclub.games.models import Change, Game, Seat
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.forms import DealForm
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import services as tournaments
from tarotclub.tournaments.models import Status, Table
from tarotclub.tournaments.selectors import table_state

from ..tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db


def _values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def odd_game(four, member):
    """A game whose every field holds something unusual: options, dates, flags, a renamed
    player with a nickname, a user."""
    game = games.game_start(
        players=four, first_dealer=2, created_by=member, name="Vendredi", options={"deals": 7}
    )
    Game.objects.filter(pk=game.pk).update(
        locked=True,
        finished_at=timezone.now() - dt.timedelta(hours=1),
        archived_at=timezone.now(),
        revision=41,
    )
    four[1].nickname = "Bébé"
    four[1].save()
    return Game.objects.get(pk=game.pk)


def test_game_by_token_reads_what_the_orm_reads(odd_game):
    game = selectors.game_by_token(odd_game.token)
    assert _values(game) == _values(Game.objects.get(pk=odd_game.pk))
    assert isinstance(game.options, dict) and game.options == {"deals": 7}
    assert game.finished_at.tzinfo is not None
    seats = game._prefetched_objects_cache["seats"]
    expected = list(Seat.objects.filter(game=odd_game).order_by("position"))
    assert [_values(s) for s in seats] == [_values(s) for s in expected]
    assert [_values(s.player) for s in seats] == [_values(s.player) for s in expected]
    assert all(s.game is game for s in seats)
    assert [p.label for p in selectors.seat_players(game)] == [
        p.label for p in selectors.seat_players(Game.objects.get(pk=odd_game.pk))
    ]
    # saved as it was read: nothing changes
    game.save()
    assert _values(Game.objects.get(pk=odd_game.pk)) == _values(game)


def test_game_by_token_without_such_a_game(odd_game):
    assert selectors.game_by_token("no-such-token") is None
    assert selectors.game_by_token("") is None
    assert selectors.game_by_token("x" * 33) is None


def test_game_by_token_of_a_game_without_seats(odd_game):
    bare = Game.objects.create(kind="tarot")
    game = selectors.game_by_token(bare.token)
    assert _values(game) == _values(Game.objects.get(pk=bare.pk))
    assert selectors.seat_players(game) == []


def test_lock_game_reads_the_game_and_counts_under_the_lock(odd_game):
    with transaction.atomic():
        locked = games.lock_game(odd_game, count_of=Deal)
    assert _values(locked) == _values(Game.objects.get(pk=odd_game.pk))
    assert locked.entry_count == 0


def test_lock_game_counts_the_entries(four):
    game = games.game_start(players=four, first_dealer=0)
    for _ in range(3):
        tarot.deal_add(
            game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
        )
    with transaction.atomic():
        assert games.lock_game(game, count_of=Deal).entry_count == 3
        assert not hasattr(games.lock_game(game), "entry_count")
    # a tally that is not the current one (an older revision's): the deals are counted
    Game.objects.filter(pk=game.pk).update(tally={"count": 9, "totals": {}, "rev": 1})
    with transaction.atomic():
        assert games.lock_game(game, count_of=Deal).entry_count == 3


@pytest.mark.django_db(transaction=True)
def test_lock_game_needs_a_transaction(odd_game):
    with pytest.raises(TransactionManagementError):
        games.lock_game(odd_game)


def test_lock_game_of_a_game_gone(odd_game):
    gone = Game(pk=odd_game.pk + 1000)
    with transaction.atomic(), pytest.raises(games.GameError) as e:
        games.lock_game(gone)
    assert e.value.code == "gone"


def test_table_state_follows_the_tournament():
    t, _players = make_tournament(4, rounds=2, deals=2)
    tournaments.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1)
    state = table_state(table.game)
    assert (state.round_over, state.event_finished) == (False, False)
    t.__class__.objects.filter(pk=t.pk).update(current_round=2)
    assert table_state(table.game).round_over
    t.__class__.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    state = table_state(table.game)
    assert (state.round_over, state.event_finished) == (True, True)


def test_table_state_of_a_casual_game(odd_game):
    assert table_state(odd_game) is None


def _state_under_lock(game):
    from django.db import connection

    from tarotclub.games import policy

    with transaction.atomic():
        locked = games.lock_game(game, count_of=Deal)
        # SQLite: read in the lock's statement; PostgreSQL: after the lock (see lock_game)
        in_one = not connection.features.has_select_for_update
        assert hasattr(locked, policy.EVENT_READ) == in_one
        return policy.event_table(locked)


def test_the_lock_reads_the_tournament_table_state_as_table_state_does(odd_game):
    t, _players = make_tournament(4, rounds=2, deals=2)
    tournaments.tournament_start(tournament=t)
    game = Table.objects.get(tournament=t, round=1).game
    assert _state_under_lock(game) == table_state(game)
    assert not _state_under_lock(game).round_over
    t.__class__.objects.filter(pk=t.pk).update(current_round=2)
    assert _state_under_lock(game) == table_state(game)
    assert _state_under_lock(game).round_over
    t.__class__.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    assert _state_under_lock(game) == table_state(game)
    assert _state_under_lock(game).event_finished
    assert _state_under_lock(odd_game) is None  # a casual game: no table


def test_the_revision_moves_once_per_write(four):
    game = games.game_start(players=four, first_dealer=0)
    before = Game.objects.get(pk=game.pk).revision
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
    )
    assert Game.objects.get(pk=game.pk).revision == before + 1


def test_each_form_has_its_own_choices(four):
    """The fields' copy shares the class's choices: changing one form's must not reach another
    form, nor the class."""
    four = selectors.seat_players(games.game_start(players=four, first_dealer=0))
    base = list(DealForm.base_fields["contract"].choices)
    one = DealForm(players=four, active=four)
    two = DealForm(players=four[:3], active=four[:3])
    one.fields["contract"].choices = [("garde", "G")]
    assert list(two.fields["contract"].choices) == base
    assert list(DealForm.base_fields["contract"].choices) == base
    assert list(one.fields["contract"].widget.choices) == [("garde", "G")]
    assert list(two.fields["contract"].widget.choices) == base
    assert [c for c, _ in one.fields["taker"].choices] == [p.pk for p in four]
    assert [c for c, _ in two.fields["taker"].choices] == [p.pk for p in four[:3]]
    one.fields["contract"].widget.attrs["class"] = "x"
    assert "class" not in two.fields["contract"].widget.attrs
    one.fields["contract"].error_messages["required"] = "x"
    assert two.fields["contract"].error_messages["required"] != "x"
    assert isinstance(one.fields["contract"], BigChoiceField)
    # the bound widget renders its own choices
    assert 'value="garde"' in str(one["contract"]) and 'value="prise"' not in str(one["contract"])
    assert 'value="prise"' in str(two["contract"])


def test_insert_row_stores_what_save_stores(four, member):
    game = games.game_start(players=four, first_dealer=0)
    by_save = Change(game=game, number=3, action="recorded", before=None, after={"a": [1, "é"]})
    by_save.user = member
    by_save.save(force_insert=True)
    fast = Change(game=game, number=3, action="recorded", before=None, after={"a": [1, "é"]})
    fast.user = member
    games.insert_row(fast)
    assert fast.pk is not None and fast.pk != by_save.pk and not fast._state.adding
    stored = {c.pk: _values(c) for c in Change.objects.filter(pk__in=[by_save.pk, fast.pk])}
    one, two = stored[by_save.pk], stored[fast.pk]
    assert abs(one.pop("at") - two.pop("at")) < dt.timedelta(seconds=5)
    assert one.pop("id") != two.pop("id")
    assert one == two and two["after"] == {"a": [1, "é"]}
    assert _values(fast) == _values(Change.objects.get(pk=fast.pk))


def test_update_row_stores_what_save_with_update_fields_stores(four):
    """Two equal deals, one corrected by `save(update_fields=...)`, the other by `update_row`:
    the same values stored, `updated_at` (auto_now) moved on both and set on the object, the
    fields not named left alone; and like `save`, an error when the row is gone."""
    game = games.game_start(players=four, first_dealer=0)
    made = [
        tarot.deal_add(
            game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
        )
        for _ in range(2)
    ]
    by_save, fast = (Deal.objects.get(pk=deal.pk) for deal in made)
    fields = ["taker", "contract", "poignees", "version", "updated_at"]
    for deal in (by_save, fast):
        deal.taker_id, deal.contract, deal.version = four[2].pk, "garde", 7
        deal.poignees = [[four[3].pk, "double"]]
        deal.bouts = 3  # not among the fields: stays as stored
    before = fast.updated_at
    by_save.save(update_fields=fields)
    games.update_row(fast, fields)
    assert fast.updated_at > before
    stored = {d.pk: _values(d) for d in Deal.objects.filter(pk__in=[by_save.pk, fast.pk])}
    one, two = stored[by_save.pk], stored[fast.pk]
    for name in ("id", "number", "dealer_id", "revision", "created_at", "updated_at"):
        one.pop(name), two.pop(name)
    assert one == two
    assert (two["taker_id"], two["contract"], two["version"], two["bouts"]) == (
        four[2].pk,
        "garde",
        7,
        1,
    )
    assert two["poignees"] == [[four[3].pk, "double"]]
    assert Deal.objects.get(pk=fast.pk).updated_at == fast.updated_at
    Deal.objects.filter(pk=fast.pk).delete()
    with pytest.raises(DatabaseError):
        games.update_row(fast, fields)


def test_together_runs_its_parts_in_one_statement_all_or_none(four):
    """PostgreSQL: a save's writes as one statement (data-modifying WITH); a part that fails
    leaves nothing of the others. Elsewhere the writes go one by one (`writes_together`)."""
    from django.db import IntegrityError, connection
    from django.test.utils import CaptureQueriesContext

    if not games.writes_together():
        assert connection.vendor != "postgresql"
        return
    game = games.game_start(players=four, first_dealer=0)
    deal = tarot.deal_add(
        game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
    )
    changes = Change.objects.filter(game=game).count()
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        locked = games.lock_game(game)
        along = games.Together()
        again = Deal(
            game=locked, number=2, dealer=four[1], taker=four[2], contract="prise", bouts=1
        )
        again.points_half = 112
        along.add("again", *games.insert_statement(again))
        games.log_change(locked, "recorded", number=2, along=along)
    assert len([q for q in ctx.captured_queries if "WITH again AS" in q["sql"]]) == 1
    assert Deal.objects.filter(game=game).count() == 2
    assert Change.objects.filter(game=game).count() == changes + 1
    assert Game.objects.get(pk=game.pk).revision == locked.revision
    revision = locked.revision
    with pytest.raises(IntegrityError), transaction.atomic():
        locked = games.lock_game(game)
        along = games.Together()
        twice = Deal(game=locked, number=deal.number, dealer=four[1], taker=four[2], bouts=1)
        twice.points_half = 112
        along.add("twice", *games.insert_statement(twice))  # deal 1 again: refused
        games.log_change(locked, "recorded", number=1, along=along)
    assert Deal.objects.filter(game=game).count() == 2
    assert Change.objects.filter(game=game).count() == changes + 1
    assert Game.objects.get(pk=game.pk).revision == revision


def test_a_new_deal_and_its_lines_as_stored(four):
    game = games.game_start(players=four, first_dealer=1)
    deal = tarot.deal_add(
        game=game,
        data=tarot.DealInput(
            taker=four[2].pk,
            contract="garde",
            bouts=2,
            points=49,
            poignees=((four[2].pk, "simple"),),
        ),
    )
    stored = Deal.objects.get(pk=deal.pk)
    assert _values(stored) == _values(deal)
    assert stored.poignees == [[four[2].pk, "simple"]] and stored.dealer_id == four[1].pk
    lines = {line.player_id: line.score for line in stored.lines.all()}
    assert set(lines) == {p.pk for p in four} and sum(lines.values()) == 0
    assert lines[four[2].pk] > 0
    change = Change.objects.get(game=game, number=1)
    assert change.after["scores"] == {str(pk): score for pk, score in lines.items()}


def test_a_correction_rewrites_the_lines_and_keeps_the_old_ones_in_history(four):
    game = games.game_start(players=four, first_dealer=0)
    first = tarot.deal_add(
        game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
    )
    old = {line.player_id: line.score for line in first.lines.all()}
    line_pks = set(first.lines.values_list("pk", flat=True))
    tarot.deal_correct(
        deal=first,
        data=tarot.DealInput(taker=four[2].pk, contract="garde", bouts=3, points=40),
        expected_version=1,
    )
    stored = Deal.objects.get(pk=first.pk)
    assert (stored.taker_id, stored.contract, stored.bouts, stored.version) == (
        four[2].pk,
        "garde",
        3,
        2,
    )
    assert stored.updated_at > first.updated_at
    new = {line.player_id: line.score for line in stored.lines.all()}
    assert set(stored.lines.values_list("pk", flat=True)) == line_pks  # updated in place
    assert new != old and sum(new.values()) == 0 and new[four[2].pk] > 0
    change = Change.objects.get(game=game, number=1, action="corrected")
    assert change.before["scores"] == {str(pk): s for pk, s in old.items()}
    assert change.after["scores"] == {str(pk): s for pk, s in new.items()}
    with pytest.raises(games.StaleError):
        tarot.deal_correct(
            deal=first,
            data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56),
            expected_version=1,
        )


def test_a_correction_of_a_deal_without_lines_writes_them(four):
    game = games.game_start(players=four, first_dealer=0)
    first = tarot.deal_add(
        game=game, data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
    )
    first.lines.all().delete()
    tarot.deal_correct(
        deal=first,
        data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56),
        expected_version=1,
    )
    assert Deal.objects.get(pk=first.pk).lines.count() == 4


def test_correcting_a_deal_that_is_not_there(four):
    game = games.game_start(players=four, first_dealer=0)
    played = tarot_kind().load_for_write(selectors.game_by_token(game.token))
    with pytest.raises(games.GameError) as e:
        tarot.deal_correct(
            played=played,
            number=5,
            data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56),
            expected_version=1,
        )
    assert e.value.code == "no_such_deal"


def tarot_kind():
    from tarotclub.games import kinds

    return kinds.get("tarot")


def _post(players, taker, **over):
    return {
        "taker": taker.pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "chelem": "none",
        "partner": "alone",
        **over,
    }


def test_a_deal_taken_by_another_phone_shows_the_form_of_the_next_deal(client, five):
    """Saving builds the form for the entry the phone was making (its hidden number) and
    lets the service count under the lock; refused, the page is the next deal's form, with
    the players of that deal (at a table of five whose dealer sits out, they change)."""
    game = games.game_start(players=five, first_dealer=0, dealer_sits_out=True)
    new = reverse("games:deal_new", args=[game.token])
    assert client.post(new, _post(five, five[1], number="1")).status_code == 302
    response = client.post(new, _post(five, five[2], number="1"))
    html = response.content.decode()
    assert response.status_code == 400
    assert "Deal 1 was just entered from another phone" in html
    assert 'name="number" value="2"' in html
    takers = {int(v) for v in re.findall(r'name="taker" value="(\d+)"', html)}
    assert takers == {p.pk for p in five} - {five[1].pk}  # five[1] deals deal 2
    assert Deal.objects.filter(game=game).count() == 1
    # the next deal, from the page as it now is
    assert client.post(new, _post(five, five[2], number="2")).status_code == 302
    assert list(Deal.objects.filter(game=game).values_list("number", "dealer_id")) == [
        (1, five[0].pk),
        (2, five[1].pk),
    ]


def test_a_save_without_its_number_still_counts(client, four):
    game = games.game_start(players=four, first_dealer=0)
    new = reverse("games:deal_new", args=[game.token])
    for junk in (None, "", "deux", "-1"):
        post = _post(four, four[1])
        del post["partner"]
        if junk is not None:
            post["number"] = junk
        assert client.post(new, post).status_code == 302
    assert list(Deal.objects.filter(game=game).values_list("number", flat=True)) == [1, 2, 3, 4]


def _six_phones_at_once(save) -> list:
    """`save(points)` in six threads, each with its own connection, released together after
    its own reads (`save` waits on the barrier it is given): what each returned, a refusal's
    message, or any other failure (the test's finding)."""
    import threading

    from django.db import connection

    start, outcomes = threading.Barrier(6), []

    def phone(points):
        try:
            outcomes.append(save(points, start.wait))
        except games.GameError as e:
            outcomes.append(e.messages[0])
        except Exception as e:  # noqa: BLE001 (any other failure is the test's finding)
            outcomes.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(50 + i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_phones_saving_the_same_deal_at_once_store_it_once(four):
    """Six phones post deal 1 at the same moment, each in its own thread and connection: the
    game's lock lets one in; the others, let in after it, find deal 1 taken and are refused.
    One deal, one history entry, one step of the revision, the tally right (the writes of
    PostgreSQL's one statement, SQLite's one by one)."""
    game = games.game_start(players=four, first_dealer=0)
    revision = Game.objects.get(pk=game.pk).revision

    def save(points, ready):
        ready()
        tarot.deal_add(
            game=Game.objects.get(pk=game.pk),
            data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=points),
            expected_number=1,
        )
        return "saved"

    outcomes = _six_phones_at_once(save)
    assert outcomes.count("saved") == 1, outcomes
    taken = str(tarot.ERR_DEAL_TAKEN % {"number": 1})
    assert outcomes.count(taken) == 5, outcomes
    stored = Game.objects.get(pk=game.pk)
    deal = Deal.objects.get(game=game)
    assert stored.revision == revision + 1
    assert Change.objects.filter(game=game, number=1).count() == 1
    assert stored.tally["count"] == 1
    lines = {line.player_id: line.score for line in deal.lines.all()}
    assert stored.tally["totals"] == {str(pk): score for pk, score in lines.items()}
    assert sum(lines.values()) == 0


# --- a new deal made before the game's lock (the lock held for the checks and the SQL) --------


def _played(game):
    from tarotclub.games import kinds

    return kinds.get(game.kind).load_for_write(game)


def test_a_deal_made_before_the_lock_is_stored_as_one_made_under_it(four):
    """The phone's save (`played`, `expected_number`: made before the lock) and a save made all
    under the lock store the same deal, lines and history entry."""
    data = tarot.DealInput(
        taker=four[2].pk, contract="garde", bouts=2, points=49, poignees=((four[2].pk, "simple"),)
    )
    ahead = games.game_start(players=four, first_dealer=1)
    under = games.game_start(players=four, first_dealer=1)
    made = tarot.deal_add(game=ahead, played=_played(ahead), data=data, expected_number=1)
    plain = tarot.deal_add(game=under, data=data)
    ignored = {"id", "game_id", "created_at", "updated_at"}
    one, two = _values(Deal.objects.get(pk=made.pk)), _values(Deal.objects.get(pk=plain.pk))
    assert one == _values(made) and {k: v for k, v in one.items() if k not in ignored} == {
        k: v for k, v in two.items() if k not in ignored
    }
    assert one["revision"] == Game.objects.get(pk=ahead.pk).revision
    lines = [dict(d.lines.values_list("player_id", "score")) for d in (made, plain)]
    assert lines[0] == lines[1] and sum(lines[0].values()) == 0
    entries = [Change.objects.get(game=g, number=1) for g in (ahead, under)]
    assert entries[0].after == entries[1].after and entries[0].action == "recorded"
    assert Game.objects.get(pk=ahead.pk).tally == {
        **Game.objects.get(pk=under.pk).tally,
        "rev": Game.objects.get(pk=ahead.pk).revision,
    }


def test_a_deal_made_before_the_lock_takes_its_revision_and_times_under_it(four):
    game = games.game_start(players=four, first_dealer=0)
    played = _played(game)
    data = tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=56)
    ready = tarot._NewDeal.make(game, played.players, data, 1, None, None)
    # the revision moves meanwhile (another write), and time passes
    Game.objects.filter(pk=game.pk).update(revision=game.revision + 5)
    locked_at = timezone.now()
    deal = tarot._deal_add(
        game=game,
        data=data,
        user=None,
        expected_number=1,
        played=played,
        client_id=None,
        ready=ready,
    )
    stored = Deal.objects.get(pk=deal.pk)
    game.refresh_from_db()
    assert stored.revision == game.revision == deal.revision
    assert stored.created_at >= locked_at and stored.updated_at >= locked_at
    assert Change.objects.get(game=game, number=1).at >= locked_at


def test_house_rules_changed_between_the_page_and_the_save_are_the_ones_scored(four, member):
    """The phone read the game, then the rules changed before its save took the lock: the
    deal is scored again under the lock, by the rules the game has now."""
    from tarotclub.games import services as game_services
    from tarotclub.kinds.tarot.models import DealLine

    game = games.game_start(players=four, first_dealer=0, created_by=member)
    played = _played(game)
    game_services.game_set_house_rules(game=game, rules={"poignee_simple": 10}, user=member)
    deal = tarot.deal_add(
        game=game,
        played=played,
        data=tarot.DealInput(
            taker=four[0].pk,
            contract="garde",
            bouts=2,
            points=49,
            poignees=((four[0].pk, "simple"),),
        ),
        user=member,
        expected_number=1,
    )
    lines = dict(DealLine.objects.filter(deal=deal).values_list("player_id", "score"))
    assert lines[four[1].pk] == -(66 + 10)  # 10 for the poignée, not the federation's 20


def test_a_confirmed_sheet_refuses_before_a_wrong_deal_is_scored(four):
    """The sheet's own refusal comes first, as when all was checked under the lock: a phone
    whose deal names nobody at the table hears that the sheet is confirmed."""
    game = games.game_start(players=four, first_dealer=0)
    played = _played(game)
    Game.objects.filter(pk=game.pk).update(locked=True)
    with pytest.raises(games.GameError) as refused:
        tarot.deal_add(
            game=game,
            played=played,
            data=tarot.DealInput(taker=10**6, contract="prise", bouts=1, points=56),
            expected_number=1,
        )
    assert refused.value.messages == [str(games.ERR_LOCKED)]
    Game.objects.filter(pk=game.pk).update(locked=False)
    with pytest.raises(games.GameError) as refused:
        tarot.deal_add(
            game=game,
            played=played,
            data=tarot.DealInput(taker=10**6, contract="prise", bouts=1, points=56),
            expected_number=1,
        )
    assert refused.value.messages == [str(tarot.ERR_NOT_AT_TABLE)]
    assert not Deal.objects.filter(game=game).exists()


def test_a_deal_that_cannot_be_made_ahead_is_checked_under_the_lock_first():
    """Whatever fails while the deal is made before the lock is done again under it, after
    the checks that come first: a game with no seats (nobody to deal) whose sheet is
    confirmed answers that it is confirmed, as it did when all was made under the lock."""
    bare = Game.objects.create(kind="tarot", locked=True)
    played = _played(selectors.game_by_token(bare.token))
    assert played.players == []
    with pytest.raises(games.GameError) as refused:
        tarot.deal_add(
            game=bare,
            played=played,
            data=tarot.DealInput(taker=1, contract="prise", bouts=1, points=56),
            expected_number=1,
        )
    assert refused.value.messages == [str(games.ERR_LOCKED)]
    assert not Deal.objects.filter(game=bare).exists()


@pytest.mark.django_db(transaction=True)
def test_phones_saving_the_same_deal_from_their_pages_at_once_store_it_once(four):
    """As `test_phones_saving_the_same_deal_at_once_store_it_once`, each phone with the game as
    its page read it (the deal made before the lock): one saved, five told it was taken."""
    game = games.game_start(players=four, first_dealer=0)

    def save(points, ready):
        mine = selectors.game_by_token(game.token)
        played = _played(mine)
        ready()
        tarot.deal_add(
            game=mine,
            played=played,
            data=tarot.DealInput(taker=four[1].pk, contract="prise", bouts=1, points=points),
            expected_number=1,
        )
        return points

    outcomes = _six_phones_at_once(save)
    saved = [o for o in outcomes if isinstance(o, int)]
    assert len(saved) == 1, outcomes
    assert outcomes.count(str(tarot.ERR_DEAL_TAKEN % {"number": 1})) == 5, outcomes
    deal = Deal.objects.get(game=game)
    assert deal.points_half == saved[0] * 2
    stored = Game.objects.get(pk=game.pk)
    lines = dict(deal.lines.values_list("player_id", "score"))
    assert stored.tally["totals"] == {str(pk): score for pk, score in lines.items()}
    assert Change.objects.get(game=game, number=1).after["points_half"] == saved[0] * 2
