"""The whole club as data a person or another program can read: a documented JSON file and a
spreadsheet workbook (the format is described in docs/club-export.md).

Unlike the backup (`core.backup`: every row of every table, for a restore), this export is
shaped for reading: players, games with their seats, deals and scores, tournaments with their
entries and tables, and the history, each row with plain values and ids that point at each
other. It leaves out what is secret or only technical: accounts and passwords (a user is named
by their user name), the tables' share links, sessions.

Everything is read inside one snapshot (`core.backup.snapshot`), so the file is consistent while
phones keep writing; a constant number of queries, whatever the club's size.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections import defaultdict
from fractions import Fraction

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarotclub.core.backup import site_version, snapshot
from tarotclub.core.models import LogEntry, action
from tarotclub.games.models import Change, Game, Record, Seat
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.players.models import Player
from tarotclub.seasons.models import Season
from tarotclub.tournaments.models import Entry, Table, Tournament

FORMAT = "tarotclub-club-export"
VERSION = 1

EXPORT_DOWNLOADED = action("export.downloaded", _("club data exported"))


def _points(half: int):
    """Card points from the stored half-points: 40 or 40.5."""
    value = Fraction(half, 2)
    return int(value) if value.denominator == 1 else float(value)


def _user_names() -> dict[int, str]:
    from django.contrib.auth import get_user_model

    return dict(get_user_model()._default_manager.values_list("pk", "username"))


def club_data() -> dict:
    """The club as one JSON-ready dict (see docs/club-export.md). 14 queries."""
    with snapshot():
        return _read()


def _read() -> dict:
    users = _user_names()
    players = list(
        Player.objects.order_by("pk").values(
            "id", "name", "nickname", "licence", "active", "guest", "created_at"
        )
    )
    tables = {
        t["game_id"]: t
        for t in Table.objects.values("game_id", "tournament_id", "round", "number", "id")
    }
    seats = defaultdict(list)
    for game_id, player_id in Seat.objects.order_by("game_id", "position").values_list(
        "game_id", "player_id"
    ):
        seats[game_id].append(player_id)
    scores = defaultdict(dict)
    for deal_id, player_id, score in DealLine.objects.values_list("deal_id", "player_id", "score"):
        scores[deal_id][player_id] = score
    deals = defaultdict(list)
    for d in Deal.objects.order_by("game_id", "number").values():
        deals[d["game_id"]].append(
            {
                "number": d["number"],
                "dealer": d["dealer_id"],
                "taker": d["taker_id"],
                "partner": d["partner_id"],
                "contract": d["contract"],
                "bouts": d["bouts"],
                "points": _points(d["points_half"]),
                "petit_au_bout": d["petit_au_bout"] or None,
                "poignees": [{"player": p, "size": size} for p, size in d["poignees"]],
                "chelem": d["chelem"],
                "miseres": [{"player": p, "kind": kind} for p, kind in d["miseres"] or []],
                "won": d["won"],
                "margin": d["gap"],
                "scores": {str(p): s for p, s in scores[d["id"]].items()},
                "version": d["version"],
                "created_at": d["created_at"],
                "updated_at": d["updated_at"],
            }
        )
    records = defaultdict(list)
    for r in Record.objects.order_by("game_id", "number").values(
        "game_id", "number", "data", "version", "created_at", "updated_at"
    ):
        records[r.pop("game_id")].append(r)
    games = []
    for g in Game.objects.order_by("pk").values(
        "id",
        "kind",
        "name",
        "created_at",
        "finished_at",
        "archived_at",
        "locked",
        "first_dealer",
        "dealer_sits_out",
        "options",
        "created_by_id",
    ):
        table = tables.get(g["id"])
        game_deals = deals.get(g["id"], [])
        totals = defaultdict(int)
        for d in game_deals:
            for p, s in d["scores"].items():
                totals[p] += s
        games.append(
            {
                "id": g["id"],
                "kind": g["kind"],
                "name": g["name"],
                "created_at": g["created_at"],
                "created_by": users.get(g["created_by_id"]),
                "finished_at": g["finished_at"],
                "archived_at": g["archived_at"],
                "confirmed": g["locked"],
                "first_dealer": g["first_dealer"],
                "dealer_sits_out": g["dealer_sits_out"],
                "options": g["options"],
                "tournament": (
                    {
                        "id": table["tournament_id"],
                        "round": table["round"],
                        "table": table["number"],
                    }
                    if table
                    else None
                ),
                "seats": seats.get(g["id"], []),
                "deals": game_deals,
                "totals": dict(totals) if g["kind"] == "tarot" else None,
                "records": records.get(g["id"], []),
            }
        )
    entries = defaultdict(list)
    for e in Entry.objects.order_by("tournament_id", "pk").values(
        "tournament_id",
        "player_id",
        "licence",
        "first_round",
        "last_round",
        "created_at",
        "team",
        "orientation",
        "start_table",
    ):
        entries[e.pop("tournament_id")].append(
            {
                "player": e["player_id"],
                "licence": e["licence"],
                "first_round": e["first_round"],
                "last_round": e["last_round"],
                "registered_at": e["created_at"],
                "team": e["team"],
                "orientation": e["orientation"] or None,
                "start_table": e["start_table"],
            }
        )
    event_tables = defaultdict(list)
    for t in sorted(tables.values(), key=lambda t: (t["tournament_id"], t["round"], t["number"])):
        event_tables[t["tournament_id"]].append(
            {"round": t["round"], "table": t["number"], "game": t["game_id"]}
        )
    tournaments = [
        {
            "id": t["id"],
            "name": t["name"],
            "date": t["date"],
            "place": t["place"],
            "status": t["status"],
            "rounds": t["rounds"],
            "current_round": t["current_round"],
            "deals_per_round": t["deals_per_round"],
            "tables_of_three": t["allow_three"],
            "ranking": t["ranking"],
            "seed": t["seed"],
            "format": t["format"],
            "duplicate_tables": t["table_count"],
            "movement": t["movement"] or None,
            "house_rules": t["house_rules"] or {},
            "created_at": t["created_at"],
            "created_by": users.get(t["created_by_id"]),
            "entries": entries.get(t["id"], []),
            "tables": event_tables.get(t["id"], []),
        }
        for t in Tournament.objects.order_by("date", "pk").values()
    ]
    season_tournaments = defaultdict(list)
    for season_id, t_id in Season.tournaments.through.objects.order_by("pk").values_list(
        "season_id", "tournament_id"
    ):
        season_tournaments[season_id].append(t_id)
    seasons = [
        {
            "id": x["id"],
            "name": x["name"],
            "kind": x["kind"],
            "start": x["start"],
            "end": x["end"],
            "formula": x["formula"],
            "best_n": x["best_n"],
            "points": x["points"],
            "min_attendance": x["min_attendance"],
            "casual_games_count": x["include_casual"],
            "tournaments": season_tournaments.get(x["id"], []),
            "created_at": x["created_at"],
            "created_by": users.get(x["created_by_id"]),
        }
        for x in Season.objects.order_by("start", "pk").values()
    ]
    game_history = [
        {
            "game": c["game_id"],
            "number": c["number"],
            "action": c["action"],
            "before": c["before"],
            "after": c["after"],
            "user": users.get(c["user_id"]),
            "at": c["at"],
        }
        for c in Change.objects.order_by("at", "pk").values()
    ]
    site_history = [
        {
            "object_type": f"{e['content_type__app_label']}.{e['content_type__model']}",
            "object_id": e["object_id"],
            "object": e["object_repr"],
            "action": e["action"],
            "before": e["before"],
            "after": e["after"],
            "user": users.get(e["user_id"]),
            "at": e["at"],
        }
        for e in LogEntry.objects.order_by("at", "pk").values(
            "content_type__app_label",
            "content_type__model",
            "object_id",
            "object_repr",
            "action",
            "before",
            "after",
            "user_id",
            "at",
        )
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "site_version": site_version(),
        "exported_at": timezone.now(),
        "players": players,
        "games": games,
        "tournaments": tournaments,
        "seasons": seasons,
        "history": {"games": game_history, "site": site_history},
    }


class _Encoder(DjangoJSONEncoder):
    """Dates and times in ISO 8601 with their offset (UTC), as DjangoJSONEncoder writes them."""


def club_json(data: dict | None = None) -> bytes:
    data = club_data() if data is None else data
    return json.dumps(data, cls=_Encoder, ensure_ascii=False, indent=1).encode("utf-8")


def export_file_name(fmt: str, now: dt.datetime | None = None) -> str:
    now = timezone.localtime(now or timezone.now())
    return f"tarotclub-club-{now:%Y-%m-%d-%H%M}.{fmt}"


# --- the workbook ------------------------------------------------------------------------------


def club_workbook(data: dict | None = None) -> bytes:
    """The same data as sheets of plain rows (one per list of the JSON), as an .xlsx file."""
    import tablib

    from .exports import rows_dataset

    data = club_data() if data is None else data
    book = tablib.Databook()
    for title, headers, rows in _sheets(data):
        book.add_sheet(rows_dataset(headers, rows, title=title))
    out = io.BytesIO(book.export("xlsx"))
    return out.getvalue()


def _cell(value):
    """A value a spreadsheet cell holds: times without their offset, in the site's zone (Excel
    has no time zones), lists and dicts as compact JSON text."""
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).replace(tzinfo=None) if timezone.is_aware(value) else value
    if isinstance(value, (dict, list)):
        return json.dumps(value, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))
    return value


def _sheets(data: dict):
    """(title, headers, rows) of each sheet. Sheet and column names stay in English, like the
    JSON's keys, so a formula or a program that reads them works in every language."""
    players = data["players"]
    yield (
        "players",
        ["id", "name", "nickname", "licence", "active", "guest", "created_at"],
        [
            [
                _cell(p[k])
                for k in ("id", "name", "nickname", "licence", "active", "guest", "created_at")
            ]
            for p in players
        ],
    )
    game_cols = [
        "id",
        "kind",
        "name",
        "created_at",
        "created_by",
        "finished_at",
        "archived_at",
        "confirmed",
        "tournament",
        "round",
        "table",
        "seats",
    ]
    rows = []
    for g in data["games"]:
        t = g["tournament"] or {}
        rows.append(
            [_cell(g[k]) for k in game_cols[:8]]
            + [t.get("id"), t.get("round"), t.get("table"), _cell(g["seats"])]
        )
    yield "games", game_cols, rows
    yield (
        "seats",
        ["game", "position", "player", "total"],
        [
            [g["id"], i, p, (g["totals"] or {}).get(str(p)) if g["totals"] is not None else None]
            for g in data["games"]
            for i, p in enumerate(g["seats"])
        ],
    )
    deal_cols = [
        "game",
        "number",
        "dealer",
        "taker",
        "partner",
        "contract",
        "bouts",
        "points",
        "won",
        "margin",
        "petit_au_bout",
        "poignees",
        "chelem",
        "miseres",
        "created_at",
        "updated_at",
    ]
    yield (
        "deals",
        deal_cols,
        [
            [g["id"]] + [_cell(d[k]) for k in deal_cols[1:]]
            for g in data["games"]
            for d in g["deals"]
        ],
    )
    yield (
        "deal scores",
        ["game", "number", "player", "score"],
        [
            [g["id"], d["number"], int(p), s]
            for g in data["games"]
            for d in g["deals"]
            for p, s in d["scores"].items()
        ],
    )
    yield (
        "records",
        ["game", "number", "data", "created_at", "updated_at"],
        [
            [g["id"], r["number"], _cell(r["data"]), _cell(r["created_at"]), _cell(r["updated_at"])]
            for g in data["games"]
            for r in g["records"]
        ],
    )
    t_cols = [
        "id",
        "name",
        "date",
        "place",
        "status",
        "rounds",
        "current_round",
        "deals_per_round",
        "tables_of_three",
        "ranking",
        "format",
        "duplicate_tables",
        "house_rules",
        "created_at",
        "created_by",
    ]
    yield "tournaments", t_cols, [[_cell(t[k]) for k in t_cols] for t in data["tournaments"]]
    yield (
        "entries",
        ["tournament", "player", "licence", "first_round", "last_round", "registered_at"],
        [
            [
                t["id"],
                e["player"],
                e["licence"],
                e["first_round"],
                e["last_round"],
                _cell(e["registered_at"]),
            ]
            for t in data["tournaments"]
            for e in t["entries"]
        ],
    )
    yield (
        "tournament tables",
        ["tournament", "round", "table", "game"],
        [
            [t["id"], x["round"], x["table"], x["game"]]
            for t in data["tournaments"]
            for x in t["tables"]
        ],
    )
    season_cols = [
        "id",
        "name",
        "kind",
        "start",
        "end",
        "formula",
        "best_n",
        "points",
        "min_attendance",
        "casual_games_count",
        "tournaments",
        "created_at",
        "created_by",
    ]
    yield (
        "seasons",
        season_cols,
        [[_cell(x[k]) for k in season_cols] for x in data["seasons"]],
    )
    h_cols = ["game", "number", "action", "user", "at", "before", "after"]
    yield (
        "game history",
        h_cols,
        [[_cell(c[k]) for k in h_cols] for c in data["history"]["games"]],
    )
    s_cols = ["object_type", "object_id", "object", "action", "user", "at", "before", "after"]
    yield (
        "site history",
        s_cols,
        [[_cell(e[k]) for k in s_cols] for e in data["history"]["site"]],
    )
