"""A duplicate board's dealer (duplicate.md 1.2): the default marked on every board, the
director's change through `duplicate_services.board_set_dealer` (history, refusals, a double
tap, two screens), its page, the table's phone and the printouts that show it."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.movement import dealer_of, leader_of
from tarotclub.core.models import LogEntry
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.duplicate_services import (
    ERR_BOARD,
    ERR_BOARD_PLAYED,
    ERR_DEALER_MOVED,
    ERR_NOT_DUPLICATE,
    board_set_dealer,
)
from tarotclub.tournaments.history import BOARD_DEALER_SET
from tarotclub.tournaments.models import Table, Tournament

from .duplicate_helpers import enter_board, make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def _started(tables=2, rounds=2):
    t, players = make_duplicate(tables, rounds=rounds)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    return t, players


def _table_with(t, board, round_number=1) -> Table:
    return next(
        x
        for x in Table.objects.filter(tournament=t, round=round_number).select_related("game")
        if board in x.game.options["boards"]
    )


def _history(t):
    return list(LogEntry.objects.filter(object_id=t.pk, action=BOARD_DEALER_SET).order_by("pk"))


def _message(error: ValidationError) -> str:
    return " ".join(error.messages)


# --- the default --------------------------------------------------------------------------------


def test_seated_tables_carry_each_boards_default_dealer():
    t, _players = _started(2)
    for table in Table.objects.filter(tournament=t, round=1).select_related("game"):
        options = table.game.options
        assert options["dealers"] == [dealer_of(b) for b in options["boards"]]
    assert duplicate.board_dealers(t) == {b: dealer_of(b) for b in range(1, 9)}
    assert duplicate.dealing(t, 5) == ("E", "N")


# --- the director's change ----------------------------------------------------------------------


def test_the_director_marks_a_dealer_with_history(director):
    t, _players = _started(2)
    table = _table_with(t, 3)
    board_set_dealer(tournament=t, board=3, dealer="S", was="N", user=director)
    t.refresh_from_db()
    assert t.board_dealers == {"3": "S"}
    assert duplicate.dealing(t, 3) == ("S", "E")
    table.game.refresh_from_db()
    i = table.game.options["boards"].index(3)
    assert table.game.options["dealers"][i] == "S"
    # the other boards of the table keep theirs
    options = table.game.options
    others = [d for b, d in zip(options["boards"], options["dealers"], strict=True) if b != 3]
    assert others == [dealer_of(b) for b in options["boards"] if b != 3]
    (entry,) = _history(t)
    assert entry.user == director
    assert entry.before == {"board": 3, "dealer": "N"}
    assert entry.after["board"] == 3 and entry.after["dealer"] == "S"
    assert entry.after["leader"] == "E"
    assert entry.after["games"] == [table.game_id]


def test_marking_the_default_again_removes_the_mark():
    t, _players = _started(2)
    board_set_dealer(tournament=t, board=6, dealer="W")
    board_set_dealer(tournament=t, board=6, dealer=dealer_of(6))
    t.refresh_from_db()
    assert t.board_dealers == {}
    assert not duplicate.dealer_marked(t, 6)
    assert len(_history(t)) == 2


def test_a_dealer_marked_before_the_start_is_on_the_tables():
    t, _players = make_duplicate(2, rounds=2)
    board_set_dealer(tournament=t, board=2, dealer="E")
    services.tournament_start(tournament=t)
    table = _table_with(t, 2)
    i = table.game.options["boards"].index(2)
    assert table.game.options["dealers"][i] == "E"


def test_a_later_round_is_seated_with_the_marked_dealer():
    t, _players = _started(2)
    # round 1 closed by force, only board 1 entered: the other boards are unplayed
    enter_board(_table_with(t, 1), 1, 50)
    unplayed = _table_with(t, 5).game.options["boards"][1]  # a board of the other set
    board_set_dealer(tournament=t, board=unplayed, dealer="W")
    services.tournament_next_round(tournament=t, force=True)
    t.refresh_from_db()
    table2 = _table_with(t, unplayed, round_number=2)
    options = table2.game.options
    assert options["dealers"] == ["W" if b == unplayed else dealer_of(b) for b in options["boards"]]


def test_refused_once_the_board_has_a_score():
    t, _players = _started(2)
    table = _table_with(t, 1)
    enter_board(table, 1, 56)
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=1, dealer="E")
    assert _message(e.value) == str(ERR_BOARD_PLAYED) % {"board": 1}
    t.refresh_from_db()
    assert t.board_dealers == {} and _history(t) == []
    # a board of the same table not entered yet still changes
    board_set_dealer(tournament=t, board=2, dealer="E")


def test_refused_on_a_finished_tournament():
    t, _players = _started(2, rounds=1)
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    t.refresh_from_db()
    assert t.status == "finished"
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=1, dealer="E")
    assert _message(e.value) == str(services.ERR_FINISHED)


def test_refused_on_a_free_deal_tournament():
    t = services.tournament_create(name="Free", date=dt.date(2026, 12, 1))
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=1, dealer="E")
    assert _message(e.value) == str(ERR_NOT_DUPLICATE)


@pytest.mark.parametrize("board", [0, -1, 9, 10_000, "3", None, True, 2.0])
def test_a_board_that_is_not_one_is_refused(board):
    t, _players = _started(2)
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=board, dealer="E")
    assert _message(e.value) == str(ERR_BOARD) % {"board": board, "count": 8}
    t.refresh_from_db()
    assert t.board_dealers == {}


@pytest.mark.parametrize("dealer", ["X", "", "n", None, 1, ["N"], "NE"])
def test_a_dealer_that_is_no_orientation_is_refused(dealer):
    t, _players = _started(2)
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=1, dealer=dealer)
    assert _message(e.value) == str(services.ERR_ORIENTATION)
    t.refresh_from_db()
    assert t.board_dealers == {}


def test_a_double_tap_changes_once():
    t, _players = _started(2)
    board_set_dealer(tournament=t, board=4, dealer="S", was="N")
    board_set_dealer(tournament=t, board=4, dealer="S", was="N")  # the same form again
    board_set_dealer(tournament=t, board=4, dealer="S")
    t.refresh_from_db()
    assert t.board_dealers == {"4": "S"}
    assert len(_history(t)) == 1


def test_two_screens_the_second_is_refused_and_told():
    t, _players = _started(2)
    board_set_dealer(tournament=t, board=4, dealer="S", was="N")
    with pytest.raises(ValidationError) as e:
        board_set_dealer(tournament=t, board=4, dealer="E", was="N")
    assert e.value.code == "moved"
    assert _message(e.value) == str(ERR_DEALER_MOVED) % {"board": 4, "dealer": "South"}
    t.refresh_from_db()
    assert t.board_dealers == {"4": "S"}
    assert len(_history(t)) == 1


# --- the director's page ------------------------------------------------------------------------


def test_the_boards_page_shows_dealer_and_leader_and_links_the_change(director_client):
    t, _players = make_duplicate(2, rounds=2)
    url = reverse("tournaments:duplicate_boards", args=[t.pk])
    # before the start: the boards are there, to mark their dealers
    page = director_client.get(url).content.decode()
    assert reverse("tournaments:board_dealer", args=[t.pk, 8]) in page
    services.tournament_start(tournament=t)
    board_set_dealer(tournament=t, board=5, dealer="S")
    table = _table_with(t, 1)
    enter_board(table, 1, 56)
    page = director_client.get(url).content.decode()
    row5 = page[page.index('id="board-5"') :].split("</tr>")[0]
    assert "South" in row5 and "East" in row5 and "(marked)" in row5
    # board 1 has a score: no change link any more
    assert reverse("tournaments:board_dealer", args=[t.pk, 1]) not in page
    assert reverse("tournaments:board_dealer", args=[t.pk, 2]) in page
    # the guide card says who deals and leads each board
    assert "Board 1 · Dealer: North — West leads" in page


def test_the_dealer_page_changes_it(director_client):
    t, _players = _started(2)
    url = reverse("tournaments:board_dealer", args=[t.pk, 7])
    page = director_client.get(url).content.decode()
    assert "Dealer: East — North leads" in page
    assert 'name="was" value="E"' in page
    response = director_client.post(url, {"dealer": "W", "was": "E"})
    assert response.status_code == 302
    assert response.url.endswith("#board-7")
    t.refresh_from_db()
    assert t.board_dealers == {"7": "W"}
    # the same form sent again (a double tap): no second change
    assert director_client.post(url, {"dealer": "W", "was": "E"}).status_code == 302
    assert len(_history(t)) == 1
    # another screen's stale form: told, nothing changed
    response = director_client.post(url, {"dealer": "N", "was": "E"})
    assert response.status_code == 200
    assert "has just been changed to West" in response.content.decode()
    t.refresh_from_db()
    assert t.board_dealers == {"7": "W"}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"dealer": "Q"},
        {"dealer": "", "was": "E"},
        {"dealer": "N" * 5000},
        {"dealer": "S", "was": "Z"},
        {"dealer": ["N", "S"], "was": "<script>"},
    ],
)
def test_hostile_posts_change_nothing(director_client, data):
    t, _players = _started(2)
    response = director_client.post(reverse("tournaments:board_dealer", args=[t.pk, 7]), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'role="alert"' in body
    t.refresh_from_db()
    assert t.board_dealers == {} and _history(t) == []


def test_the_dealer_page_of_a_played_board_says_so(director_client):
    t, _players = _started(2)
    enter_board(_table_with(t, 1), 1, 56)
    url = reverse("tournaments:board_dealer", args=[t.pk, 1])
    assert "its dealer can no longer change" in director_client.get(url).content.decode()
    response = director_client.post(url, {"dealer": "E", "was": "N"})
    assert response.status_code == 200
    assert "has been played" in response.content.decode()
    t.refresh_from_db()
    assert t.board_dealers == {}


@pytest.mark.parametrize("board", [0, 9, 99999])
def test_a_board_out_of_range_is_not_found(director_client, board):
    t, _players = _started(2)
    url = reverse("tournaments:board_dealer", args=[t.pk, board])
    assert director_client.get(url).status_code == 404
    assert director_client.post(url, {"dealer": "E"}).status_code == 404


def test_the_dealer_page_is_the_directors(member_client):
    t, _players = _started(2)
    url = reverse("tournaments:board_dealer", args=[t.pk, 1])
    assert Client().get(url).status_code == 302
    assert member_client.post(url, {"dealer": "E"}).status_code == 403
    t.refresh_from_db()
    assert t.board_dealers == {}


def test_a_free_tournament_has_no_dealer_page(director_client):
    t = services.tournament_create(name="Free", date=dt.date(2026, 12, 1))
    assert (
        director_client.get(reverse("tournaments:board_dealer", args=[t.pk, 1])).status_code == 404
    )


# --- the table's phone --------------------------------------------------------------------------


def test_the_tables_phone_shows_each_boards_dealer_and_leader(client):
    t, _players = _started(2)
    board_set_dealer(tournament=t, board=2, dealer="S")
    table = _table_with(t, 2)
    token = table.game.token
    sheet = client.get(reverse("games:sheet", args=[token])).content.decode()
    assert "Board 1 · Dealer: North — West leads" in sheet
    assert "Board 2 · Dealer: South — East leads" in sheet
    entry = client.get(reverse("games:deal_new", args=[token])).content.decode()
    assert "Dealer: North — West leads" in entry  # deal 1 is board 1
    slip = client.get(reverse("tournaments:slip", args=[token, 2])).content.decode()
    assert "Dealer: South — East leads" in slip


def test_the_phone_speaks_french(client):
    t, _players = _started(2)
    token = _table_with(t, 1).game.token
    with translation.override("fr"):
        sheet = client.get(
            reverse("games:sheet", args=[token]), HTTP_ACCEPT_LANGUAGE="fr"
        ).content.decode()
    assert "Nord" in sheet and "Ouest" in sheet


# --- the printouts ------------------------------------------------------------------------------


def _pages(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def test_the_printouts_show_dealer_and_leader(director_client):
    t, _players = _started(2)
    board_set_dealer(tournament=t, board=3, dealer="E")
    # the diagrams: a page a board, in board order
    diagrams = _pages(director_client.get(url_of(t, "diagrams")))
    assert "Board 1" in diagrams[0] and "Board 3" in diagrams[2]
    assert "Dealer: North (West leads)" in diagrams[0]
    assert "Dealer: East (North leads)" in diagrams[2]
    assert "Dealer: North (West leads)" not in diagrams[2]
    # the slips: two a page, in board order (boards 1, 2 on the first page, 3, 4 on the next)
    slips = _pages(director_client.get(url_of(t, "slips")))
    assert "Dealer: North (West leads)" in slips[0]
    assert "Dealer: East (North leads)" in slips[1]
    # the guide cards: each seat's boards to deal, and who leads
    cards = " ".join(_pages(director_client.get(url_of(t, "guide_cards"))))
    assert "TAKES DEALS NEXT" in cards  # the column headings (printed in capitals)
    # table 1, round 1 plays boards 1-4 (dealers N, N, E, N): North deals 1, 2, 4
    assert "North Dup" in cards and "1–2, 4 table" in cards
    assert "The player to the dealer's right leads." in cards


def url_of(t: Tournament, paper: str) -> str:
    return reverse(f"reports:duplicate_{paper}_pdf", args=[t.pk])


def test_guide_card_data_names_each_seats_boards_to_deal():
    from scoring.movement import movement
    from tarotclub.reports.duplicate import guide_card_data, runs_text

    m = movement(2, 2)
    dealers = {b: dealer_of(b) for b in range(1, 17)}
    dealers[6] = "S"
    cards = guide_card_data(m, 8, {}, dealers)
    card = next(c for c in cards if c.round == 1 and c.table == 1)  # boards 1-8
    deals = {s.orientation: s.deals for s in card.seats}
    assert deals == {"North": "1–4", "South": "6", "East": "5, 7–8", "West": ""}
    assert runs_text([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7–8"
    assert leader_of("S") == "E"


def test_each_deal_is_dealt_by_the_seat_marked_on_its_board():
    from tarotclub.games.selectors import seat_players
    from tarotclub.kinds.tarot.models import Deal

    t, _players = _started(2)
    board_set_dealer(tournament=t, board=2, dealer="S")
    t.refresh_from_db()
    table = _table_with(t, 2)
    seats = seat_players(table.game)  # N, E, S, W
    boards = table.game.options["boards"]
    for i in range(1, len(boards) + 1):
        enter_board(table, i, 50)
    dealt = dict(Deal.objects.filter(game=table.game).values_list("number", "dealer_id"))
    expected = {"N": seats[0].pk, "E": seats[1].pk, "S": seats[2].pk, "W": seats[3].pk}
    assert dealt == {i: expected[duplicate.board_dealer(t, b)] for i, b in enumerate(boards, 1)}
    assert dealt[boards.index(2) + 1] == seats[2].pk
