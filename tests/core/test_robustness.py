"""Odd input never breaks anything: random form data to every form, junk in every URL.

Every route of the site (found by walking the URL resolver, so a new route is swept too) is
sent bodies Django cannot read, with DEBUG on and off; then hypothesis fuzzes every route as a
director and anonymously under the production security settings, and after each request the
whole database is checked against the invariants of the club's data.
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import sys

import pytest
from django.db.models import Count, Exists, Max, Min, OuterRef, Sum
from django.test import Client, override_settings
from django.urls import URLResolver, get_resolver, reverse
from django.utils import translation
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tarotclub.games.models import Change, ChangeAction, Game, Record
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.kinds.tarot.services import DealInput, deal_add

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "3",
            "91",
            "91.5",
            "-1",
            "nan",
            "inf",
            "1e309",
            "½",
            "garde",
            "attack",
            "defence",
            "simple",
            "none",
            "alone",
            "announced_made",
            "\x00",
        ]
    ),
)
FIELDS = [
    "taker",
    "contract",
    "bouts",
    "points_side",
    "points",
    "petit_au_bout",
    "chelem",
    "partner",
    "version",
    "preview",
    "number",
    "seat1",
    "seat2",
    "seat3",
    "first_dealer",
    "kind",
    "name",
    "guest_name",
    "add_guest",
    "start",
]
forms = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=10)


@pytest.fixture
def table(game5, five):
    deal_add(
        game=game5,
        data=DealInput(taker=five[0].pk, partner=five[1].pk, contract="prise", bouts=1, points=55),
    )
    return game5


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=forms)
def test_random_deal_forms_never_fail(table, five, data):
    client = Client()
    before = (Deal.objects.count(), Change.objects.count())
    for name, args in [
        ("deal_new", []),
        ("deal_preview", []),
        ("deal_edit", [1]),
        ("deal_undo", []),
    ]:
        response = client.post(reverse(f"games:{name}", args=[table.token, *args]), data)
        assert response.status_code < 500, (name, data)
    after = (Deal.objects.count(), Change.objects.count())
    # a random form may be a valid deal; anything saved must be complete and zero-sum
    for deal in Deal.objects.all():
        assert sum(line.score for line in deal.lines.all()) == 0
    # every deal added or removed left an entry in the change history
    assert after[1] - before[1] >= abs(after[0] - before[0])


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=forms)
def test_random_new_game_forms_never_fail(member, four, data):
    client = Client()
    client.force_login(member)
    response = client.post(reverse("games:new"), data)
    assert response.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        "/t/%00/",
        "/t/' OR 1=1 --/",
        "/t/" + "a" * 500 + "/",
        "/tournaments/0/",
        "/tournaments/99999999999999999999/",
        "/v/x/",
        "/players/0/",
        "/games/new/?kind=../../",
        "/tournaments/1/where/?q=%00",
        "/variants/standings/nope/",
        "/games/standings/nope/",
        "/v/x/r/1/edit/",
        "/variants/standings/foolsfaith/?from=2026-13-45&to=x",
        "/players/1/versus/?other=2&from=2026-13-45&to=x",
        "/players/1/versus/?other=99999999999999999999&from=2026-04-01&to=2026-03-01",
    ],
)
def test_junk_urls_are_answered_without_a_server_error(client, member, path):
    client.force_login(member)
    assert client.get(path).status_code < 500


def test_a_nul_character_is_refused_with_a_message_and_changes_nothing(client, member):
    from tarotclub.players.models import Player

    client.force_login(member)
    response = client.post(reverse("games:new"), {"guest_name": "Eve\x00", "add_guest": "1"})
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    assert not Player.objects.exists()


# --- every route of the site ---------------------------------------------------------------------


def route_names() -> list[tuple[str, list[str]]]:
    """(qualified name, URL parameters) of every named route, the admin's own pages aside."""

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace == "admin":
                    continue
                yield from walk(
                    p.url_patterns, [*namespace, p.namespace] if p.namespace else namespace
                )
            elif p.name:
                yield ":".join([*namespace, p.name]), list(getattr(p.pattern, "converters", {}))

    return [*walk(get_resolver().url_patterns, []), ("admin:index", []), ("admin:login", [])]


class Site:
    """A small club with one of everything, and a path for every route of the site."""

    def __init__(self, director):
        from tarotclub.games import services as variants
        from tarotclub.games.selectors import seat_players
        from tarotclub.games.services import game_start
        from tarotclub.kinds.foolsfaith import services as challenges
        from tarotclub.players.services import player_create
        from tarotclub.tournaments import services as tournaments
        from tarotclub.tournaments.models import Table

        self.director = director
        players = [player_create(name=f"Player {i}", licence=f"L{i}") for i in range(8)]
        self.player = players[0]
        self.tarot = game_start(players=players[:4], first_dealer=0, created_by=director)
        deal_add(
            game=self.tarot,
            data=DealInput(taker=players[1].pk, contract="garde", bouts=2, points=49),
        )
        self.ff = game_start(players=players[:3], kind="foolsfaith", first_dealer=0)
        seated = seat_players(self.ff)
        variants.record_add(
            game=self.ff, data={"tricks": dict(zip([p.pk for p in seated], (4, 2, 2), strict=True))}
        )
        self.others = [
            game_start(players=players[:3], kind=kind, first_dealer=0, options=options)
            for kind, options in [
                ("deathspot", {"stake": 1}),
                ("keys", {}),
                ("cuckoo", {"lives": 2}),
            ]
        ]
        self.challenge = challenges.challenge_create(text="Sing a song")
        t = tournaments.tournament_create(
            name="Cup", date=dt.date(2026, 11, 29), rounds=3, deals_per_round=2
        )
        for p in players:
            tournaments.entry_register(tournament=t, player=p)
        self.tournament = tournaments.tournament_start(tournament=t)
        self.table = Table.objects.filter(tournament=t).order_by("number").first()
        self.entry = t.entries.order_by("pk").first()
        from tarotclub.matches.services import match_create  # a team match (issue 14)

        self.match = match_create(
            name="Derby", date=t.date, boards=16, a_name="A", b_name="B",
            a_players=players[:4], b_players=players[4:],
        )  # fmt: skip
        self.pks = [p.pk for p in players]
        # every game page once for a tarot game and once for a Fool's Faith game ("@ff")
        routes = route_names()
        self.routes = routes + [
            (f"{name}@ff", params)
            for name, params in routes
            if name.startswith("games:") and "token" in params
        ]
        self.seeds = self._valid_forms(players, seated)

    def _valid_forms(self, players, seated) -> dict[str, dict]:
        """A valid form for each route that takes one: the fuzz mutates it field by field."""
        deal = {
            "taker": str(players[1].pk),
            "contract": "garde",
            "bouts": "2",
            "points": "49",
            "points_side": "attack",
            "chelem": "none",
            "number": "2",
            "version": "1",
        }
        tricks = {f"tricks_{p.pk}": n for p, n in zip(seated, ("3", "3", "2"), strict=True)}
        player = {"name": "Zoé Martin", "licence": "L99", "active": "on"}
        house_rules = {
            "misere_tete": "on",
            "misere_amount": "10",
            "poignee_simple": "20",
            "poignee_double": "30",
            "poignee_triple": "40",
        }
        seats = {f"seat{i}": str(pk) for i, pk in enumerate(self.pks[:4], start=1)}
        return {
            "games:deal_new": deal,
            "games:deal_edit": deal,
            "games:deal_preview": deal,
            "games:deal_undo": {"number": "1"},
            "games:new": {**seats, "first_dealer": "1", "kind": "tarot"},
            "games:deal_new@ff": {**tricks, "number": "2"},
            "games:deal_edit@ff": {**tricks, "version": "1"},
            "games:deal_preview@ff": tricks,
            "games:deal_undo@ff": {"number": "1"},
            "foolsfaith:challenges": {"add": "1", "text": "Dance", "order": "3"},
            "foolsfaith:challenge_edit": {
                "save": "1",
                "text": "Sing",
                "order": "1",
                "active": "on",
            },
            "foolsfaith:give": {
                "award": "1",
                "challenge_1": str(self.challenge.pk),
                "player_1": str(self.pks[1]),
            },
            "players:new": player,
            "players:edit": player,
            "tournaments:new": {
                "name": "Spring cup",
                "date": "2027-03-20",
                "rounds": "4",
                "deals_per_round": "3",
                "ranking": "total",
            },
            "tournaments:manage": {"register": "1", "player": str(self.pks[0]), "licence": "L7"},
            "tournaments:ranking": {"ranking": "average"},
            # house rules (issue 14): a game's before its first entry, the club's, a tournament's
            "games:house_rules": house_rules,
            "games:house_rules@ff": {"tie_dealer": "next"},
            "games:club_house_rules": {
                "kind": "tarot",
                **{f"tarot-{k}": v for k, v in house_rules.items()},
            },
            "tournaments:house_rules": house_rules,
            "tournaments:next": {"force": "1"},
            "matches:new": {
                "name": "Derby", "date": "2027-03-20", "boards": "16", "a_name": "A",
                "b_name": "B", **{f"a_{i}": str(self.pks[i - 1]) for i in range(1, 5)},
                **{f"b_{i}": str(self.pks[i + 3]) for i in range(1, 5)},
            },
            "matches:quarter": {
                "team": "A", "a-attacker": str(self.pks[0]), "a-closed": "A",
                **{f"a-{f}_{b}": v for b in range(1, 5)
                   for f, v in (("contract", "garde"), ("result", "made"), ("score", "50"))},
                # board 4 from the deal's facts
                "a-entry_4": "facts", "a-f4-bouts": "1", "a-f4-points": "51",
                "a-f4-points_side": "attack", "a-f4-chelem": "none",
            },
            "matches:edit": {
                "name": "Derby", "date": "2027-03-20", "boards": "16", "a_name": "A",
                "b_name": "B", "revision": "0",
                **{f"a_{i}": str(self.pks[i - 1]) for i in range(1, 5)},
                **{f"b_{i}": str(self.pks[i + 3]) for i in range(1, 5)},
            },
        }  # fmt: skip

    def kwargs(self, name: str, params: list[str]) -> dict:
        namespace = name.split(":")[0]
        token = {
            "games": self.ff.token if name.endswith("@ff") else self.tarot.token,
            "reports": self.tarot.token,
            "foolsfaith": self.ff.token,
            "tournaments": self.table.game.token if self.table else self.tarot.token,
        }.get(namespace)
        pk = {
            "players:edit": self.player.pk,
            "foolsfaith:challenge_edit": self.challenge.pk,
        }.get(name, self.match.pk if namespace == "matches" else self.tournament.pk)
        values = {
            "token": token,
            "pk": pk,
            "number": 1,
            "round_number": 1,
            "entry_pk": self.entry.pk,
            "table_pk": self.table.pk,
            "player_pk": self.player.pk,
            "fmt": "csv",
            "kind": "foolsfaith",
            "language": "fr",
            "board": 1,
            "seat": "N1",
            "what": "rankings",
        }
        return {p: values[p] for p in params}  # a KeyError: give the new parameter a sample

    def path(self, name: str, params: list[str]) -> str:
        return reverse(name.split("@")[0], kwargs=self.kwargs(name, params))

    def paths(self) -> list[tuple[str, str]]:
        return [(name, self.path(name, params)) for name, params in self.routes]


@pytest.fixture
def site(director):
    return Site(director)


def director_client(site) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(site.director)
    return client


def test_the_sweep_covers_every_route(site):
    paths = site.paths()
    assert len(paths) == len(site.routes) >= 55
    for name in ("games:deal_preview", "tournaments:confirm", "reports:player_pdf", "set_language"):
        assert name in dict(paths)


def snapshot() -> tuple:
    from tarotclub.players.models import Player
    from tarotclub.tournaments.models import Entry, Tournament

    return tuple(
        model.objects.count() for model in (Deal, Record, Change, Game, Player, Tournament, Entry)
    ) + (tuple(Game.objects.order_by("pk").values_list("revision", "finished_at", "locked")),)


FORM = "application/x-www-form-urlencoded"
#: (what, content type, body, expected message): bodies Django cannot read as a person's form.
UNREADABLE = [
    ("utf-16", f"{FORM}; charset=utf-16", "name=Eve&points=40".encode("utf-16"), "encoding"),
    ("utf-32", f"{FORM}; charset=UTF-32", "name=Eve".encode("utf-32"), "encoding"),
    ("latin-1", f"{FORM}; charset=latin-1", b"name=%E9ve", "encoding"),
    ("bogus charset", f"{FORM}; charset=no-such-thing", b"name=Eve", "encoding"),
    ("multipart, no boundary", "multipart/form-data", b"--x\r\nname", "read"),
    ("multipart, empty boundary", "multipart/form-data; boundary=", b"--\r\n", "read"),
    ("multipart, bad boundary", "multipart/form-data; boundary=\u00e9t\u00e9", b"--\r\n", "read"),
    ("too many fields", FORM, "&".join(f"f{i}=1" for i in range(30)).encode(), "read"),
    ("too large", FORM, b"name=" + b"x" * 2000, "read"),
]
MESSAGES = {
    "encoding": "The form was sent in a text encoding the site does not read (only UTF-8).",
    "read": "The form data could not be read: it is malformed or too large. "
    "Reload the page and try again.",
}
#: Small limits, so "too many fields" and "too large" cost nothing to send.
LIMITS = {"DATA_UPLOAD_MAX_NUMBER_FIELDS": 20, "DATA_UPLOAD_MAX_MEMORY_SIZE": 1000}


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG=False", "DEBUG=True"])
def test_every_route_refuses_an_unreadable_body_with_a_400(site, debug):
    """Every body of UNREADABLE to every route: one club and one client for all of them (the
    club was built again for each of the 9 bodies before; nothing is written, see the
    snapshot)."""
    client = director_client(site)
    before = snapshot()
    with override_settings(DEBUG=debug, **LIMITS):
        for name, path in site.paths():
            for what, content_type, body, message in UNREADABLE:
                response = client.generic("POST", path, body, content_type=content_type)
                assert response.status_code == 400, (what, name, path, response.status_code)
                assert MESSAGES[message] in response.content.decode(), (what, name)
    assert snapshot() == before


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG=False", "DEBUG=True"])
def test_every_route_refuses_too_many_query_fields_with_a_400(site, debug):
    client = director_client(site)
    query = "&".join(f"f{i}=1" for i in range(30))
    with override_settings(DEBUG=debug, **LIMITS):
        for name, path in site.paths():
            response = client.get(f"{path}?{query}")
            assert response.status_code == 400, name
            assert MESSAGES["read"] in response.content.decode(), name


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8", "ascii", "US-ASCII"])
def test_a_utf8_or_ascii_body_is_read(site, charset):
    from tarotclub.players.models import Player

    client = director_client(site)
    body = "name=Zo%C3%A9&active=on" if "8" in charset else "name=Zoe&active=on"
    response = client.generic(
        "POST", reverse("players:new"), body, content_type=f"{FORM}; charset={charset}"
    )
    assert response.status_code == 302
    assert Player.objects.filter(name__in=["Zoé", "Zoe"]).count() == 1


def test_a_get_is_read_as_utf8_whatever_its_content_type_says(site):
    client = director_client(site)
    response = client.get(
        reverse("players:list"),
        {"q": "Player"},
        headers={"content-type": "text/plain; charset=utf-16"},
    )
    assert response.status_code == 200
    assert response.context["q"] == "Player"


@pytest.mark.parametrize("language", ["fr", "nl", "en"])
def test_the_refusal_speaks_the_users_language(site, language):
    client = director_client(site)
    response = client.generic(
        "POST",
        reverse("games:new"),
        "a=b".encode("utf-16"),
        content_type=f"{FORM}; charset=utf-16",
        headers={"accept-language": language},
    )
    with translation.override(language):
        expected = translation.gettext(MESSAGES["encoding"])
        title = translation.gettext("Bad request")
    text = response.content.decode()
    assert response.status_code == 400
    assert f'<html lang="{language}">' in text and expected in text and title in text


# --- invariants of the club's data -------------------------------------------------------------


def invariant_violations() -> list[str]:
    """Everything in the database that breaks a rule of the club's data (empty when sound)."""
    from tarotclub.games import kinds
    from tarotclub.games.replayed import ReplayedKind

    found = []
    unbalanced = DealLine.objects.values("deal").annotate(s=Sum("score")).exclude(s=0)
    found += [f"deal {row['deal']} sums to {row['s']}" for row in unbalanced]
    found += [
        f"deal {pk} has no score lines"
        for pk in Deal.objects.filter(lines__isnull=True).values_list("pk", flat=True)
    ]
    bad = Deal.objects.exclude(points_half__range=(0, 182)) | Deal.objects.exclude(
        bouts__range=(0, 3)
    )
    found += [f"deal {d.pk}: points_half {d.points_half}, bouts {d.bouts}" for d in bad]
    for model in (Deal, Record):
        numbering = model.objects.values("game").annotate(
            n=Count("pk"), lo=Min("number"), hi=Max("number")
        )
        found += [
            f"{model.__name__} numbers of game {r['game']}: {r}"
            for r in numbering
            if (r["lo"], r["hi"]) != (1, r["n"])
        ]
        recorded = Change.objects.filter(
            game=OuterRef("game"), number=OuterRef("number"), action=ChangeAction.RECORDED
        )
        missing = model.objects.annotate(logged=Exists(recorded)).filter(logged=False)
        found += [
            f"{model.__name__} {m.game_id}/{m.number} has no RECORDED change" for m in missing
        ]
        for m in model.objects.filter(version__gt=1):
            corrected = Change.objects.filter(
                game=m.game_id, number=m.number, action=ChangeAction.CORRECTED
            ).count()
            if corrected < m.version - 1:
                found.append(
                    f"{model.__name__} {m.game_id}/{m.number} v{m.version}: {corrected} CORRECTED"
                )
    replayed = [k.identifier for k in kinds.all_kinds() if isinstance(k, ReplayedKind)]
    for game in Game.objects.filter(kind__in=replayed):
        kind = kinds.get(game.kind)
        try:
            played = kind.load(game)
            if played.error:
                raise ValueError(played.error)
        except Exception as e:  # noqa: BLE001 - any failure to replay is a violation
            found.append(f"game {game.pk} ({game.kind}) does not replay: {e!r}")
    return found


def test_invariants_catch_a_broken_database(site):
    assert invariant_violations() == []
    deal = Deal.objects.first()
    line = deal.lines.first()
    DealLine.objects.filter(pk=line.pk).update(score=line.score + 1)
    Deal.objects.filter(pk=deal.pk).update(number=7)  # bouts and points: CHECK constraints
    Change.objects.filter(game=site.ff)._raw_delete(Change.objects.db)  # below the guard
    Record.objects.filter(game=site.ff).update(data={"tricks": {"1": 9}})
    found = " | ".join(invariant_violations())
    for piece in ("sums to", "Deal numbers", f"Record {site.ff.pk}/1 has no", "does not replay"):
        assert piece in found, piece


# --- fuzzing every route under the production settings -----------------------------------------


def production_security_settings() -> dict:
    """The security settings of tarotclub.settings.production, as a deployment gets them.

    The module is imported with a strong key and the test host in the environment, then
    forgotten; only DEBUG and the SECURE_*, cookie and framing settings are kept.
    """
    env = {
        "DJANGO_SECRET_KEY": "k" * 20 + "-Zq8#Lm2@Vx5!Rt7$Np4%Hs6^Wd9&Fg3*Jb1" + "y" * 20,
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        module = importlib.import_module("tarotclub.settings.production")
        values = {
            k: getattr(module, k)
            for k in dir(module)
            if k == "DEBUG"
            or k.startswith(("SECURE_", "SESSION_COOKIE_", "CSRF_COOKIE_"))
            or k == "X_FRAME_OPTIONS"
        }
    finally:
        sys.modules.pop("tarotclub.settings.production", None)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert values["DEBUG"] is False
    return values


PRODUCTION = production_security_settings()

hostile = st.one_of(
    junk,
    st.sampled_from(
        [
            "1e30000000",
            "١٢",
            "４０",
            "4_0",
            "+1",
            "2026-11-29",
            "٢٠٢٦-١١-٢٩",
            "9999-12-31",
            "0001-01-01",
            "9" * 5000,
            "x" * 300,
            "csv",
            "foolsfaith",
            "on",
            "-1",
        ]
    ),
)
POST_FIELDS = sorted(
    {
        *FIELDS,
        "seat4",
        "seat5",
        "stake",
        "lives",
        "text",
        "order",
        "active",
        "add",
        "save",
        "delete",
        "suggest",
        "award",
        "challenge_1",
        "player_1",
        "death",
        "excuse",
        "trump1",
        "trump11",
        "winner",
        "register",
        "player",
        "licence",
        "nickname",
        "ranking",
        "force",
        "rounds",
        "deals_per_round",
        "date",
        "place",
        "allow_three",
        "username",
        "password",
        "language",
        "next",
    }
)
PER_PLAYER = ["tricks", "keys", "guards", "suit", "card", "swap", "poignee"]
QUERY_FIELDS = [
    "n",
    "rev",
    "page",
    "per_page",
    "sort",
    "q",
    "from",
    "to",
    "round",
    "filled",
    "kind",
    "other",
]


@st.composite
def requests(draw, site):
    name, params = draw(st.sampled_from([r for r in site.routes if not r[0].endswith("_pdf")]))
    pk_value = st.sampled_from([str(pk) for pk in site.pks])
    names = st.one_of(
        st.sampled_from(POST_FIELDS),
        st.tuples(st.sampled_from(PER_PLAYER), pk_value).map("_".join),
    )
    values = st.one_of(hostile, pk_value)
    form = {}
    if name in site.seeds and draw(st.integers(0, 9)) < 7:
        form = dict(site.seeds[name])  # a valid form, some fields of it replaced below
    form.update(draw(st.dictionaries(names, values, max_size=8 - min(len(form), 5))))
    return (
        name,
        site.path(name, params),
        draw(st.sampled_from(["GET", "POST", "POST"])),
        form,
        draw(st.dictionaries(st.sampled_from(QUERY_FIELDS), values, max_size=3)),
        draw(st.booleans()),  # as the director, or anonymously
    )


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_every_route_with_production_settings(site, data):
    name, path, method, form, query, as_director = data.draw(requests(site))
    client = director_client(site) if as_director else Client(raise_request_exception=False)
    with override_settings(**PRODUCTION):
        if method == "GET":
            response = client.get(path, {**query, **form}, secure=True)
        else:
            if query:
                path += "?" + "&".join(f"{k}={v[:40]}" for k, v in query.items())
            response = client.post(path, form, secure=True)
    event(f"{method} {response.status_code}")  # --hypothesis-show-statistics
    assert response.status_code < 500, (name, method, form, query)
    assert invariant_violations() == [], (name, method, form, query)


def test_production_settings_are_in_force_in_the_fuzz(site):
    with override_settings(**PRODUCTION):
        response = Client().get(reverse("home"), secure=True)
    assert response.status_code == 200
    assert response.headers.get("X-Frame-Options") == PRODUCTION.get("X_FRAME_OPTIONS", "DENY")
    if PRODUCTION.get("SECURE_CONTENT_TYPE_NOSNIFF"):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("cookie", ["sessionid", "csrftoken", "django_language", "messages"])
def test_a_nul_in_a_cookie_is_refused_and_the_cookie_deleted(site, cookie):
    """On PostgreSQL a session cookie holding a NUL made every page a 500 (DataError)."""
    for name, path in site.paths():
        client = director_client(site)
        client.cookies[cookie] = "abcdefgh\x00ijklmnop"
        response = client.get(path)
        assert response.status_code == 400, (name, response.status_code)
        assert "not allowed" in response.content.decode()
        # deleted (or, for the CSRF cookie, replaced by a fresh one): the next page works
        assert "\x00" not in response.cookies[cookie].value
        assert client.get(reverse("home")).status_code == 200


HUGE = [0, 2**31, 2**63, 2**64, 10**30]


def test_huge_ids_in_every_url_are_not_found(site):
    """Every <int:...> of every route, past what a database column holds: 404, never a 500."""
    client = director_client(site)
    swept = 0
    for name, params in site.routes:
        kwargs = site.kwargs(name, params)
        for param in [p for p in params if isinstance(kwargs[p], int)]:
            for value in HUGE:
                path = reverse(name.split("@")[0], kwargs={**kwargs, param: value})
                for method in (client.get, client.post):
                    response = method(path)
                    assert response.status_code in (302, 404, 405), (name, param, value)
                    swept += 1
    assert swept > 100
