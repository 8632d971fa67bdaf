"""The bridge between stored records and the rules in `scoring`: one adapter per game.

A `games.Record` keeps one round (Fool's Faith), deal (Death's Pot, Cuckoo) or whole game
(Keys of the Kingdom) as JSON, in the input format of the scoring module, with player primary
keys as the player keys (strings in JSON object keys, numbers elsewhere):

- Fool's Faith: ``{"tricks": {pk: tricks}}``
- Death's Pot: ``{"death": pk|None, "excuse": pk|None, "trump1": pk|None, "trump11": pk|None,
  "tricks": {pk: tricks}|None}``
- Keys of the Kingdom: ``{"suits": {pk: suit}, "winner": pk, "keys": {pk: keys},
  "guards": {pk: guards}|None}``
- Cuckoo: ``{"cards": {pk: rank}, "swap_losses": {pk: lives}}``

The state of a game is always recomputed by replaying every record (`replay`), so a correction
anywhere is checked against everything that follows it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from scoring import RuleError, cuckoo, deathspot, foolsfaith, keys

FOOLS_FAITH = "foolsfaith"
DEATHS_POT = "deathspot"
KEYS = "keys"
CUCKOO = "cuckoo"
KINDS = (FOOLS_FAITH, DEATHS_POT, KEYS, CUCKOO)


class ReplayError(Exception):
    """Record number `number` (1-based) breaks the rules; `error` says why."""

    def __init__(self, number: int, error: RuleError):
        super().__init__(str(error))
        self.number = number
        self.error = error


def _int(value: Any) -> Any:
    """'12' → 12; anything else unchanged (the rules then refuse it as an unknown player)."""
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


def _pk_map(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {_int(k): v for k, v in value.items()}
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


#: Fields holding a mapping player → value, per game.
PLAYER_MAPS = {
    FOOLS_FAITH: ("tricks",),
    DEATHS_POT: ("tricks",),
    KEYS: ("suits", "keys", "guards"),
    CUCKOO: ("cards", "swap_losses"),
}


def from_json(kind: str, data: Any) -> Any:
    """A stored record → the scoring module's input (player keys back to ints)."""
    if not isinstance(data, Mapping):
        return data
    out = dict(data)
    for field in PLAYER_MAPS[kind]:
        if field in out:
            out[field] = _pk_map(out[field])
    if kind == FOOLS_FAITH:
        return out.get("tricks", out)
    return out


MODULES = {FOOLS_FAITH: foolsfaith, DEATHS_POT: deathspot, KEYS: keys, CUCKOO: cuckoo}


def _option(options: Mapping[str, Any] | None, name: str, default: int) -> Any:
    value = (options or {}).get(name, default)
    return value if value is not None else default


def start(kind: str, players: Sequence[int], options: Mapping[str, Any] | None = None):
    """The state before the first record (RuleError for a bad table or option)."""
    module = MODULES[kind]
    settings = {o.name: _option(options, o.name, o.default) for o in module.OPTIONS}
    return module.start(players, **settings)


def step(kind: str, state, data: Any):
    """The state after one more record, given in the scoring module's input format."""
    return MODULES[kind].step(state, data)


def replay(
    kind: str,
    players: Sequence[int],
    records: Sequence[Any],
    options: Mapping[str, Any] | None = None,
):
    """Replay stored (JSON) records; ReplayError names the first record that breaks the rules."""
    try:
        state = start(kind, players, options)
    except RuleError as e:
        raise ReplayError(0, e) from e
    for number, data in enumerate(records, start=1):
        try:
            state = step(kind, state, from_json(kind, data))
        except RuleError as e:
            raise ReplayError(number, e) from e
    return state


def rules_order(seat_pks: Sequence[int], first_dealer: int) -> list[int]:
    """Seats in playing order starting with the first dealer (the rules' ``players[0]``)."""
    pks = list(seat_pks)
    if not pks:
        return pks
    k = first_dealer % len(pks)
    return pks[k:] + pks[:k]


def is_finished(state) -> bool:
    """Did the rules end the game (Fool's Faith: 2 cards; Cuckoo: one player or none left)?"""
    return bool(getattr(state, "finished", False))


def named_message(error: RuleError, names: Mapping[Any, str], gettext) -> str:
    """The rule's message in the current language, naming players by their label, not pk."""
    params = dict(error.params)
    for key in ("player", "winner"):
        if key in params:
            with contextlib.suppress(TypeError):  # an unhashable value: shown as it is
                params[key] = names.get(params[key], params[key])
    text = gettext(error.template)
    return text % params if params else text
