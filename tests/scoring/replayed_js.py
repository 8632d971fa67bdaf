"""What the tests of the phone's ports of the replayed games share (static/js/<kind>-score.js on
record-rules.js): Python values as the scripts take them, the recording of every call a
scoring test makes, and the comparison in the shared Chromium."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

from scoring import RuleError
from scoring._common import HouseRules

JS = Path(__file__).resolve().parents[2] / "static" / "js"
SAFE = 2**53 - 1


class OutOfDomain(Exception):
    """A value JavaScript cannot hold as Python does (an integer beyond 2**53...)."""


def to_js(value, state_js=None):
    """`value` as record-rules.js takes it: JSON, with tags for a mapping, a float, a tuple and
    a set; a rules state through `state_js`."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        if abs(value) > SAFE:
            raise OutOfDomain(value)
        return value
    if isinstance(value, float):
        return {"$float": value}
    if isinstance(value, HouseRules):
        return value.as_dict()  # a plain object, as the page's options hold them
    if isinstance(value, dict):
        return {"$map": [[to_js(k), to_js(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return [to_js(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [to_js(v) for v in value]}
    if isinstance(value, set | frozenset):
        return {"$set": [to_js(v) for v in value]}
    if state_js is not None:
        return state_js(value)
    raise OutOfDomain(value)


def pairs(mapping):
    return [[to_js(k), to_js(v)] for k, v in mapping.items()]


def error_outcome(error: RuleError, codes: dict) -> dict:
    return {"error": codes[error.template], "params": {k: str(v) for k, v in error.params.items()}}


def parametrizations(func):
    """Every keyword set pytest would call `func` with (its parametrize marks, crossed)."""
    axes = []
    for mark in getattr(func, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]
        if len(names) == 1:
            axes.append([{names[0]: v} for v in values])
        else:
            axes.append([dict(zip(names, v, strict=True)) for v in values])
    for combination in itertools.product(*axes):
        yield {k: v for part in combination for k, v in part.items()}


def record_calls(monkeypatch, module, names, test_modules, fixtures=None):
    """Run every test of `test_modules` with `module`'s functions `names` recording each call
    the tests make (not the calls the rules make to themselves): ([(name, args)], tests run).
    `fixtures` gives the values of the fixtures a test asks for."""
    calls: list[tuple[str, tuple]] = []
    depth = [0]

    def recorder(name, original):
        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            if depth[0] == 0:
                code = original.__code__
                arg_names = code.co_varnames[: code.co_argcount]
                bound = {**dict(zip(arg_names, args, strict=False)), **kwargs}
                calls.append((name, tuple(bound.values())))
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1

        return wrapper

    for name in names:
        wrapped = recorder(name, getattr(module, name))
        monkeypatch.setattr(module, name, wrapped)
        for test_module in test_modules:
            if getattr(test_module, name, None) is not None:
                monkeypatch.setattr(test_module, name, wrapped)
    ran = 0
    for test_module in test_modules:
        for test_name, func in sorted(vars(test_module).items()):
            if test_name.startswith("test_") and callable(func):
                for kwargs in parametrizations(func):
                    wanted = func.__code__.co_varnames[: func.__code__.co_argcount]
                    extra = {k: (fixtures or {})[k] for k in wanted if k not in kwargs}
                    func(**kwargs, **extra)
                    ran += 1
    return calls, ran


def open_script_page(browser, *scripts: str):
    page = browser.new_page()
    page.set_content("<!doctype html><title>rules</title>")
    for script in ("record-rules.js", *scripts):
        page.add_script_tag(path=str(JS / script))
    return page


#: Runs [(function, args)] through RecordRules.kinds[kind]: {state}, {value} or {error}.
RUN_CASES = """
([kind, cases]) => {
  const R = RecordRules, K = RecordRules.kinds[kind];
  return cases.map(([fn, args]) => {
    try {
      if (fn === "step") return {state: K.exported(K.step(K.imported(args[0]), args[1]))};
      if (fn in K.values) return {value: K.values[fn](...args)};
      return {state: K.exported(K[fn](...args))};
    } catch (e) {
      if (e instanceof R.RuleError) {
        const params = {};
        for (const k of Object.keys(e.params)) params[k] = R.pyText(e.params[k]);
        return {error: e.code, params};
      }
      return {error: "unexpected " + String(e) + " " + e.stack};
    }
  });
}
"""


#: Runs a runner (a JS function's source: its argument -> one answer per case) in the page and
#: compares its answers with the expected ones there, as JSON values (objects by their keys,
#: arrays in order): only the answers that differ come back, [[index, answer]].
DIFF = """
([runner, argJson, expectedJson]) => {
  const run = (0, eval)("(" + runner + ")");
  const parse = (v) => (typeof v === "string" ? JSON.parse(v) : v);
  const answers = JSON.parse(JSON.stringify(run(parse(argJson))));
  const expected = parse(expectedJson);
  function same(a, b) {
    if (a === b) return true;
    if (Array.isArray(a)) {
      return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
    }
    if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(b)) {
      const keys = Object.keys(a);
      return keys.length === Object.keys(b).length &&
        keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
    }
    return false;
  }
  const out = [];
  if (answers.length !== expected.length) out.push([-1, answers.length]);
  answers.forEach((got, i) => { if (!same(got, expected[i])) out.push([i, got]); });
  return out;
}
"""


def _as_json(value):
    """`value` as JSON text, or as it is when JSON cannot say it (a NaN or an infinity, which
    the page then receives through Playwright's own serialisation)."""
    try:
        return json.dumps(value, allow_nan=False)
    except ValueError:
        return value


def differences(page, runner: str, arg, cases, expected) -> list[tuple]:
    """`cases` whose answer from `runner(arg)` in the page is not the `expected` one:
    [(case, expected, answer)]. The cases go over as one JSON text and only the differing
    answers come back: 10,000 states need not cross the wire (that was most of the time)."""
    found = page.evaluate(DIFF, [runner, _as_json(arg), _as_json(expected)])
    return [
        (cases[i] if i >= 0 else "count", expected[i] if i >= 0 else len(expected), got)
        for i, got in found
    ]


def compare(page, kind, cases, python_outcome, js_call):
    """Run `cases` ([(name, args)]) through the script; the ones that disagree."""
    calls = [js_call(name, args) for name, args in cases]
    expected = [python_outcome(name, args) for name, args in cases]
    return differences(page, RUN_CASES, [kind, calls], cases, expected)
