"""The crawl of the demo club at 360 x 740, shared by the tests/browser/test_crawl_*.py modules
(this module is not collected: its name is not test_*.py).

Every page of the demo club, as a director and anonymously, in French, Dutch and English: no
sideways scroll, no clipped frame, no word broken in the middle, no tap target under 44 x 44 px,
no serious or critical axe-core violation, no 5xx (issue 11).

The crawl is breadth-first over same-origin links from "/" plus a few seeds (forms and pages
no link reaches), one page or two per URL shape (the path with its numbers and tokens
generalised, and the names of its query keys), so that the sort and page variants of a list
are seen once. Downloads are fetched and only checked for their status and type. Everything is
collected and the test fails once, at the end, with a summary; the summary (and a JSON copy
for comparing runs) is written to artifacts/crawl/summary-<role>-<languages>.txt (.json) and
printed. A screenshot of every page is saved to artifacts/crawl/<role>/<language>/<page>.png.

The layout checks run in every language (a word's length changes the page); what does not
depend on the language is done in the first one only (French): the downloads' status and
type, the axe-core audit and the screenshots (and on any page with a finding, in any
language). The anonymous visitor is crawled in the first language only: besides the login
page, what he sees are the director's public pages with fewer buttons, and those are checked in
every language as the director's.
`CRAWL_FULL=1` does all of them in every language.

Each (role, language) crawl is a test module of its own (test_crawl_director_fr.py, ...), so
that pytest-xdist (`--dist loadfile`) spreads them over its processes instead of one process
holding the whole crawl: each crawls the demo club in a database of its own, with a browser
of its own.

`CRAWL_ROLES=director CRAWL_LANGS=fr` (comma-separated) narrow a run when looking at a page
(the other modules are skipped, saying so); `CRAWL_WORKERS=1` crawls the languages of one
module (the anonymous visitor's under `CRAWL_FULL=1`) with one browser instead of two;
`CRAWL_MOBILE=0` measures in a desktop browser window of the same size instead of an emulated
phone (touch, coarse pointer).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from tests.browsing import ARGS, chromium_path

from .pagecheck import axe, measure

VIEWPORT = {"width": 360, "height": 740}
ROLES = ("director", "anonymous")
LANGS = ("fr", "nl", "en")
PHONE = os.environ.get("CRAWL_MOBILE", "1") != "0"
FULL = os.environ.get("CRAWL_FULL", "0") == "1"
CATEGORIES = (
    "server_errors",
    "page_scroll",
    "frames",
    "broken_words",
    "small_targets",
    "ascii_minus",
    "axe",
)

#: How many pages of one shape are checked besides the seeds: a path without a query (each
#: game kind and each tournament state renders differently: the seeds name one of each, and
#: a seed is always checked), and a path with a given set of query keys (?sort=, ?page=: the
#: same page sorted or paged).
PER_PATH_SHAPE = 1
PER_QUERY_SHAPE = 1
#: Downloads are only checked for their status and type: one of each shape.
PER_DOWNLOAD_SHAPE = 1
#: Never followed: they log out, leave the site's own pages, or change the language.
NEVER = ("/logout/", "/admin/", "/i18n/", "/static/", "/media/")
DOWNLOADS = {
    ".pdf": ("application/pdf",),
    ".csv": ("text/csv",),
    ".xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",),
    ".svg": ("image/svg+xml",),
}
#: A download's content type, when its path names it by a format (``standings.<fmt>``).
NUMBER = re.compile(r"^\d+$")
#: A game's share token (`secrets.token_urlsafe(18)`: 24 characters); no word of a path is
#: that long.
TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,32}$")

#: The marks of every crawl module: skipped, saying why, where Chromium is missing.
MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not chromium_path(), reason="Debian's chromium is not installed"),
]


def _env_list(name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = os.environ.get(name, "")
    return tuple(v.strip() for v in value.split(",") if v.strip()) or default


# URL shapes -----------------------------------------------------------------------------------


def path_shape(path: str) -> str:
    """The path with its numbers and share tokens generalised: /t/<token>/deal/<n>/."""
    parts = []
    for part in path.split("/"):
        stem, dot, ext = part.partition(".")
        if NUMBER.match(stem):
            stem = "<n>"
        elif TOKEN.match(stem):
            stem = "<token>"
        parts.append(stem + dot + ext)
    return "/".join(parts)


def shape(url: str) -> tuple[str, tuple[str, ...]]:
    parts = urlsplit(url)
    keys = tuple(sorted({k for k, _v in parse_qsl(parts.query, keep_blank_values=True)}))
    return path_shape(parts.path), keys


def canonical(url: str) -> str:
    """Path and sorted query, without the fragment."""
    parts = urlsplit(url)
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return parts.path + ("?" + query if query else "")


def slug(url: str, names: dict[str, str] | None = None) -> str:
    """A file name for the page's screenshot; share tokens become `names[token]` (the game's
    kind and number), so that two runs name the same page alike."""
    path = "/".join((names or {}).get(part, part) for part in canonical(url).split("/"))
    text = path.strip("/") or "home"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:150]


def token_names() -> dict[str, str]:
    from tarotclub.games.models import Game

    return {token: f"{kind}-{pk}" for pk, kind, token in Game.objects.values_list(
        "pk", "kind", "token"
    )}  # fmt: skip


def download_types(path: str) -> tuple[str, ...] | None:
    for suffix, types in DOWNLOADS.items():
        if path.endswith(suffix):
            return types
    return None


def post_only(path: str) -> bool:
    """The view only answers POST (`require_POST`): following a link to it is pointless."""
    from django.urls import Resolver404, resolve

    try:
        view = resolve(path).func
    except Resolver404:
        return False
    while view is not None:
        for cell in getattr(view, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(value, list | tuple) and value and set(value) == {"POST"}:
                return True
        view = getattr(view, "__wrapped__", None)
    return False


# Results -------------------------------------------------------------------------------------


@dataclass
class PageResult:
    role: str
    lang: str
    url: str
    status: int
    found: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Crawl:
    pages: list[PageResult] = field(default_factory=list)
    downloads: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # crawl errors, bad downloads
    seconds: Counter = field(default_factory=Counter)  # where the time went

    def count(self, category: str) -> int:
        return sum(len(p.found.get(category, [])) for p in self.pages)

    def pages_with(self, category: str) -> int:
        return sum(1 for p in self.pages if p.found.get(category))

    def failed(self) -> bool:
        return bool(self.problems) or any(self.count(c) for c in CATEGORIES)


def _element(description: str) -> str:
    """`a.nav "Games": 40x20` -> `a.nav "Games"` (the element and its text, not its size)."""
    return re.sub(r": (content )?\d+px in \d+px$|: \d+x\d+$", "", description)


def summary(crawl: Crawl, seconds: float) -> tuple[str, dict]:
    per_context = Counter(f"{p.role}/{p.lang}" for p in crawl.pages)
    unique = {canonical(p.url) for p in crawl.pages}
    shapes = {shape(p.url) for p in crawl.pages}
    lines = [
        f"Crawl of the demo club at {VIEWPORT['width']}x{VIEWPORT['height']}: "
        f"{len(crawl.pages)} pages checked ({len(unique)} distinct URLs, {len(shapes)} shapes), "
        f"{len(crawl.downloads)} downloads, in {seconds:.0f} s",
        "  per role/language: " + ", ".join(f"{k} {v}" for k, v in sorted(per_context.items())),
        "  time (summed over the browsers): "
        + ", ".join(f"{k} {v:.0f} s" for k, v in sorted(crawl.seconds.items())),
        "",
        "Totals (items, pages with any):",
    ]
    totals = {}
    for category in CATEGORIES:
        totals[category] = crawl.count(category)
        lines.append(
            f"  {category:14} {crawl.count(category):6}  on {crawl.pages_with(category)} pages"
        )
    lines.append(f"  {'crawl problems':14} {len(crawl.problems):6}")
    rules = Counter(item.split(" ", 1)[0] for p in crawl.pages for item in p.found.get("axe", []))
    if rules:
        lines += ["", "axe violations (serious/critical) by rule, pages:"]
        lines += [f"  {rule}: {n}" for rule, n in rules.most_common()]
    by_selector: dict[str, Counter] = {}
    for category in ("small_targets", "broken_words", "frames", "ascii_minus"):
        counter = Counter(_element(item) for p in crawl.pages for item in p.found.get(category, []))
        by_selector[category] = counter
        if counter:
            lines += ["", f"Top {category} (by element, all pages and languages):"]
            lines += [f"  {n:5}  {what}" for what, n in counter.most_common(30)]
    by_page: dict[str, Counter] = {}
    for category in CATEGORIES:
        counter = Counter()
        for p in crawl.pages:
            counter[shape(p.url)[0]] += len(p.found.get(category, []))
        by_page[category] = +counter
    lines += ["", "Top pages (by URL shape, all roles and languages):"]
    for category in CATEGORIES:
        if by_page[category]:
            top = ", ".join(f"{page} {n}" for page, n in by_page[category].most_common(8))
            lines.append(f"  {category}: {top}")
    if crawl.problems:
        lines += ["", "Crawl problems (downloads, errors):"]
        lines += [f"  {p}" for p in crawl.problems[:50]]
    lines += ["", "Per page (first offenders):"]
    for p in crawl.pages:
        bad = {c: v for c, v in p.found.items() if v}
        if not bad:
            continue
        lines.append(f"  [{p.role}/{p.lang}] {canonical(p.url)} (status {p.status})")
        for category, items in bad.items():
            shown = "; ".join(items[:3])
            more = f" (+{len(items) - 3} more)" if len(items) > 3 else ""
            lines.append(f"      {category} {len(items)}: {shown}{more}")
    data = {
        "seconds": round(seconds, 1),
        "pages": len(crawl.pages),
        "distinct_urls": len(unique),
        "per_context": dict(per_context),
        "downloads": len(crawl.downloads),
        "totals": totals,
        "crawl_problems": crawl.problems,
        "axe_rules": dict(rules),
        "top": {c: counter.most_common(50) for c, counter in by_selector.items()},
        "top_pages": {c: counter.most_common(20) for c, counter in by_page.items()},
        "pages_detail": [
            {"role": p.role, "lang": p.lang, "url": canonical(p.url), "status": p.status,
             "found": p.found}
            for p in crawl.pages
        ],
    }  # fmt: skip
    return "\n".join(lines), data


# The crawl -----------------------------------------------------------------------------------


def seeds(built: dict) -> list[str]:
    """Pages no link may reach from "/" (forms, each game kind, each tournament state)."""
    from django.urls import reverse

    urls = [
        reverse("login"),
        reverse("players:new"),
        reverse("games:new"),
        reverse("tournaments:new"),
        reverse("games:standings"),
        reverse("foolsfaith:challenges"),
        reverse("history"),
        reverse("backup"),
        reverse("search:search") + "?q=e",  # the header's search box, with results of each kind
        reverse("search:search") + "?q=zzzz",  # and with none
        "/nowhere/",  # the page not found
        reverse("games:sheet", args=["gone-" + "x" * 20]),  # a share link to no game
    ]
    for kind in ("tarot", "foolsfaith", "deathspot", "keys", "cuckoo"):
        urls.append(reverse("games:standings_kind", args=[kind]))
    games = [built[k] for k in ("five", "finished", "foolsfaith", "deathspot", "keys", "cuckoo")]
    for game in games:
        urls.append(reverse("games:sheet", args=[game.token]))
        urls.append(reverse("games:history", args=[game.token]))
        if not game.finished:
            urls.append(reverse("games:deal_new", args=[game.token]))
        urls.append(reverse("games:deal_edit", args=[game.token, 1]))
    five = built["five"]
    urls.append(reverse("games:deal", args=[five.token, 3]))  # the chelem
    # a player of the other games, and head to head with a player she met at Cuckoo
    amelie, marie = built["players"][0], built["long_names"][0]
    urls.append(reverse("players:detail", args=[marie.pk]))
    urls.append(reverse("players:versus", args=[marie.pk]) + f"?other={amelie.pk}")
    for t in built["tournaments"].values():
        for name in ("standings", "manage", "projector", "where", "players", "deals"):
            app = "reports" if name in ("players", "deals") else "tournaments"
            urls.append(reverse(f"{app}:{name}", args=[t.pk]))
    match = built["team_match"]
    urls.append(reverse("matches:results", args=[match.pk]))
    urls.append(reverse("matches:quarter", args=[match.pk, 4]))
    urls.append(reverse("matches:edit", args=[match.pk]))
    running = built["tournaments"]["running"]
    open_table = running.tables.filter(round=running.current_round, game__locked=False).first()
    if open_table is not None:
        urls.append(reverse("games:sheet", args=[open_table.game.token]))
        urls.append(reverse("games:deal_new", args=[open_table.game.token]))
    return urls


class Crawler:
    def __init__(
        self, context, base: str, role: str, lang: str, crawl: Crawl, shots, names, *, whole=True
    ):
        self.context, self.base, self.role, self.lang = context, base, role, lang
        #: The language-free checks too (downloads, axe, every screenshot): the first language.
        self.whole = whole or FULL
        self.crawl, self.shots, self.names = crawl, shots, names
        self.page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.seen: set[str] = set()
        self.shapes: Counter = Counter()

    def allowed(self, url: str, *, seed: bool) -> bool:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or f"{parts.scheme}://{parts.netloc}" != (
            self.base
        ):
            return False
        if any(parts.path.startswith(p) for p in NEVER) or post_only(parts.path):
            return False
        key = canonical(url)
        if key in self.seen:
            return False
        path, query_keys = shape(url)
        if download_types(path) is not None:
            cap = PER_DOWNLOAD_SHAPE
        else:
            cap = PER_QUERY_SHAPE if query_keys else PER_PATH_SHAPE
        return seed or self.shapes[(path, query_keys)] < cap

    def take(self, url: str) -> None:
        self.seen.add(canonical(url))
        self.shapes[shape(url)] += 1

    def run(self, start: list[str]) -> None:
        queue = deque((self.base + u, True) for u in start)
        while queue:
            url, seed = queue.popleft()
            if not self.allowed(url, seed=seed):
                continue
            self.take(url)
            types = download_types(urlsplit(url).path)
            began = time.monotonic()
            if types is not None:
                if self.whole:
                    self.download(url, types)
                self.crawl.seconds["downloads"] += time.monotonic() - began
                continue
            links = self.visit(url)
            self.crawl.seconds["pages"] += time.monotonic() - began
            for link in links:
                queue.append((link, False))
        self.page.close()

    def download(self, url: str, types: tuple[str, ...]) -> None:
        where = f"[{self.role}/{self.lang}] {canonical(url)}"
        try:
            response = self.context.request.get(url, timeout=60_000, max_redirects=0)
        except Exception as e:  # noqa: BLE001 (reported with the others)
            self.crawl.problems.append(f"{where}: download failed: {e}")
            return
        kind = response.headers.get("content-type", "").split(";")[0].strip()
        self.crawl.downloads.append((self.role, self.lang, canonical(url), response.status, kind))
        if response.status >= 500:
            self.crawl.problems.append(f"{where}: download status {response.status}")
        elif response.status == 200 and kind not in types:
            self.crawl.problems.append(f"{where}: download type {kind!r}, expected {types[0]}")

    def visit(self, url: str) -> list[str]:
        page = self.page
        try:
            response = page.goto(url, wait_until="load")
        except Exception as e:  # noqa: BLE001
            self.crawl.problems.append(f"[{self.role}/{self.lang}] {canonical(url)}: {e}")
            return []
        status = response.status if response is not None else 0
        final = page.url
        if canonical(final) != canonical(url):  # redirected: check the page once
            if canonical(final) in self.seen or not self.allowed(final, seed=True):
                return []
            self.take(final)
        kind = (response.headers.get("content-type", "") if response else "").split(";")[0]
        result = PageResult(self.role, self.lang, final, status)
        self.crawl.pages.append(result)
        result.found = {c: [] for c in CATEGORIES}
        if status >= 500:
            result.found["server_errors"].append(f"status {status}")
        if kind != "text/html":
            return []
        began = time.monotonic()
        for attempt in range(2):
            try:
                result.found.update(self.check(page))
                break
            except Exception as e:  # noqa: BLE001 (a page that reloads itself: once more)
                if attempt:
                    self.crawl.problems.append(f"[{self.role}/{self.lang}] {canonical(url)}: {e}")
                page.wait_for_load_state("load")
        self.crawl.seconds["checks"] += time.monotonic() - began
        try:
            began = time.monotonic()
            if self.whole or any(result.found.values()):
                shot = self.shots / f"{slug(final, self.names)}.png"
                page.screenshot(path=str(shot), full_page=True)
            self.crawl.seconds["screenshots"] += time.monotonic() - began
            links = page.eval_on_selector_all(
                "a[href]", "els => els.map((a) => a.href.split('#')[0])"
            )
        except Exception as e:  # noqa: BLE001
            self.crawl.problems.append(f"[{self.role}/{self.lang}] {canonical(url)}: {e}")
            return []
        return list(dict.fromkeys(links))

    def check(self, page) -> dict[str, list[str]]:
        # Every panel open (poignées, chelem, the share link): what they hold is measured as
        # a player who opens them sees it; their summaries are measured too.
        page.evaluate(
            "document.querySelectorAll('details:not([open])').forEach((d) => d.open = true)"
        )
        found = measure(page)
        began = time.monotonic()
        found["axe"] = axe(page) if self.whole else []
        self.crawl.seconds["axe"] += time.monotonic() - began
        return found


def session_cookie(user, base: str) -> dict:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": base,
    }


def crawl_jobs(jobs: list, base: str, start_urls: list[str], names, out) -> list[Crawl]:
    """Crawl each (role, language, cookies) of `jobs` in its own context of one browser."""
    from playwright.sync_api import sync_playwright

    done = []
    with sync_playwright() as p:
        # threads of their own, so each owns its Playwright and its Chromium
        browser = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        for role, lang, cookies, whole in jobs:
            context = browser.new_context(
                viewport=VIEWPORT, locale=lang, is_mobile=PHONE, has_touch=PHONE
            )
            context.add_cookies(cookies)
            shots = out / role / lang
            shots.mkdir(parents=True, exist_ok=True)
            crawl = Crawl()
            Crawler(context, base, role, lang, crawl, shots, names, whole=whole).run(start_urls)
            context.close()
            done.append(crawl)
        browser.close()
    return done


def crawl_languages(role: str, lang: str | None = None) -> list[tuple[str, bool]]:
    """(language, whole) of each crawl of `role` a module makes: `lang` only, or every
    language the role is crawled in (the anonymous visitor: the first only, unless
    `CRAWL_FULL=1` or `CRAWL_LANGS` says otherwise). `whole`: the language-free checks too,
    in the first language of the run. Skips the module when CRAWL_ROLES or CRAWL_LANGS leave
    it out."""
    if role not in _env_list("CRAWL_ROLES", ROLES):
        pytest.skip(f"CRAWL_ROLES leaves out the {role}")
    langs = _env_list("CRAWL_LANGS", LANGS)
    if role == "anonymous" and not FULL and "CRAWL_LANGS" not in os.environ:
        # a visitor's pages are the director's public pages with fewer buttons on them:
        # their layout in every language is checked as the director's; one language here
        langs = langs[:1]
    chosen = [(code, i == 0) for i, code in enumerate(langs) if lang is None or code == lang]
    if not chosen:
        pytest.skip(f"CRAWL_LANGS leaves out {lang}")
    return chosen


def check_crawl(role: str, lang: str | None, live_server, demo, artifacts, monkeypatch) -> None:
    """Crawl the demo club as `role` (in `lang`, or in each of the role's languages) and fail,
    once, with the summary, on any finding."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from concurrent.futures import ThreadPoolExecutor

    from django.conf import settings

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    out = artifacts / "crawl"
    languages = crawl_languages(role, lang)
    for code, _whole in languages:  # this module's screenshots only: the others run beside it
        shutil.rmtree(out / role / code, ignore_errors=True)
    base = live_server.url
    start_urls = ["/", *seeds(demo["built"])]
    names = token_names()
    jobs = []
    for code, whole in languages:
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "url": base}]
        if role != "anonymous":
            cookies.append(session_cookie(demo[role], base))
        jobs.append((role, code, cookies, whole))
    # Two browsers side by side when there are two languages or more (the live server answers
    # each in its own thread): the crawl waits on the network and on rendering as much as on
    # the processor.
    workers = max(1, min(int(os.environ.get("CRAWL_WORKERS", "2")), len(jobs)))
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        shares = [
            pool.submit(crawl_jobs, jobs[i::workers], base, start_urls, names, out)
            for i in range(workers)
        ]
        results = [future.result() for future in shares]
    crawl = Crawl()
    for i in range(len(jobs)):  # back in the jobs' order
        part = results[i % workers][i // workers]
        crawl.pages += part.pages
        crawl.downloads += part.downloads
        crawl.problems += part.problems
        crawl.seconds.update(part.seconds)
    text, data = summary(crawl, time.monotonic() - started)
    stem = f"summary-{role}-{'-'.join(code for code, _whole in languages)}"
    (out / f"{stem}.txt").write_text(text + "\n", encoding="utf-8")
    (out / f"{stem}.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    print("\n" + text)
    # the crawl reached the site as each role sees it: the director's pages, the login page
    seen, opened = defaultdict(set), defaultdict(set)
    for page in crawl.pages:
        seen[page.role, page.lang].add(shape(page.url)[0])
        if page.status == 200:  # a member's seeded manage page is refused (403), not opened
            opened[page.role, page.lang].add(shape(page.url)[0])
    assert set(seen) == {(role, code) for code, _whole in languages}, sorted(seen)
    # the downloads were fetched, once per role: in its first language (the whole crawl)
    fetched = Counter(r for r, *_ in crawl.downloads)
    if any(whole for _code, whole in languages):
        assert fetched[role] >= 10, fetched
    else:
        assert not fetched, fetched
    for (r, code), shapes in seen.items():
        assert len(shapes) >= 10, f"{r}/{code}: only {sorted(shapes)}"
        manages = "/tournaments/<n>/manage/" in opened[r, code]
        assert manages == (r == "director"), (r, code)
    assert not crawl.failed(), text
