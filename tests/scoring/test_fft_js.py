"""static/js/tarot-score.js, the phone's offline preview, agrees with `scoring.fft`.

(a) Every call that tests/scoring/test_fft.py makes to `scoring.fft` (its tables, its
    parametrized cases and its hypothesis examples) is recorded, run through the script, and
    compared: the scores and every figure of the breakdown, or the same error code (the name
    of the ERR_ constant) with the same parameters.
(b) 10,000 seeded random deals, valid and invalid mixed, compared the same way.

The script runs in the project's headless Chromium (all cases in one `page.evaluate`), so
`make test` needs no node.
"""

from __future__ import annotations

import functools
import itertools
import random
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from pathlib import Path

import pytest

from scoring import RuleError, fft
from tests.scoring.replayed_js import differences

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "tarot-score.js"

pytestmark = pytest.mark.browser

#: The error codes the script answers with: the names of scoring.fft's ERR_ constants.
CODES = {getattr(fft, name): name for name in dir(fft) if name.startswith("ERR_")}
SAFE = 2**53 - 1


@pytest.fixture(scope="module")
def script_page(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><title>tarot-score</title>")
    page.add_script_tag(path=str(SCRIPT))
    yield page
    page.context.close()


# --- Python values as the script takes them -------------------------------------------------


class OutOfDomain(Exception):
    """A value no phone can send and JavaScript cannot hold as Python does: a Decimal written
    with an exponent, an integer beyond 2**53."""


def to_js(value, *, arg: str = ""):
    """`value` as the script's argument: text stays text, numbers become numbers, a Fraction
    an exact {numerator, denominator}, an enum its string, a mapping a list of pairs."""
    if value is None or isinstance(value, bool | str) and not isinstance(value, Enum):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, fft.TarotRules):
        return value.as_dict()
    if isinstance(value, int):
        if abs(value) > SAFE:
            raise OutOfDomain(value)
        return value
    if isinstance(value, float):
        if arg == "bouts" and value.is_integer():
            raise OutOfDomain(value)  # JavaScript has no 2.0 apart from 2
        return value
    if isinstance(value, Fraction):
        if abs(value.numerator) > SAFE // 2 or value.denominator > SAFE:
            raise OutOfDomain(value)
        return {"numerator": value.numerator, "denominator": value.denominator}
    if isinstance(value, Decimal):
        text = str(value)
        if value.is_finite() and "E" in text:
            raise OutOfDomain(value)
        return text  # what a person would have typed: the same rules apply to the text
    if isinstance(value, dict):
        return [[to_js(k), to_js(v)] for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [to_js(v, arg=arg) for v in value]
    raise OutOfDomain(value)


def out_of_domain(case) -> tuple[str, str]:
    """Why a case cannot be given to the script."""
    name, kwargs = case
    try:
        js_call(name, kwargs)
    except OutOfDomain as e:
        (value,) = e.args
    else:
        raise AssertionError("in the domain")
    if isinstance(value, Decimal):
        return name, "decimal with an exponent"
    if isinstance(value, Fraction):
        return name, "fraction beyond 2**53"
    if isinstance(value, float):
        return name, "float bouts"
    if isinstance(value, int):
        return name, "integer beyond 2**53"
    return name, type(value).__name__


def py_text(value) -> str:
    """A message parameter as the message shows it (Python's %s)."""
    return str(value)


def python_outcome(name: str, kwargs: dict):
    """What scoring.fft answers, in the shape the script's answers are compared in."""
    try:
        result = ORIGINALS[name](**kwargs)
    except RuleError as e:
        return {"error": CODES[e.template], "params": {k: py_text(v) for k, v in e.params.items()}}
    except TypeError:
        return {"error": "TypeError"}
    if name == "score_deal":
        return {
            "scores": [[p, s] for p, s in result.scores.items()],
            "partner": result.partner,
            "attack": list(result.attack),
            "defence": list(result.defence),
            "contract": str(result.contract),
            "bouts": result.bouts,
            "halves": int(result.points * 2),
            "target": result.target,
            "rounded_points": result.rounded_points,
            "won": result.won,
            "gap": result.gap,
            "multiplier": result.multiplier,
            "contract_part": result.contract_part,
            "petit_au_bout": None if result.petit_au_bout is None else str(result.petit_au_bout),
            "petit_au_bout_bonus": result.petit_au_bout_bonus,
            "poignees": [[p, str(k)] for p, k in result.poignees],
            "poignee_bonus": result.poignee_bonus,
            "chelem": str(result.chelem),
            "chelem_bonus": result.chelem_bonus,
            "unit": result.unit,
            "miseres": [[p, str(k)] for p, k in result.miseres],
            "misere_scores": [[p, s] for p, s in result.misere_scores.items()],
        }
    if name == "parse_points":
        return {"value": int(result * 2)}
    if name == "slam_bounds":
        return {"value": None if result is None else [int(b * 2) for b in result]}
    if name == "poignee_sizes":
        return {"value": {str(k): v for k, v in result.items()}}
    return {"value": result}  # parse_bouts, format_points


def js_call(name: str, kwargs: dict):
    """The script's call for the same case: [function, arguments]."""
    if name == "score_deal":
        return ["scoreDeal", [{k: to_js(v, arg=k) for k, v in kwargs.items()}]]
    if name == "parse_points":
        return ["parsePoints", [to_js(kwargs["value"])]]
    if name == "parse_bouts":
        return ["parseBouts", [to_js(kwargs["value"], arg="bouts")]]
    if name == "slam_bounds":
        keys = ("chelem", "contract", "bouts", "players")
        return ["slamBounds", [to_js(kwargs[k]) for k in keys]]
    if name == "poignee_sizes":
        return ["poigneeSizes", [kwargs["n_players"]]]
    if name == "format_points":
        points = kwargs["points"]
        if (points * 2).denominator != 1:
            raise OutOfDomain(points)
        return ["formatPoints", [int(points * 2)]]
    raise AssertionError(name)


#: Runs every case in the page; answers in python_outcome's shape.
RUN_CASES = """
(cases) => {
  function pyText(v) {
    if (v === null || v === undefined) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (typeof v === "number") {
      if (Number.isNaN(v)) return "nan";
      if (v === Infinity) return "inf";
      if (v === -Infinity) return "-inf";
      return String(v);
    }
    if (typeof v === "string") return v;
    if (Array.isArray(v)) {
      return "[" + v.map(x => typeof x === "string" ? "'" + x + "'" : pyText(x)).join(", ") + "]";
    }
    if (v && "numerator" in v) {
      return v.denominator === 1 ? String(v.numerator) : v.numerator + "/" + v.denominator;
    }
    return String(v);
  }
  return cases.map(([fn, args]) => {
    try {
      const r = TarotScore[fn](...args);
      if (fn !== "scoreDeal") return {value: r};
      const out = Object.assign({}, r);
      delete out.seats; delete out.taker;
      return out;
    } catch (e) {
      if (e instanceof TarotScore.RuleError) {
        const params = {};
        for (const k of Object.keys(e.params)) params[k] = pyText(e.params[k]);
        return {error: e.code, params};
      }
      if (e instanceof TypeError) return {error: "TypeError"};
      return {error: "unexpected " + String(e)};
    }
  });
}
"""


def compare(page, cases):
    """Run `cases` ([(name, kwargs)]) through the script; the ones that disagree."""
    calls, expected = [], []
    for name, kwargs in cases:
        calls.append(js_call(name, kwargs))
        expected.append(python_outcome(name, kwargs))
    return differences(page, RUN_CASES, calls, cases, expected)


# --- (a) every call the scoring tests make ----------------------------------------------------

RECORDED = ("score_deal", "parse_points", "parse_bouts", "slam_bounds", "poignee_sizes")
ORIGINALS = {name: getattr(fft, name) for name in (*RECORDED, "format_points")}


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


def record_the_scoring_tests(monkeypatch):
    """Run tests/scoring/test_fft.py's and test_house_rules.py's tests with scoring.fft's
    functions recording every call the tests make (not the calls the rules make to
    themselves); return the calls."""
    from tests.scoring import test_fft, test_house_rules

    modules = (test_fft, test_house_rules)

    calls: list[tuple[str, dict]] = []
    depth = [0]

    def recorder(name, original):
        signature_names = original.__code__.co_varnames[: original.__code__.co_argcount]

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            if depth[0] == 0:
                calls.append((name, {**dict(zip(signature_names, args, strict=False)), **kwargs}))
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1

        return wrapper

    for name in (*RECORDED, "format_points"):
        wrapped = recorder(name, ORIGINALS[name])
        monkeypatch.setattr(fft, name, wrapped)
        for module in modules:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, wrapped)
    ran = 0
    for module in modules:
        for name, func in sorted(vars(module).items()):
            if name.startswith("test_") and callable(func) and func.__module__ == module.__name__:
                for kwargs in parametrizations(func):
                    func(**kwargs)
                    ran += 1
    return calls, ran


def test_the_script_agrees_with_every_case_of_the_scoring_tests(script_page, monkeypatch):
    calls, ran = record_the_scoring_tests(monkeypatch)
    monkeypatch.undo()
    assert ran > 200  # every test of test_fft.py, each parametrization
    cases, outside = [], []
    for name, kwargs in calls:
        try:
            js_call(name, kwargs)
        except OutOfDomain:
            outside.append((name, kwargs))
        else:
            cases.append((name, kwargs))
    # What JavaScript cannot be given as Python is: Decimals with an exponent of millions,
    # integers of 5,000 digits, fractions beyond 2**53, a float 2.0 as bouts (JavaScript's 2.0
    # is 2). No phone sends them; there are few, and nothing else.
    assert len(outside) <= 40, len(outside)
    assert {reason for _name, reason in map(out_of_domain, outside)} <= {
        "decimal with an exponent",
        "integer beyond 2**53",
        "fraction beyond 2**53",
        "float bouts",
    }
    by_function = {name: sum(1 for n, _ in cases if n == name) for name in ORIGINALS}
    assert by_function["score_deal"] > 1000, by_function
    assert all(by_function[name] > 0 for name in ORIGINALS), by_function
    errors = {python_outcome(n, k).get("error") for n, k in cases} - {None}
    assert set(CODES.values()) - errors == UNREACHED_BY_TESTS
    assert compare(script_page, cases) == []


#: Error codes test_fft.py does not reach through these functions (none today).
UNREACHED_BY_TESTS: set[str] = set()


# --- (b) 10,000 random deals, valid and invalid ----------------------------------------------

KEYS = ["ann", "bob", "cat", "dan", "eve", "fay", 1, 2, 3, 17, 40]


def random_points(rng: random.Random, low: int, high: int):
    """Card points between `low` and `high` half points, as a form, a caller or a slip sends."""
    roll = rng.random()
    if roll < 0.08:  # anything a thumb types
        return rng.choice(
            [
                "",
                "-",
                "abc",
                "40.25",
                "92",
                "-3",
                "1e3",
                "٤٠",
                "４０",
                "40½½",
                "91.5",
                " 40,5 ",
                "½",
            ]
            + ["0,5", "40.", ".5", "40 ½", "1000", "4_0", "+4", "40.50", "12.345", "\t7 "]
        )
    halves = rng.randint(low, high) if roll < 0.9 else rng.randint(-4, 190)
    style = rng.choice(["text", "comma", "half", "int", "fraction", "float"])
    whole, half = divmod(halves, 2)
    if style == "text":
        return f"{whole}.5" if half else str(whole)
    if style == "comma":
        return f"{whole},5" if half else f"{whole},0"
    if style == "half":
        return f"{whole}½" if half else str(whole)
    if style == "int":
        return halves // 2 if not half else Fraction(halves, 2)
    if style == "fraction":
        return Fraction(halves, 2)
    # a float only with a half: JavaScript's -1.0 is -1, so a refusal would quote "-1", not
    # Python's "-1.0" (the page sends text; only the tests send numbers)
    return halves / 2 if half else Fraction(halves, 2)


def random_deal(rng: random.Random) -> dict:
    """A deal: mostly one that could happen (points within its bouts' and slam's limits), with
    one thing or another wrong in many."""
    n = rng.choice([3, 4, 5]) if rng.random() > 0.02 else rng.choice([2, 6])
    seats = rng.sample(KEYS, n)
    if rng.random() < 0.01:
        seats[rng.randrange(n)] = rng.choice([None, "", seats[0]])
    taker = rng.choice(seats) if rng.random() > 0.01 else "zoe"
    partner = None
    if n == 5 and rng.random() < 0.9:
        partner = rng.choice(seats)
    elif rng.random() < 0.01:
        partner = rng.choice([*seats, "zoe"])
    contract = rng.choice([str(c) for c in fft.Contract])
    if rng.random() < 0.01:
        contract = rng.choice(["Garde", "petite", None])
    chelem = rng.choice(
        ["none"] * 6 + ["announced_made", "unannounced_made", "announced_failed", "defence"]
    )
    if rng.random() < 0.01:
        chelem = rng.choice(["made", None, "NONE"])
    bouts = rng.choice([0, 1, 2, 3])
    low, high = 8 * bouts, 2 * (91 - 4 * (3 - bouts))
    made = chelem in ("announced_made", "unannounced_made", "defence")
    if made and rng.random() < 0.8 and contract in fft.MULTIPLIERS:
        bounds = fft.slam_bounds(
            fft.Chelem(chelem), fft.Contract(contract), bouts, max(3, min(n, 5))
        )
        if bounds is not None and max(low, bounds[0] * 2) <= min(high, bounds[1] * 2):
            low, high = max(low, int(bounds[0] * 2)), min(high, int(bounds[1] * 2))
    points = random_points(rng, low, high)
    bouts_sent = bouts
    if rng.random() < 0.04:
        bouts_sent = rng.choice([str(bouts), f" {bouts} ", 4, -1, "x", None, True, "٣", "12"])
    petit = rng.choice([None, None, None, "attack", "defence"])
    if rng.random() < 0.01:
        petit = rng.choice(["taker", ""])
    poignees = []
    for player in rng.sample(seats, min(n, rng.choice([0, 0, 0, 1, 1, 2, 3]))):
        poignees.append((player, rng.choice(["simple", "simple", "double", "triple"])))
    if rng.random() < 0.01:
        poignees.append(rng.choice([("zoe", "simple"), (seats[0], "quadruple"), ("x",), None]))
    # House rules in a quarter of the deals, with misères declared (a few of them wrong).
    rules, miseres = None, []
    if rng.random() < 0.25:
        rules = fft.TarotRules(
            misere_tete=rng.random() < 0.7,
            misere_atout=rng.random() < 0.7,
            misere_amount=rng.choice([5, 10, 20]),
            poignee_simple=rng.choice([10, 20, 25]),
            poignee_double=rng.choice([20, 30, 35]),
            poignee_triple=rng.choice([30, 40, 60]),
        )
        for player in rng.sample(seats, min(n, rng.choice([0, 1, 1, 2]))):
            miseres.append((player, rng.choice(["tete", "atout"])))
        if rng.random() < 0.05:
            miseres.append(rng.choice([("zoe", "tete"), (seats[0], "dos"), ("x",), "tete"]))
    elif rng.random() < 0.01:
        miseres = [(seats[0], "tete")]  # refused: the federation's rules have no misère
    return dict(
        rules=rules,
        miseres=miseres,
        seats=seats,
        taker=taker,
        partner=partner,
        contract=contract,
        bouts=bouts_sent,
        points=points,
        petit_au_bout=petit,
        poignees=poignees,
        chelem=chelem,
    )


def test_ten_thousand_random_deals_agree(script_page):
    rng = random.Random(20261201)
    deals = [random_deal(rng) for _ in range(10_000)]
    cases = [("score_deal", d) for d in deals]
    outcomes = [python_outcome("score_deal", d) for d in deals]
    valid = sum(1 for o in outcomes if "error" not in o)
    # a real mix: most deals score, and the refusals cover nearly every code
    assert 4_000 <= valid <= 9_000, valid
    codes = {o["error"] for o in outcomes if "error" in o}
    assert len(codes) >= 25, sorted(codes)
    assert compare(script_page, cases) == []


def test_the_comparison_sees_a_difference(script_page, monkeypatch):
    """The harness is not blind: a case the script answers differently is reported."""
    case = dict(seats=["a", "b", "c"], taker="a", contract="garde", bouts=2, points=49)
    assert compare(script_page, [("score_deal", case)]) == []
    original = ORIGINALS["score_deal"]
    monkeypatch.setitem(ORIGINALS, "score_deal", lambda **kw: original(**{**kw, "points": 50}))
    assert len(compare(script_page, [("score_deal", case)])) == 1


def test_every_number_sign_of_every_script_gets_the_same_message(script_page):
    """Points typed with another script's digit say "the digits 0 to 9"; the script knows
    the same characters as Python's isnumeric (\\p{N} and the numeric ideographs)."""
    import sys
    import unicodedata

    signs = [
        chr(i)
        for i in range(sys.maxunicode + 1)
        if chr(i).isnumeric() or unicodedata.category(chr(i)).startswith("N")
    ]
    assert len(signs) > 1500
    cases = [("parse_points", {"value": text}) for c in signs for text in (c, f"4{c}", f"{c}½")]
    assert compare(script_page, cases) == []
