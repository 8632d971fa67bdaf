"""The games kept as JSON records and replayed through their `scoring` module.

The club's other games (each a package under ``tarotclub/kinds/``) store each round, deal
or game as a `games.Record` whose JSON is the scoring module's input, with player primary keys
as player keys (strings in JSON object keys). Every read replays the records once
(`ReplayedKind.load`), keeping the state after each record, so the sheet, the entry screen, the
preview and the write that follows all work from that one replay.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from scoring import RuleError
from scoring import season as season_rules

from . import kinds
from .models import Game, Record
from .selectors import names_of, seat_players

log = logging.getLogger(__name__)


class ReplayError(Exception):
    """Record `number` (1-based; 0: the table itself) breaks the rules; `error` says why."""

    def __init__(self, number: int, error: RuleError):
        super().__init__(str(error))
        self.number = number
        self.error = error


def rules_order(seat_pks: Sequence[int], first_dealer: int) -> list[int]:
    """Seats in playing order starting with the first dealer (the rules' ``players[0]``)."""
    pks = list(seat_pks)
    if not pks:
        return pks
    k = first_dealer % len(pks)
    return pks[k:] + pks[:k]


def named_message(
    error: RuleError, names: Mapping[Any, str], values: Mapping[str, Mapping] | None = None
) -> str:
    """The rule's message in the current language, naming players by their label, not pk,
    and a value the kind names (`ReplayedKind.rule_values`: a suit) by its label."""
    params = dict(error.params)
    for key in ("player", "winner"):
        if key in params:
            with contextlib.suppress(TypeError):  # an unhashable value: shown as it is
                params[key] = names.get(params[key], params[key])
    for key, labels in (values or {}).items():
        if key in params:
            with contextlib.suppress(TypeError):
                params[key] = labels.get(params[key], params[key])
    text = gettext(error.template)
    return text % params if params else text


def _int(value: Any) -> Any:
    """'12' → 12; anything else unchanged (the rules then refuse it as an unknown player)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value)
    return value


def pk_map(value: Any) -> Any:
    """A JSON object keyed by player pk (strings) → the same keyed by ints."""
    if isinstance(value, Mapping):
        return {_int(k): v for k, v in value.items()}
    return value


def player_map(value: Any) -> dict:
    """Like `pk_map`, but anything that is not a JSON object gives an empty dict."""
    return pk_map(value) if isinstance(value, Mapping) else {}


def js_value(value: Any) -> Any:
    """A value as the phone's rules take it (static/js/record-rules.js): JSON, a mapping as
    {"$map": [[key, value], ...]} in its order, a float as {"$float": x} (3.0 is not whole)."""
    if isinstance(value, Mapping):
        return {"$map": [[js_value(k), js_value(v)] for k, v in value.items()]}
    if isinstance(value, list | tuple):
        return [js_value(v) for v in value]
    if isinstance(value, float):
        return {"$float": value}
    return value


def to_json(data: Mapping[str, Any]) -> dict:
    """A record as the services receive it (int keys) → JSON-safe (str keys)."""

    def conv(value):
        if isinstance(value, Mapping):
            return {str(k): conv(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [conv(v) for v in value]
        return value

    return conv(dict(data))


@dataclass
class Played:
    """A replayed game as read once for a request.

    ``states[0]`` is the state before the first record and ``states[i]`` the state after
    record i; ``error`` is set (and the states stop) where stored records no longer replay.
    """

    game: Game
    kind: ReplayedKind
    players: list
    entries: list[Record]
    states: list[Any]
    error: str = ""
    names: dict[int, str] = field(default_factory=dict)

    @property
    def state(self) -> Any:
        """The state after every record (None when the records do not replay)."""
        return None if self.error else self.states[-1]

    def state_before(self, number: int) -> Any:
        return self.states[number - 1] if number - 1 < len(self.states) else None

    @property
    def next_number(self) -> int:
        return len(self.entries) + 1

    @property
    def last_number(self) -> int:
        return len(self.entries)

    def entry(self, number: int) -> Record | None:
        return self.entries[number - 1] if 1 <= number <= len(self.entries) else None

    @property
    def over(self) -> bool:
        """Ended by the rules (a winner or a draw)."""
        return self.state is not None and bool(getattr(self.state, "finished", False))

    @property
    def stopped(self) -> bool:
        """Finished by hand before the rules ended it."""
        return self.game.finished and not self.over

    @property
    def can_undo(self) -> bool:
        """The last record can go: also once the rules ended the game (it opens again)."""
        return bool(self.entries) and not self.stopped

    def refusal(self, action: str = "deal"):
        """Why this finished game refuses `action` now."""
        from .services import ERR_FINISHED_CORRECT, ERR_OVER, ERR_STOPPED

        if self.stopped:
            return ERR_STOPPED
        return ERR_FINISHED_CORRECT if action == "correct" else ERR_OVER


class ReplayedKind(kinds.Kind):
    """A kind kept as JSON records replayed through the scoring module's protocol
    (``start(players, **options)``, ``step(state, record)``; see ``scoring/_common.py``)."""

    #: The record's fields that map a player to a value (JSON keys are strings).
    player_maps: ClassVar[tuple[str, ...]] = ()
    #: A rule message's parameters the kind names by a label (param -> {value: label}).
    rule_values: ClassVar[Mapping[str, Mapping[Any, Any]]] = {}
    form_class: ClassVar[type]
    #: The history shows who dealt each record.
    shows_dealer: ClassVar[bool] = True
    reopens: ClassVar[bool] = True

    def finished_reason(self, played, action: str):
        return played.refusal(action)

    # --- the rules ---------------------------------------------------------------------------

    def rules_input(self, data: Any) -> Any:
        """A stored record → the scoring module's input (player keys back to ints)."""
        if not isinstance(data, Mapping):
            return data
        out = dict(data)
        for name in self.player_maps:
            if name in out:
                out[name] = pk_map(out[name])
        return out

    def start(self, players: Sequence[int], options: Mapping[str, Any] | None):
        settings = {}
        for o in self.options:
            value = (options or {}).get(o.name)
            settings[o.name] = o.default if value is None else value
        rules_class = getattr(self.rules, "Rules", None)
        if rules_class is not None:
            from . import house

            settings["rules"] = house.read(self.identifier, (options or {}).get(house.OPTION))
        return self.rules.start(players, **settings)

    def step(self, state, data: Any):
        return self.rules.step(state, self.rules_input(data))

    def replay(self, game: Game, players, datas: Sequence[Any]) -> list[Any]:
        """Every state from the start to after the last record; ReplayError names the first
        record that breaks the rules."""
        order = rules_order([p.pk for p in players], game.first_dealer)
        try:
            states = [self.start(order, game.options)]
        except RuleError as e:
            raise ReplayError(0, e) from e
        for number, data in enumerate(datas, start=1):
            try:
                states.append(self.step(states[-1], data))
            except RuleError as e:
                raise ReplayError(number, e) from e
        return states

    def load(self, game: Game, records: Sequence[Record] | None = None) -> Played:
        players = seat_players(game)
        recs = sorted(
            records if records is not None else game.records.all(), key=lambda r: r.number
        )
        names = names_of(players)
        try:
            states = self.replay(game, players, [r.data for r in recs])
        except ReplayError as e:  # never expected: every record was replayed when stored
            message = named_message(e.error, names, self.rule_values)
            log.error("game %s: stored records do not replay: %s", game.pk, message)
            return Played(game, self, players, recs, [], message, names)
        return Played(game, self, players, recs, states, "", names)

    # --- what a person reads: the kind's presenters module -----------------------------------

    #: A module with ``summary(state, players, names)`` (a `presenters.Summary`),
    #: ``rows(state, players, names)`` (a `presenters.Row` per record) and
    #: ``describe(data, names)`` (one stored record in words; never raises).
    presenters: ClassVar[Any]

    def summary(self, state, players, names):
        summary = self.presenters.summary(state, players, names)
        full = {p.pk: p.name for p in players}
        compact = {p.pk: getattr(p, "compact", "") for p in players}
        for card in summary.cards:
            card.title = card.title or full.get(card.pk, "")
            card.compact = card.compact or compact.get(card.pk, "")
        return summary

    def rows(self, state, players, names):
        return self.presenters.rows(state, players, names)

    def describe(self, data: Any, names: Mapping[int, str]) -> str:
        return self.presenters.describe(data, names)

    def next_line(self, summary) -> str:
        """What comes next (who deals, what the round is worth), for the preview."""
        return summary.lines[0] if summary.lines else ""

    # --- the shared pages ----------------------------------------------------------------------

    def sheet(self, played: Played, *, link=None) -> dict:
        """The summary and the entries; each entry's row opens the entry's own page (its
        score, its changes, and the button that corrects it where that is allowed)."""
        from django.urls import reverse

        from .tables import HistoryTable

        if played.state is None:
            return {"summary": None, "table": None}
        token = played.game.token
        return {
            "summary": self.summary(played.state, played.players, played.names),
            "table": HistoryTable(
                self.rows(played.state, played.players, played.names),
                players=played.players,
                link=lambda n: reverse("games:deal", args=[token, n]),
                dealer=self.shows_dealer,
                words=self.words,
            ),
        }

    def entry_form(self, played: Played, number: int, *, data=None, initial=None):
        return self.form_class(
            data,
            players=played.players,
            initial=initial if initial is not None else self.initial(played, number),
            state=played.state_before(number),
        )

    def initial(self, played: Played, number: int) -> dict:
        record = played.entry(number)
        if record is None:
            return {}
        return {**self.form_class.initial_from(record.data), "version": record.version}

    def preview_template(self) -> str:
        return "games/_record_preview.html"

    def preview(self, played: Played, form, number: int, *, live: bool = False):
        """What the sheet would say with this record: the new row, the summary, what is next.

        The live preview waits while the entry is obviously unfinished (tricks that do not add
        up yet); the Preview button says why it cannot be saved.
        """
        from . import services

        if not form.is_valid():
            errors = [str(e) for errs in form.errors.values() for e in errs]
            return None, (errors[0] if errors else None)
        if live and form.unfinished():
            return None, None
        try:
            state = services.replay_with(played, number, to_json(form.record_data()))
        except services.GameError as e:
            return None, " ".join(e.messages)
        row = self.rows(state, played.players, played.names)[number - 1]
        summary = self.summary(state, played.players, played.names)
        return {"row": row, "summary": summary, "next": self.next_line(summary)}, None

    def describe_change(self, change, names) -> tuple[str, str]:
        before, after = change.before or {}, change.after or {}
        return (
            self.describe(before["data"], names) if "data" in before else "",
            self.describe(after["data"], names) if "data" in after else "",
        )

    def entry_context(self, played: Played, number: int, *, editing: bool) -> dict:
        """A new entry starts from the game so far: its first line, and the whole state."""
        state = played.state_before(number)
        if editing or state is None:
            return {}
        summary = self.summary(state, played.players, played.names)
        return {
            "summary": summary,
            "state_template": "games/_entry_state.html",
            "offline_record": self.offline_record(played),
        }

    # --- the preview on the phone with no connection ------------------------------------------

    #: The kind's scripts for the phone's own preview (static paths, after record-rules.js),
    #: or () for none: offline, the box then says the score comes back with the connection.
    offline_rules_scripts: ClassVar[tuple[str, ...]] = ()

    def offline_words(self) -> dict:  # pragma: no cover - each kind with a script says
        """The sentences of the kind's rows and summary that its script fills in."""
        raise NotImplementedError

    def offline_text(self) -> dict | None:
        """Every sentence the phone's preview may show, in the active language: the rules'
        messages by their ERR_ name, the entry form's, and the kind's own words."""
        from .forms import ERR_WHOLE

        if not self.offline_rules_scripts:
            return None
        from scoring import _common

        rules = {}
        for module in (_common, self.rules):  # the shared checks' messages, then the kind's
            rules.update({n: _(getattr(module, n)) for n in dir(module) if n.startswith("ERR_")})
        return {
            "rules": rules,
            # a rule's parameter the kind names by its label (named_message)
            "values": {
                key: {str(code): str(label) for code, label in labels.items()}
                for key, labels in self.rule_values.items()
            },
            "form": {
                "required": _("Set a number."),
                "invalid": str(ERR_WHOLE),
                "min_value": _("At least %(limit_value)s."),
                "max_value": _("At most %(limit_value)s."),
            },
            "words": {
                **self.offline_words(),
                "next": _("Next:"),
                "offline": _("Offline: worked out on this phone."),
            },
        }

    def offline_record(self, played: Played) -> dict | None:
        """What the phone needs to replay this game with a new record (static/js/
        record-preview.js): the players in the rules' order and in seat order, their names,
        the stored records as the rules take them, the addresses of the scripts."""
        if not self.offline_rules_scripts or played.error:
            return None
        from django.templatetags.static import static

        from . import house

        options = {
            o.name: o.default
            if (found := (played.game.options or {}).get(o.name)) is None
            else found
            for o in self.options
        }
        rules = house.of_game(played.game)
        if rules is not None:  # the game's house rules, beside the kind's options
            options.update(rules.as_dict())
        return {
            "kind": self.identifier,
            "order": list(played.states[0].players),
            "seats": [p.pk for p in played.players],
            "names": {str(pk): name for pk, name in played.names.items()},
            "records": [js_value(self.rules_input(r.data)) for r in played.entries],
            "options": options,
            "scripts": " ".join(
                [
                    self.offline_text_url(),
                    static("js/record-rules.js"),
                    *(static(path) for path in self.offline_rules_scripts),
                    static("js/record-preview.js"),
                ]
            ),
        }

    def leaders(self, state) -> tuple:
        """Who won the game, or who leads it now (player pks); the kind says."""
        return (state.winner,) if getattr(state, "winner", None) is not None else ()

    def list_results(self, games) -> dict:
        return self.list_results_of([self.load(game) for game in games])

    def list_results_of(self, played: Sequence[Played]) -> dict:
        """`list_results` of games already replayed (a page that also needs their states)."""
        from .kinds import ListResult

        results = {}
        for p in played:
            if p.state is None:
                continue
            results[p.game.pk] = ListResult(
                leaders=self.leaders(p.state),
                over=p.over or p.game.finished,
                draw=bool(getattr(p.state, "draw", False)),
            )
        return results

    def recent_line(self, played: Played) -> dict:
        summary = self.summary(played.state, played.players, played.names)
        return {
            "game": played.game,
            "players": played.players,
            "headline": summary.headline if summary.over else "",
        }

    def undo_context(self, played: Played) -> dict:
        return {"reopens": played.over}

    def describe_entry(self, played: Played, number: int) -> str:
        record = played.entry(number)
        return self.describe(record.data, played.names) if record else ""

    # --- writing -----------------------------------------------------------------------------

    def add(self, *, played, form, user, expected_number, client_id=None):
        from . import services

        return services.record_add(
            played=played,
            data=form.record_data(),
            user=user,
            expected_number=expected_number,
            client_id=client_id,
        )

    def correct(self, *, played, number, form, user):
        from . import services

        return services.record_correct(
            played=played,
            number=number,
            data=form.record_data(),
            expected_version=form.cleaned_data.get("version") or 0,
            user=user,
        )

    def undo(self, *, played, number, user):
        from . import services

        reopened = services.record_undo_last(played=played, number=number, user=user)
        return _("The game is open again.") if reopened else ""

    def on_reopen(self, game: Game, before: dict) -> None:
        """A game the rules had ended opens again (its last record undone): undo what its end
        brought (challenge cards given, say), noting it in `before`."""

    # --- standings ---------------------------------------------------------------------------

    standings_table: ClassVar[type]

    def standings_prefetch(self) -> list:
        """Extra prefetches for the games the standings replay."""
        return []

    def standings_rows(self, played: list[Played]) -> list[dict]:  # pragma: no cover
        raise NotImplementedError

    # --- a player's page and head to head ------------------------------------------------------

    #: The standings figure a player follows over time (a key of `standings_rows`' rows that
    #: adds up game after game), drawn cumulated on the player's page; "" for none.
    trend_figure: ClassVar[str] = ""
    #: The chart's title, and a sentence saying what it follows.
    trend_title: ClassVar[Promise | str] = ""
    trend_note: ClassVar[Promise | str] = ""
    #: A sentence saying how `table_results` orders the players (under head to head).
    results_note: ClassVar[Promise | str] = ""

    def table_results(self, played: Played) -> list[dict[int, int]]:
        """The places at the table (1 = best, ties share) of each result this game gives:
        one per game played to its end (a kind whose records are whole games gives one per
        record); none for a game not decided yet."""
        return []

    # --- a club's season of this kind ---------------------------------------------------------

    #: What a season counts of a game: `scoring.season.BEATEN` (the players one finished ahead
    #: of, from `table_results`) or `scoring.season.SCORE` (the kind overrides `season_results`).
    season_figure: ClassVar[str] = season_rules.BEATEN

    def season_results(self, played: Played) -> list[dict[int, int]]:
        """Each result this game gives, as a season counts it ({player pk: figure})."""
        return [season_rules.beaten(result) for result in self.table_results(played)]

    def season_results_from(
        self, game: Game, players: Sequence, datas: Sequence[Any]
    ) -> list[dict[int, int]] | None:
        """`season_results` of a game read as rows: a season replays hundreds of games, so
        their seats and records are not made model instances, nor the players' labels.
        `players`: objects with a pk and a name, in seat order; `datas`: the records' data in
        order. None when the stored records no longer replay (`load` logs those)."""
        try:
            states = self.replay(game, players, datas)
        except ReplayError:
            return None
        return self.season_results(Played(game, self, list(players), [], states))

    def standings(self, date_from=None, date_to=None):
        from .selectors import games_in_range

        played = []
        for game in games_in_range(self, date_from, date_to):
            p = self.load(game, game.records.all())
            if p.state is not None:
                played.append(p)
        rows = [r for r in self.standings_rows(played) if r]
        rows.sort(key=lambda r: r["player"].lower())
        return rows, self.standings_table, played
