"""What the tests of the phone's ports of the replayed games share (static/js/<kind>-score.js on
record-rules.js): Python values as the scripts take them, the recording of every call a
scoring test makes, and the comparison in the shared Chromium."""

from __future__ import annotations

import functools
import itertools
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


def compare(page, kind, cases, python_outcome, js_call):
    """Run `cases` ([(name, args)]) through the script; the ones that disagree."""
    calls = [js_call(name, args) for name, args in cases]
    expected = [python_outcome(name, args) for name, args in cases]
    answers = page.evaluate(RUN_CASES, [kind, calls])
    return [
        (case, want, got)
        for case, want, got in zip(cases, expected, answers, strict=True)
        if want != got
    ]
