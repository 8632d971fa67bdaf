"""The kind registry: every game kind the site keeps, and what each one supplies.

A game kind is one package under ``tarotclub/kinds/`` (a Django app: its Python, templates and
static files) whose ``AppConfig.ready()`` registers one `Kind` subclass here. Adding a game
kind means adding that package and its line in ``INSTALLED_APPS``.

The shared views (``games.views``) ask the game's kind for everything that differs: its entry
form and the template partial that shows it, the preview, how an entry is added, corrected
and undone, the sheet's summary and rows, an entry described in words, and the standings.

Two storage styles stand behind this one interface:

- French Tarot keeps typed deal rows, each with its score lines, so standings are a sum in the
  database (``tarotclub.kinds.tarot``);
- the other games keep JSON records, replayed through their ``scoring`` module after every
  change (`tarotclub.games.replayed.ReplayedKind`).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from tarotclub.core.forms import WholeNumberField

_REGISTRY: dict[str, Kind] = {}

ERR_HOUSE_CHOICE = gettext_lazy("Choose one of the options shown.")


@dataclass(frozen=True)
class Words:
    """What the pages call a kind's entries (each a lazy translation; %(n)s is a number)."""

    entry: Promise  # "Deal %(n)s"
    correct: Promise  # "Correct deal %(n)s"
    new: Promise  # "New deal"
    save: Promise  # "Save the deal"
    saved: Promise  # "Deal %(n)s saved."
    corrected: Promise  # "Deal %(n)s corrected."
    undone: Promise  # "Deal %(n)s undone."
    undo: Promise  # "Undo the last deal"
    undo_question: Promise  # "Undo deal %(n)s?"


#: The words of a kind whose entries are deals.
DEAL_WORDS = Words(
    entry=gettext_lazy("Deal %(n)s"),
    correct=gettext_lazy("Correct deal %(n)s"),
    new=gettext_lazy("New deal"),
    save=gettext_lazy("Save"),
    saved=gettext_lazy("Deal %(n)s saved."),
    corrected=gettext_lazy("Deal %(n)s corrected."),
    undone=gettext_lazy("Deal %(n)s undone."),
    undo=gettext_lazy("Undo the last deal"),
    undo_question=gettext_lazy("Undo deal %(n)s?"),
)


@dataclass(frozen=True)
class ListResult:
    """A game as the list of games sums it up: who leads (or won), and the totals if any."""

    leaders: tuple = ()  # player pks: the winner(s) of a finished game, else who leads now
    over: bool = False  # finished (by the rules or by hand): the leaders are the winners
    draw: bool = False
    totals: dict | None = None  # player pk → total, for a kind with a running score


def top(values: dict) -> tuple:
    """The keys holding the highest value, when somebody is ahead (all level: nobody)."""
    if not values or len(set(values.values())) < 2:
        return ()
    best = max(values.values())
    return tuple(k for k, v in values.items() if v == best)


class Kind:
    """One game kind. A subclass sets the class attributes and overrides what differs.

    The methods that read take a `Played`: the game as loaded once for the request (its
    players, its entries and, for a replayed game, its states), made by `load`.
    """

    identifier: ClassVar[str]
    verbose_name: ClassVar[Promise]
    #: The scoring module: MIN_PLAYERS, MAX_PLAYERS and OPTIONS come from it.
    rules: ClassVar[Any]
    words: ClassVar[Words]
    #: The entry form's fields, included by the shared entry page (by default field by field).
    form_template: ClassVar[str] = "games/_form_fields.html"
    #: When the entry page asks for a new preview (htmx's hx-trigger).
    preview_trigger: ClassVar[str] = "change delay:150ms, input delay:400ms"
    #: The top of the sheet (totals or the state of the game), and its main buttons.
    summary_template: ClassVar[str] = "games/_state.html"
    #: The kind's own pages (a URLconf module, included at the site's root), or "".
    urls: ClassVar[str] = ""
    #: The kind's own CSS files (static paths), on its pages.
    stylesheets: ClassVar[tuple[str, ...]] = ()
    actions_template: ClassVar[str] = "games/_new_entry.html"
    #: Shown on the sheet under the summary (a kind's own extras, challenge cards say), or "".
    sheet_extra_template: ClassVar[str] = ""
    #: The rules end a game by themselves (the Finish button then says "Stop the game").
    ends_by_rules: ClassVar[bool] = False
    #: A line under the standings that says what they count.
    standings_note: ClassVar[Promise | str] = ""
    #: What a season of this kind counts of each game, said on the season's page ("": the
    #: season's own words say it, as for French Tarot).
    season_note: ClassVar[Promise | str] = ""
    #: The global the kind's offline sentences are set as ("": ``OfflineText.<identifier>``).
    offline_global: ClassVar[str] = ""

    # --- what the scoring module says --------------------------------------------------------

    @property
    def min_players(self) -> int:
        return self.rules.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.rules.MAX_PLAYERS

    @property
    def options(self) -> tuple:
        return tuple(getattr(self.rules, "OPTIONS", ()))

    def option_fields(self) -> dict[str, forms.Field]:
        """The new-game screen's fields for the kind's options (whole numbers in range)."""
        return {
            o.name: WholeNumberField(
                label=gettext_lazy(o.label),
                min_value=o.low,
                max_value=o.high,
                initial=o.default,
            )
            for o in self.options
        }

    # --- house rules (the scoring module's `Rules`; see `games.house`) ------------------------

    #: The house rules' labels on their form: {field name: lazy label}.
    house_rule_labels: ClassVar[dict] = {}
    #: A choice field's values in words: {field name: {value: lazy label}}.
    house_rule_choices: ClassVar[dict] = {}

    def house_rules_lines(self, rules) -> list:
        """The house rules that differ from the rules as written, in short phrases."""
        return []

    def house_rule_fields(self) -> dict[str, forms.Field]:
        """The fields of the house rules' form, from the scoring module's `Rules`."""
        import dataclasses

        cls = getattr(self.rules, "Rules", None)
        if cls is None:
            return {}
        out: dict[str, forms.Field] = {}
        for f in dataclasses.fields(cls):
            label = self.house_rule_labels.get(f.name, f.name)
            if f.name in cls.AMOUNTS:
                low, high = cls.AMOUNTS[f.name]
                out[f.name] = WholeNumberField(
                    label=label, min_value=low, max_value=high, initial=f.default
                )
            elif f.name in cls.CHOICES:
                words = self.house_rule_choices.get(f.name, {})
                out[f.name] = forms.ChoiceField(
                    label=label,
                    choices=[(v, words.get(v, v)) for v in cls.CHOICES[f.name]],
                    initial=f.default,
                    widget=forms.RadioSelect,
                    error_messages={"invalid_choice": ERR_HOUSE_CHOICE},
                )
            else:
                out[f.name] = forms.BooleanField(label=label, required=False, initial=f.default)
        return out

    #: A finished game opens again when its last entry is undone (a game the rules ended).
    reopens: ClassVar[bool] = False

    @property
    def nothing_to_undo(self):
        from .services import ERR_NO_RECORD

        return ERR_NO_RECORD

    def count_entries(self, game) -> int:
        """How many entries the game has (one query)."""
        return game.records.count()

    def finished_reason(self, played, action: str):
        """Why a finished game refuses `action` (`played` is given for kinds that reopen)."""
        from .policy import ERR_FINISHED

        return ERR_FINISHED

    def check_table(self, *, players, dealer_sits_out: bool = False, options=None) -> None:
        """Refuse a table this kind is not played at (GameError)."""
        from .services import ERR_KIND_SIZE, GameError

        if dealer_sits_out or not self.min_players <= len(players) <= self.max_players:
            raise GameError(
                ERR_KIND_SIZE,
                params={
                    "game": self.verbose_name,
                    "low": self.min_players,
                    "high": self.max_players,
                },
            )

    def __str__(self) -> str:
        return str(self.verbose_name)

    # --- reading (each kind implements these) ------------------------------------------------

    def load(self, game):  # pragma: no cover - abstract
        """The game as read once for this request (a `Played`)."""
        raise NotImplementedError

    def load_for_write(self, game):
        """The game as read for a new entry's page or to save an entry: what the form, its
        page and the service need, no more (a refused save reads it all with `load`). By
        default, `load`."""
        return self.load(game)

    def sheet(self, played, *, link=None) -> dict:  # pragma: no cover - abstract
        """The sheet's context: `summary` (cards and lines on top) and `table` (the entries).

        `link(n)` is the URL that corrects entry n, or None where nothing may change.
        """
        raise NotImplementedError

    def sheet_changes(self, game, *, since: int, shown: int):
        """What a poll sends a phone whose sheet is at revision `since` and shows `shown`
        entries: (played, context) with the sheet's top as `sheet` and the changed rows only
        as `table`, `changes` (a `kinds.tarot.selectors.SheetChanges`: the rows to replace,
        to add, to take away) and `changes_html`, the table's parts swapped in out of band
        (games/_sheet_changes.html); or None to send the whole sheet (the default: a kind
        whose sheet is replayed from all its entries)."""
        return None

    def entry_form(self, played, number: int, *, data=None, initial=None):  # pragma: no cover
        """The form for entry `number` (a new one, or a correction)."""
        raise NotImplementedError

    def initial(self, played, number: int) -> dict:  # pragma: no cover - abstract
        """The form's first values: the stored entry when correcting, else the defaults."""
        raise NotImplementedError

    def preview(self, played, form, number: int, *, live: bool = False):  # pragma: no cover
        """What saving the form would give: (preview, error message); (None, None) if unsure.

        `live` is the preview that follows the form as it changes (htmx)."""
        raise NotImplementedError

    def offline_scripts(self) -> list[str]:
        """Addresses a phone should keep for this kind's entry screen with no network, beyond
        the app shell (fetched from the sheet while online, kept by the service worker)."""
        return [self.offline_text_url()] if self.offline_text() is not None else []

    def offline_text(self) -> dict | None:
        """Every sentence the phone's own preview may show, in the active language (a dict
        served as a script by `games.views.offline_text`), or None: no preview offline."""
        return None

    def offline_text_url(self) -> str:
        """The address of the active language's sentences, versioned by their contents."""
        from django.conf import settings
        from django.urls import reverse
        from django.utils import translation

        language = translation.get_language() or settings.LANGUAGE_CODE
        language = translation.get_supported_language_variant(language)
        _script, version = offline_script(self.identifier, language)
        return reverse("offline_text", args=[language, self.identifier]) + f"?v={version}"

    def preview_template(self) -> str:
        return "games/_preview.html"

    def preview_extra(self, played, form) -> dict:
        """What the preview template shows besides the preview, from the form as it is."""
        return {}

    def stored_preview(self, played, number: int):
        """Entry `number` as it stands, previewed (the correction screen opens with it):
        the form filled with the stored entry, previewed as if saved unchanged."""
        form = self.entry_form(played, number)
        data = {}
        for bf in form:
            value = bf.value()
            if value not in (None, ""):
                data[bf.html_name] = str(value)
        return self.preview(played, self.entry_form(played, number, data=data), number)

    def describe_change(self, change, names) -> tuple[str, str]:  # pragma: no cover
        """A history entry's before and after, in words."""
        raise NotImplementedError

    def describe_entry(self, played, number: int) -> str:  # pragma: no cover - abstract
        """Entry `number` in words (the undo and detail screens)."""
        raise NotImplementedError

    def describe_stale(self, played, entry) -> str:
        """The newer version of an entry another phone changed, in words."""
        return self.describe_entry(played, entry.number)

    def entry_context(self, played, number: int, *, editing: bool) -> dict:
        """What the kind's form template shows besides the form (who deals, the state...)."""
        return {}

    def detail_context(self, played, number: int) -> dict:
        """What the entry's own page shows besides its description and changes."""
        return {}

    def undo_context(self, played) -> dict:
        """What the undo confirmation adds (a warning that the game opens again...)."""
        return {}

    def sheet_extra(self, request, played) -> dict:
        """Context for `sheet_extra_template`."""
        return {}

    def list_totals(self, games) -> dict[int, dict[int, int]]:
        """Each game's totals by player for the list of games, where the kind has totals."""
        return {}

    def list_results(self, games) -> dict[int, ListResult]:
        """Each game's `ListResult` for the list of games (games come with seats and records
        prefetched; a constant number of queries for any number of games)."""
        totals = self.list_totals(games)
        return {
            g.pk: ListResult(
                top(totals.get(g.pk) or {}), g.finished, totals=totals.get(g.pk) or None
            )
            for g in games
        }

    def recent_line(self, played) -> dict:
        """One game under the standings: the game, its players, its result if it has one."""
        return {"game": played.game, "players": played.players, "headline": ""}

    def links(self) -> list[tuple[str, str]]:
        """The kind's own pages for members, as (url, label), on the standings index."""
        return []

    # --- writing (through the services) --------------------------------------------------------

    def add(self, *, played, form, user, expected_number, client_id=None):  # pragma: no cover
        """Add the next entry; `client_id` is the phone's id for it (saved once: a retry
        returns the entry saved before, with ``sent_before`` set)."""
        raise NotImplementedError

    def correct(self, *, played, number, form, user):  # pragma: no cover
        """Correct entry `number`; a change by another phone raises `games.services.StaleError`."""
        raise NotImplementedError

    def undo(self, *, played, number, user):  # pragma: no cover - abstract
        """Remove the last entry (its number, as confirmed); returns a message or ""."""
        raise NotImplementedError

    # --- standings ---------------------------------------------------------------------------

    def standings(self, date_from=None, date_to=None):  # pragma: no cover - abstract
        """(rows, table class, played games shown under them) for the standings page."""
        raise NotImplementedError


def register(kind_class: type[Kind]) -> type[Kind]:
    """Add a kind (usually from its app's ``ready()``); the same identifier twice is an error."""
    kind = kind_class()
    if kind.identifier in _REGISTRY and type(_REGISTRY[kind.identifier]) is not kind_class:
        raise ValueError(f"two game kinds are called {kind.identifier!r}")
    _REGISTRY[kind.identifier] = kind
    return kind_class


def unregister(identifier: str) -> None:
    """Take a kind out again (tests that register a kind of their own)."""
    _REGISTRY.pop(identifier, None)


@functools.cache
def offline_script(identifier: str, language: str) -> tuple[str, str]:
    """(script, version) of kind `identifier`'s `offline_text` in `language`, once per
    process: ``window.OfflineText.<identifier> = {...}`` (or the kind's `offline_global`)."""
    import json

    from django.utils import translation

    kind = get(identifier)
    with translation.override(language):
        body = json.dumps(kind.offline_text(), ensure_ascii=False, sort_keys=True)
    if kind.offline_global:
        script = f"window.{kind.offline_global} = {body};\n"
    else:
        script = "window.OfflineText = window.OfflineText || {};\n"
        script += f"window.OfflineText.{identifier} = {body};\n"
    return script, hashlib.sha256(script.encode()).hexdigest()[:12]


def get(identifier: str) -> Kind | None:
    return _REGISTRY.get(identifier)


def all_kinds() -> list[Kind]:
    """Every registered kind, in the order their apps are installed."""
    return list(_REGISTRY.values())


def choices() -> list[tuple[str, str]]:
    """(identifier, name) of every kind: the choices of `Game.kind`."""
    return [(k.identifier, k.verbose_name) for k in _REGISTRY.values()]
