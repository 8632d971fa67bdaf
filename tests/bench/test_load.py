"""bench/load.py's own bookkeeping (nothing timed, no server): the check that every deal the
phones saved is stored exactly once, the phones' cookies, the revision a poll brings."""

from __future__ import annotations

from bench import load


def table(token: str, saved: int) -> load.Table:
    t = load.Table({"token": token, "taker": 1, "revision": 0}, port=1)
    t.saved = saved
    return t


def test_exactly_once_accepts_numbers_one_to_n_in_any_order():
    assert load.check_once([table("a", 3), table("b", 0)], {"a": [2, 3, 1], "b": []}) == []


def test_exactly_once_finds_a_deal_stored_twice_a_missing_one_and_a_lost_answer():
    tables = [table("twice", 2), table("missing", 3), table("unseen", 1), table("gone", 1)]
    stored = {"twice": [1, 1, 2], "missing": [1, 3], "unseen": [1, 2]}
    wrong = load.check_once(tables, stored)
    assert [w.split(":")[0] for w in wrong] == ["twice", "missing", "unseen", "gone"]


def test_a_phone_keeps_its_cookies_and_forgets_a_deleted_one():
    phone = load.Phone(port=1)
    phone._cookie("csrftoken=abc; expires=Tue, 30 Nov 2027 10:00:00 GMT; Path=/; SameSite=Lax")
    phone._cookie('messages="xyz"; Path=/; SameSite=Lax')
    assert phone.cookies == {"csrftoken": "abc", "messages": '"xyz"'}
    phone._cookie('messages=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/')
    assert phone.cookies == {"csrftoken": "abc"}


def test_the_revision_of_a_poll_answer():
    sheet = b'<section id="sheet" hx-get="/t/x/live/?rev=7" data-revision="7">'
    assert load._revision(sheet) == 7
    assert load._revision(b'<div hx-get="/t/x/live/?rev=12">') == 12
    assert load._revision(b"<p>nothing</p>") is None


def test_the_state_a_poll_answer_brings():
    state = (
        b'<div id="sheet-state" hidden><input type="hidden" name="rev" value="9" data-sheet-state>'
        b'<input type="hidden" name="n" value="4" data-sheet-state>'
        b'<input type="hidden" name="a" value="uf" data-sheet-state></div>'
    )
    assert (load._revision(state), load._shown(state), load.sheet_actions(state)) == (9, 4, "uf")
    assert load.sheet_actions(state.replace(b'value="uf"', b'value=""')) == ""
    assert load.sheet_actions(b"<p>nothing</p>") is None
    url = load.Table({"token": "x", "taker": 1, "revision": 0}, port=1).poll_url(9, 4, "uf")
    assert url == "/t/x/live/?rev=9&n=4&a=uf"


def test_percentiles_interpolate_between_the_measured_values():
    values = [float(v) for v in range(1, 101)]
    assert load.percentile(values, 50) == 50.5
    assert round(load.percentile(values, 99), 2) == 99.01
    assert load.percentile([5.0], 95) == 5.0


def test_a_phone_keeps_its_connection_and_opens_another_when_the_server_closed_it():
    """The keep-alive phone: answers read by their length (or chunks), the connection reused,
    and a request sent again once on a new connection when the server had closed the kept one
    (as its keep-alive ran out) before answering anything."""
    import asyncio

    answers = [
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: csrftoken=t; Path=/\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        b"HTTP/1.1 204 No Content\r\n\r\n",
    ]
    connections = []

    async def serve(reader, writer):
        connections.append(writer)
        for answer in answers[:2] if len(connections) == 1 else answers[2:]:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(answer)
            await writer.drain()
        writer.close()  # the first connection after two answers, unasked

    async def run():
        server = await asyncio.start_server(serve, load.HOST, 0)
        port = server.sockets[0].getsockname()[1]
        phone = load.Phone(port)
        got = []
        for _ in range(3):
            status, _headers, content, _ms = await phone.request("GET", "/")
            got.append((status, content))
            await asyncio.sleep(0.05)  # the server closes the first connection meanwhile
        phone.close()
        server.close()
        await server.wait_closed()
        return got, phone

    got, phone = asyncio.run(run())
    assert got == [(200, b"hello"), (200, b"abcde"), (204, b"")]
    assert phone.cookies == {"csrftoken": "t"}
    assert phone.connections == 2
