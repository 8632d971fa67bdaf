"""French Tarot, 3 to 5 players, by the federation's rules (`scoring.fft`).

Its deals are typed rows with their score lines (`models.Deal`, `models.DealLine`), so totals
and standings are sums in the database.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db.models import Count, Sum
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring import RuleError, fft
from tarotclub.games import house
from tarotclub.games.forms import choice_cols
from tarotclub.games.kinds import DEAL_WORDS, Kind
from tarotclub.games.models import Game
from tarotclub.games.presenters import signed
from tarotclub.games.selectors import names_of, seat_players
from tarotclub.games.services import GameError
from tarotclub.games.tables import GameStandingsTable, NumberColumn

from . import selectors, services
from .forms import DealForm, parse_points_text
from .labels import (
    CHELEM_LABELS,
    CONTRACT_LABELS,
    MISERE_LABELS,
    POIGNEE_LABELS,
    SIDE_LABELS,
    dealing_text,
)
from .models import DealLine
from .presenters import breakdown
from .tables import SheetTable


@dataclass
class TarotPlayed:
    """A tarot game as read once for a request: its sheet (every deal with its lines)."""

    game: Game
    kind: Tarot
    players: list
    sheet: selectors.Sheet
    names: dict[int, str] = field(default_factory=dict)

    @property
    def entries(self) -> list:
        return [row.deal for row in self.sheet.rows]

    @property
    def next_number(self) -> int:
        return self.sheet.deal_count + 1

    @property
    def last_number(self) -> int:
        return self.sheet.deal_count

    def entry(self, number: int):
        rows = self.sheet.rows
        return rows[number - 1].deal if 1 <= number <= len(rows) else None

    @property
    def stopped(self) -> bool:
        """A finished tarot game never opens again."""
        return self.game.finished

    @property
    def can_undo(self) -> bool:
        return bool(self.sheet.rows) and not self.game.finished

    def refusal(self, action: str = "deal"):
        return services.ERR_FINISHED if self.game.finished else services.ERR_LOCKED

    @property
    def error(self) -> str:
        return ""

    @property
    def known_count(self) -> int | None:
        return self.sheet.deal_count


@dataclass
class TarotPlayedForWrite:
    """A tarot game read for a new deal's page or for saving an entry: the game and its
    players, the number of deals from the game's tally read with it (counted, one query, when
    the tally is not current), no deal read. A refused save reads the whole sheet
    (`Tarot.load`) to show the form again."""

    game: Game
    kind: Tarot
    players: list
    names: dict[int, str] = field(default_factory=dict)
    known_count: int | None = None
    light = True

    @property
    def last_number(self) -> int:
        if self.known_count is None:
            tally = self.game.current_tally
            self.known_count = tally["count"] if tally is not None else self.game.deals.count()
        return self.known_count

    @property
    def next_number(self) -> int:
        return self.last_number + 1

    def entry(self, number: int):
        return None  # not read: the service reads the deal under the game's lock

    @property
    def error(self) -> str:
        return ""


@dataclass
class TarotPlayedChanges:
    """A tarot game as a poll after a change reads it: the deals written since the phone's
    revision, the count and totals from the game's tally (`selectors.sheet_changes`)."""

    game: Game
    kind: Tarot
    players: list
    changes: selectors.SheetChanges
    names: dict[int, str] = field(default_factory=dict)

    @property
    def sheet(self) -> selectors.Sheet:
        return self.changes.sheet

    @property
    def last_number(self) -> int:
        return self.sheet.deal_count

    @property
    def next_number(self) -> int:
        return self.last_number + 1

    known_count = last_number

    def entry(self, number: int):
        return None

    @property
    def stopped(self) -> bool:
        return self.game.finished

    @property
    def can_undo(self) -> bool:
        return self.last_number > 0 and not self.game.finished

    def refusal(self, action: str = "deal"):
        return services.ERR_FINISHED if self.game.finished else services.ERR_LOCKED

    @property
    def error(self) -> str:
        return ""


class TarotStandings(GameStandingsTable):
    games = NumberColumn(verbose_name=gettext_lazy("Games"))
    deals = NumberColumn(verbose_name=gettext_lazy("Deals"))
    total = NumberColumn(verbose_name=gettext_lazy("Total"))
    average = NumberColumn(verbose_name=gettext_lazy("Per deal"), digits=1)


class Tarot(Kind):
    identifier = "tarot"
    verbose_name = gettext_lazy("French Tarot")
    rules = fft
    words = replace(DEAL_WORDS, save=gettext_lazy("Save the deal"))
    form_template = "kinds/tarot/_form.html"
    summary_template = "kinds/tarot/_totals.html"
    actions_template = "kinds/tarot/_actions.html"
    preview_trigger = "change, input from:#id_points delay:300ms"
    standings_note = gettext_lazy(
        "Casual games (tournament tables count in their tournament). Total: the sum of the "
        "player's scores; per deal: the total divided by the deals played."
    )

    house_rule_labels = {
        "misere_tete": gettext_lazy("Misère de tête (no king, queen, knight or jack in hand)"),
        "misere_atout": gettext_lazy("Misère d'atout (no trump in hand; the Excuse may be)"),
        "misere_amount": gettext_lazy("A misère is worth, from each other player"),
        "poignee_simple": gettext_lazy("Simple poignée"),
        "poignee_double": gettext_lazy("Double poignée"),
        "poignee_triple": gettext_lazy("Triple poignée"),
    }

    def house_rules_lines(self, rules) -> list:
        lines = []
        kinds = [str(MISERE_LABELS[str(kind)]) for kind in rules.miseres]
        if kinds:
            lines.append(
                _("%(miseres)s, %(amount)s from each player")
                % {
                    "miseres": kinds[0]
                    if len(kinds) == 1
                    else _("%(first)s and %(second)s") % {"first": kinds[0], "second": kinds[1]},
                    "amount": rules.misere_amount,
                }
            )
        if rules.poignee_values != fft.POIGNEE_VALUES:
            lines.append(
                _("poignées %(simple)s, %(double)s and %(triple)s")
                % {
                    "simple": rules.poignee_simple,
                    "double": rules.poignee_double,
                    "triple": rules.poignee_triple,
                }
            )
        return lines

    @property
    def nothing_to_undo(self):
        return services.ERR_NO_DEAL

    def count_entries(self, game) -> int:
        return game.deals.count()

    @property
    def min_players(self) -> int:
        return min(fft.TABLE_SIZES)

    @property
    def max_players(self) -> int:
        return max(fft.TABLE_SIZES)

    def check_table(self, *, players, dealer_sits_out: bool = False, options=None) -> None:
        if dealer_sits_out and len(players) != 5:
            raise GameError(services.ERR_TABLE_SIZE_SITTING_OUT)
        if (options or {}).get("active") and len(players) == 6:
            return  # a triplette table: 6 seated, the 4 of each board in its options
        if len(players) not in fft.TABLE_SIZES:
            raise GameError(services.ERR_TABLE_SIZE)

    # --- reading -------------------------------------------------------------------------

    def load(self, game: Game) -> TarotPlayed:
        sheet = selectors.game_sheet(game)
        return TarotPlayed(game, self, sheet.players, sheet, names_of(sheet.players))

    def load_for_write(self, game: Game) -> TarotPlayedForWrite:
        players = seat_players(game)
        return TarotPlayedForWrite(game, self, players, names_of(players))

    def sheet_changes(self, game: Game, *, since: int, shown: int):
        changes = selectors.sheet_changes(game, since=since, shown=shown)
        if changes is None:
            return None
        players = changes.sheet.players
        played = TarotPlayedChanges(game, self, players, changes, names_of(players))
        parts = self.sheet(played)
        table = parts["table"]
        return played, {**parts, "changes": changes, "changes_html": table.changes_html(changes)}

    def sheet(self, played: TarotPlayed, *, link=None) -> dict:
        game = played.game
        planned = game.options.get("deals")
        return {
            "sheet": played.sheet,
            "table": SheetTable(played.sheet, link=_deal_url_maker(game.token), compact=True),
            "totals_cols": choice_cols(len(played.players)),
            "deals_planned": planned,
            "all_deals_in": bool(planned) and played.sheet.deal_count >= planned,
            # made where the page shows them (a template calls it), not for a poll's answer
            "downloads": functools.partial(_downloads, game.token),
        }

    def _dealer(self, played: TarotPlayed, number: int):
        deal = played.entry(number)
        if deal is not None:
            return deal.dealer
        return services.dealer_for(played.game, number, played.players)

    def entry_form(self, played: TarotPlayed, number: int, *, data=None, initial=None):
        dealer = self._dealer(played, number)
        active = services.active_players(played.game, dealer, played.players, number)
        return DealForm(
            data,
            initial=initial if initial is not None else self.initial(played, number),
            players=played.players,
            active=active,
            imposed=services.imposed(played.game, number),
            rules=house.of_game(played.game),
        )

    def initial(self, played: TarotPlayed, number: int) -> dict:
        deal = played.entry(number)
        return DealForm.initial_from_deal(deal) if deal is not None else {}

    def entry_context(self, played: TarotPlayed, number: int, *, editing: bool) -> dict:
        dealer = self._dealer(played, number)
        board = services.board_of(played.game, number)
        rule = services.imposed(played.game, number)
        if board is not None and rule is not None:
            taker = next((p for p in played.players if p.pk == rule[0]), None)
            return {
                "subtitle": _("Board %(board)s · %(name)s takes, %(contract)s imposed")
                % {
                    "board": board,
                    "name": taker.short_name if taker else "?",
                    "contract": CONTRACT_LABELS.get(rule[1], rule[1]),
                },
                "board_dealing": self._board_dealing(played.game).get(board, ""),
                "offline_preview": self.offline_preview(played, dealer, number),
            }
        context = {
            "subtitle": _("%(name)s deals") % {"name": dealer.short_name},
            "offline_preview": self.offline_preview(played, dealer),
        }
        if not editing:
            # the phone names the dealer of the entry it makes offline, after the ones it keeps
            # (offline-app.js): the dealers in dealing order from deal 1, as `dealer_for`
            dealers = [
                services.dealer_for(played.game, n, played.players)
                for n in range(1, len(played.players) + 1)
            ]
            context["subtitle_dealers"] = json.dumps([p.short_name for p in dealers])
            context["subtitle_text"] = _("%(name)s deals")
        return context

    @staticmethod
    def _board_dealing(game) -> dict[int, str]:
        """A duplicate table's boards and the dealing marked on each, "Dealer: East — North
        leads" (its options' ``"dealers"``, an orientation a board); {} at any other table."""
        options = game.options or {}
        boards, dealers = options.get("boards") or [], options.get("dealers") or []
        if len(boards) != len(dealers):
            return {}
        return {b: text for b, d in zip(boards, dealers, strict=True) if (text := dealing_text(d))}

    def sheet_extra(self, request, played) -> dict:
        """At a duplicate table, each board's dealer and who leads (duplicate.md 1.2)."""
        dealing = self._board_dealing(played.game)
        return {"board_dealing": dealing} if dealing else {}

    def offline_preview(self, played: TarotPlayed, dealer, number: int | None = None) -> dict:
        """What static/js/tarot-preview.js needs to fill the preview with no network, as the
        server's preview does: the seats and their names (here), and the address of every
        sentence it may show in the page's language (`offline_text`, a script the phone keeps:
        the same for every game, so not in each page's 30 KB)."""
        active = services.active_players(played.game, dealer, played.players, number)

        def seat(p):
            return {
                "pk": p.pk,
                "short": str(getattr(p, "compact", p.label)),
                "full": p.name,
                "name": played.names.get(p.pk, str(p.pk)),
                "label": p.label,
            }

        data = {
            "seats": [seat(p) for p in active],
            # the game's house rules (misères, poignée amounts), as tarot-score.js takes them
            "house_rules": house.of_game(played.game).as_dict(),
            "text_url": offline_text_url(),
        }
        options = played.game.options or {}
        if options.get("active") and options.get("imposed"):
            # a triplette table (duplicate.md 2.2): 4 of its 6 play each board, the attacker
            # by the rotation; the screen a phone keeps serves the next boards too, each with
            # its own four (N, E, S, W), its imposed taker and its subtitle
            by_pk = {p.pk: p for p in played.players}
            data["boards"] = {
                "seats": [seat(p) for p in played.players],
                "active": options["active"],
                "imposed": [row[0] for row in options["imposed"]],
                "subtitles": [
                    _("Board %(board)s · %(name)s takes, %(contract)s imposed")
                    % {
                        "board": board,
                        "name": by_pk[taker].short_name if taker in by_pk else "?",
                        "contract": CONTRACT_LABELS.get(contract, contract),
                    }
                    for board, (taker, contract) in zip(
                        options.get("boards") or [], options["imposed"], strict=False
                    )
                ],
            }
        if played.game.dealer_sits_out:
            # the screen a phone keeps serves the next deals too, each with its own dealer
            # out: every seat in order, and where deal 1's dealer sits (`dealer_for`)
            data["rotation"] = {
                "seats": [seat(p) for p in played.players],
                "first": played.game.first_dealer,
            }
        return data

    offline_global = "TarotOfflineText"

    def offline_text(self) -> dict:
        return offline_text()

    def preview_template(self) -> str:
        return "kinds/tarot/_preview.html"

    def preview(self, played: TarotPlayed, form, number: int, *, live: bool = False):
        """The score the deal would get, explained: (breakdown, error message)."""
        if not form.is_valid():
            errors = [str(e) for errs in form.errors.values() for e in errs]
            return None, (errors[0] if errors else None)
        dealer = self._dealer(played, number)
        try:
            result = services.deal_score(
                played.game, dealer, played.players, form.deal_input(), number=number
            )
        except ValidationError as e:
            return None, " ".join(e.messages)
        return self._breakdown(played, result), None

    def _breakdown(self, played: TarotPlayed, result):
        short = {p.pk: getattr(p, "compact", p.label) for p in played.players}
        full = {p.pk: p.name for p in played.players}
        return breakdown(result, played.names, short=short, full=full)

    def preview_extra(self, played: TarotPlayed, form) -> dict:
        """The card points typed, said for both sides ("defence 45 = attack 46"): switching
        the side never silently changes what a number means."""
        data = form.data if form.is_bound else {}
        text = str(data.get("points", "") if form.is_bound else form["points"].value() or "")
        side = (data.get("points_side") if form.is_bound else form["points_side"].value()) or (
            "attack"
        )
        try:
            points = parse_points_text(text)
        except ValidationError:
            return {"points_both": ""}
        if not 0 <= points <= 91:
            return {"points_both": ""}
        other = fft.format_points(Fraction(91) - points)
        mine = fft.format_points(points)
        if side == "defence":
            said = _("defence %(defence)s = attack %(attack)s") % {"defence": mine, "attack": other}
        else:
            said = _("attack %(attack)s = defence %(defence)s") % {"attack": mine, "defence": other}
        return {"points_both": said}

    def _stored_result(self, played: TarotPlayed, deal):
        data = services.DealInput(
            taker=deal.taker_id,
            contract=deal.contract,
            bouts=deal.bouts,
            points=Fraction(deal.points_half, 2),
            partner=deal.partner_id,
            petit_au_bout=deal.petit_au_bout or None,
            poignees=tuple((pk, kind) for pk, kind in deal.poignees),
            chelem=deal.chelem,
            miseres=tuple((pk, kind) for pk, kind in deal.miseres or []),
        )
        try:
            return services.deal_score(
                played.game, deal.dealer, played.players, data, number=deal.number
            )
        except (ValidationError, RuleError):
            return None

    @staticmethod
    def describe_snapshot(snapshot, names) -> str:
        """A stored deal in words, for the change history: the contract, its bouts (a plural),
        its points, whatever petit au bout, poignées and slam it had, and the scores."""
        if not snapshot:
            return ""
        points = fft.format_points(Fraction(snapshot["points_half"], 2))
        scores = ", ".join(
            f"{names.get(int(pk), '?')} {signed(score)}" for pk, score in snapshot["scores"].items()
        )
        n = snapshot["bouts"]
        parts = [
            _("%(taker)s, %(contract)s, %(bouts)s, %(points)s points")
            % {
                "taker": names.get(snapshot["taker"], "?"),
                "contract": CONTRACT_LABELS.get(snapshot["contract"], snapshot["contract"]),
                "bouts": ngettext("%(n)s bout", "%(n)s bouts", n) % {"n": n},
                "points": points,
            }
        ]
        side = snapshot.get("petit_au_bout") or ""
        if side:
            parts.append(_("petit au bout: %(side)s") % {"side": SIDE_LABELS.get(side, side)})
        poignees = snapshot.get("poignees") or []
        if poignees:
            shown = ", ".join(
                f"{names.get(int(pk), '?')} {POIGNEE_LABELS.get(level, level)}"
                for pk, level in poignees
            )
            parts.append(
                ngettext("poignée: %(list)s", "poignées: %(list)s", len(poignees)) % {"list": shown}
            )
        chelem = snapshot.get("chelem") or "none"
        if chelem != "none":
            parts.append(_("slam: %(chelem)s") % {"chelem": CHELEM_LABELS.get(chelem, chelem)})
        for pk, kind in snapshot.get("miseres") or []:
            parts.append(f"{MISERE_LABELS.get(kind, kind)}: {names.get(int(pk), '?')}")
        return " · ".join(parts) + " — " + scores

    def describe_change(self, change, names) -> tuple[str, str]:
        return self.describe_snapshot(change.before, names), self.describe_snapshot(
            change.after, names
        )

    def describe_entry(self, played: TarotPlayed, number: int) -> str:
        deal = played.entry(number)
        if deal is None:
            return ""
        return self.describe_snapshot(services.deal_snapshot(deal), played.names)

    def describe_stale(self, played: TarotPlayed, entry) -> str:
        result = self._stored_result(played, entry)
        if result is None:
            return ""
        b = breakdown(result, played.names)
        return f"{b.headline} · {b.formula}"

    def stored_preview(self, played: TarotPlayed, number: int):
        """The deal as it stands, for the correction screen before anything changes."""
        result = self._stored_result(played, played.entry(number))
        return (self._breakdown(played, result), None) if result else (None, None)

    def detail_context(self, played: TarotPlayed, number: int) -> dict:
        deal = played.entry(number)
        result = self._stored_result(played, deal)
        lines = {line.player_id: line.score for line in deal.lines.all()}
        return {
            "subtitle": _("%(name)s dealt") % {"name": deal.dealer.short_name},
            "detail_template": "kinds/tarot/_detail.html",
            "breakdown": breakdown(result, played.names) if result else None,
            "scores": [(p, lines.get(p.pk, 0)) for p in played.players],
            "correct_label": _("Correct this deal"),
            "undo_label": _("Undo this deal"),
        }

    def list_totals(self, games) -> dict[int, dict[int, int]]:
        return selectors.game_totals(games) if games else {}

    # --- writing ---------------------------------------------------------------------------

    def add(self, *, played, form, user, expected_number, client_id=None):
        return services.deal_add(
            game=played.game,
            played=played,
            data=form.deal_input(),
            user=user,
            expected_number=expected_number,
            client_id=client_id,
        )

    def correct(self, *, played, number, form, user):
        return services.deal_correct(
            played=played,
            number=number,
            data=form.deal_input(),
            expected_version=form.cleaned_data.get("version") or 0,
            user=user,
        )

    def undo(self, *, played, number, user):
        services.deal_undo_last(game=played.game, number=number, user=user)
        return ""

    # --- standings -------------------------------------------------------------------------

    def standings(self, date_from=None, date_to=None):
        """Each player's casual games, deals and total, summed in the database."""
        lines = DealLine.objects.filter(
            deal__game__kind=self.identifier,
            deal__game__tournament_table__isnull=True,
            deal__game__archived_at__isnull=True,
        )
        if date_from:
            lines = lines.filter(deal__game__created_at__date__gte=date_from)
        if date_to:
            lines = lines.filter(deal__game__created_at__date__lte=date_to)
        figures = (
            lines.values("player_id", "player__name", "player__nickname")
            .annotate(
                total=Sum("score"),
                deals=Count("deal", distinct=True),
                games=Count("deal__game", distinct=True),
            )
            .order_by()
        )
        rows = [
            {
                "pk": f["player_id"],
                "player": f["player__nickname"] or f["player__name"],
                "games": f["games"],
                "deals": f["deals"],
                "total": f["total"],
                "average": f["total"] / f["deals"] if f["deals"] else None,
            }
            for f in figures
        ]
        rows.sort(key=lambda r: r["player"].lower())
        return rows, TarotStandings, []


_SENTINEL = 987654321  # stands for a deal's number in a URL reversed once


def _downloads(token: str) -> list[tuple[str, str]]:
    """The sheet's printout and exports: (address, label)."""
    return [
        (reverse("reports:game_sheet_pdf", args=[token]), _("Sheet (PDF)")),
        (reverse("reports:game_deals_export", args=[token, "csv"]), _("Deals (CSV)")),
        (reverse("reports:game_deals_export", args=[token, "xlsx"]), _("Deals (Excel)")),
    ]


def _deal_url_maker(token: str):
    """`url(n)`: the address of deal n's page (`games:deal`), reversed once for a whole
    sheet rather than for each of its rows."""
    head, tail = reverse("games:deal", args=[token, _SENTINEL]).rsplit(str(_SENTINEL), 1)
    return lambda n: f"{head}{n}{tail}"


def offline_text() -> dict:
    """Every sentence the phone's own preview may show, in the active language."""
    from .forms import (
        ERR_PARTNER_REQUIRED,
        ERR_REQUIRED_BOUTS,
        ERR_REQUIRED_CONTRACT,
        ERR_REQUIRED_POINTS,
        ERR_REQUIRED_TAKER,
    )

    return {
        "rules": {name: _(getattr(fft, name)) for name in dir(fft) if name.startswith("ERR_")},
        "form": {
            "taker": str(ERR_REQUIRED_TAKER),
            "contract": str(ERR_REQUIRED_CONTRACT),
            "bouts": str(ERR_REQUIRED_BOUTS),
            "points": str(ERR_REQUIRED_POINTS),
            "partner": str(ERR_PARTNER_REQUIRED),
        },
        "contracts": {k: str(v) for k, v in CONTRACT_LABELS.items()},
        "bouts": {n: ngettext("%(n)s bout", "%(n)s bouts", n) % {"n": n} for n in range(4)},
        "words": {
            "points": _("%(points)s points"),
            "counted": _("counted %(points)s"),
            "won": _("won by %(gap)s"),
            "lost": _("lost by %(gap)s"),
            "petit_au_bout": _("petit au bout %(n)s"),
            "poignee": _("poignée %(n)s"),
            "slam": _("slam %(n)s"),
            "per_defender": _("%(unit)s per defender"),
            "pays": _("each defender pays %(unit)s; %(taker)s receives %(total)s"),
            "receives": _("each defender receives %(unit)s; %(taker)s pays %(total)s"),
            "partner": _("partner %(partner)s: %(score)s"),
            "attack_side": _("attack %(attack)s = defence %(defence)s"),
            "defence_side": _("defence %(defence)s = attack %(attack)s"),
            "scores": _("Scores of this deal"),
            "hint": _("The score appears here as you fill in the deal."),
            "offline": _("Offline: worked out on this phone."),
            "misere": _("%(misere)s of %(player)s: %(amount)s from each player"),
        },
        "miseres": {k: str(v) for k, v in MISERE_LABELS.items()},
    }


def offline_text_url() -> str:
    """The address of the active language's sentences, versioned by their contents."""
    from tarotclub.games import kinds

    return kinds.get("tarot").offline_text_url()
