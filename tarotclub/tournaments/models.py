"""A club tournament: registrations, the rounds' tables (each a game), the seating plan."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tarotclub.games.models import Game
from tarotclub.players.models import Player

from . import seating

#: The seats of a table in their order, in the reader's language (the planner's names).
SEAT_NAMES = [_(name) for name in seating.SEAT_NAMES] + [_("Sixth")]
#: A triplette table's seats: the North-South team's 3 players, then the East-West team's.
TRIPLETTE_SEAT_NAMES = [_("North-South")] * 3 + [_("East-West")] * 3


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Status(models.TextChoices):
    REGISTRATION = "registration", _("registration")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Ranking(models.TextChoices):
    TOTAL = "total", _("total of the scores")
    AVERAGE = "average", _("average per round played")


class Format(models.TextChoices):
    FREE = "free", _("free deals")
    DUPLICATE = "duplicate", _("duplicate (individual)")
    TRIPLETTE = "triplette", _("duplicate (triplettes)")
    QUADRETTE = "quadrette", _("duplicate (quadrettes)")


class Line(models.TextChoices):
    """A triplette's line, kept for the session (duplicate.md 2.2, p. 20)."""

    NORTH_SOUTH = "NS", _("North-South")
    EAST_WEST = "EW", _("East-West")


class TripletteMovementKind(models.TextChoices):
    STAY = "stay", _("Stay")
    HOWELL = "howell", _("Howell")


class Badge(models.TextChoices):
    """A triplette member's badge: the attack order by surname (p. 20)."""

    BLEU = "bleu", _("Blue")
    BLANC = "blanc", _("White")
    ROUGE = "rouge", _("Red")


class Orientation(models.TextChoices):
    """A duplicate player's orientation, kept for the whole session (duplicate.md 1.6)."""

    NORTH = "N", _("North")
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")


#: The most tables of a duplicate session (a movement of T tables has at most T rounds).
DUPLICATE_MAX_TABLES = 30


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=120, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=5)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), default=4)
    allow_three = models.BooleanField(_("tables of three allowed"), default=False)
    ranking = models.CharField(_("ranking"), max_length=10, choices=Ranking, default=Ranking.TOTAL)
    # Free deals, or duplicate: then `table_count` tables of four, `deals_per_round` boards a set
    # (the boards a table plays in a round), and the movement stored at the start.
    format = models.CharField(_("format"), max_length=10, choices=Format, default=Format.FREE)
    table_count = models.PositiveSmallIntegerField(_("tables"), default=0)
    # A duplicate movement as `scoring.movement.Movement` data: {"tables", "shifts", "sets"};
    # a triplette one as `scoring.triplette_movement` data: {"kind", "teams", "sets", "rounds"}
    # (tournaments started before have the individual's, `scoring.triplette.from_individual`).
    movement = models.JSONField(default=dict, blank=True)
    # Triplettes: the badge colour of every team's first attacker, drawn with the seed
    # (`scoring.triplette.draw_first_colour`), and how many times the director redrew it.
    first_colour = models.CharField(
        _("first attacker's colour"), max_length=5, choices=Badge, blank=True, default=""
    )
    colour_draws = models.PositiveSmallIntegerField(default=0)
    # Duplicate: the dealer the director marked on a board, where it is not the default of
    # `scoring.movement.dealer_of`: {"board number": orientation} (duplicate.md 1.2).
    board_dealers = models.JSONField(default=dict, blank=True)
    # Triplettes: the movement the director chose before the start (duplicate.md 2.2): Stay
    # (N-S teams keep their table) or Howell (every two teams meet once).
    triplette_movement = models.CharField(
        _("movement"), max_length=6, choices=TripletteMovementKind, default="stay"
    )
    status = models.CharField(max_length=12, choices=Status, default=Status.REGISTRATION)
    current_round = models.PositiveSmallIntegerField(default=0)
    seed = models.PositiveIntegerField(default=new_seed)
    # The seating of the rounds still to come: [[[player pk, ...] per table] per round].
    plan = models.JSONField(default=list, blank=True)
    # French Tarot's house rules its tables play by (`games.house`): the club's defaults as
    # they were when the tournament was created, changeable by the director until the start.
    # {} is the federation's rules.
    house_rules = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The creation form's one-time key: the same form sent twice creates one tournament.
    creation_key = models.CharField(max_length=32, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rounds__gte=1) & models.Q(rounds__lte=20),
                name="tournament_rounds_range",
            ),
            models.CheckConstraint(
                condition=models.Q(deals_per_round__gte=1) & models.Q(deals_per_round__lte=24),
                name="tournament_deals_range",
            ),
            models.CheckConstraint(
                condition=models.Q(table_count__lte=DUPLICATE_MAX_TABLES),
                name="tournament_tables_range",
            ),
            models.UniqueConstraint(
                fields=["creation_key"],
                condition=~models.Q(creation_key=""),
                name="tournament_creation_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def duplicate(self) -> bool:
        """An individual duplicate tournament (triplettes: `triplette`)."""
        return self.format == Format.DUPLICATE

    @property
    def triplette(self) -> bool:
        return self.format == Format.TRIPLETTE

    @property
    def quadrette(self) -> bool:
        """Quadrettes (duplicate.md 2.3): the attacker is the entry seated South, the
        defenders North, East, West; `start_table` is the team's table (its defence's)."""
        return self.format == Format.QUADRETTE


class Entry(models.Model):
    """A registered player: seated from `first_round`; after withdrawing, up to `last_round`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    licence = models.CharField(_("licence number"), max_length=20, blank=True)
    # Free-deal teams of 2 or 4 (duplicate.md 2.1): the entries with the same team name (as
    # `text_key` compares names) form a team; teammates never sit at the same table.
    team = models.CharField(_("team"), max_length=60, blank=True, default="")
    # Duplicate: the player's orientation and starting table (a movement's player
    # ("E", 3)); chosen at registration or given at the start. A team may be added later.
    orientation = models.CharField(
        _("orientation"), max_length=1, choices=Orientation, blank=True, default=""
    )
    start_table = models.PositiveSmallIntegerField(_("starting table"), null=True, blank=True)
    # Triplettes: the team's line (N-S or E-W, chosen at registration), and the member's
    # badge (given at the start, by surname); the team's starting table is `start_table`.
    line = models.CharField(_("line"), max_length=2, choices=Line, blank=True, default="")
    badge = models.CharField(_("badge"), max_length=5, choices=Badge, blank=True, default="")
    first_round = models.PositiveSmallIntegerField(default=1)
    last_round = models.PositiveSmallIntegerField(null=True, blank=True)  # set on withdrawal
    # Duplicate: a substitute plays the seat of the entry he replaces from his `first_round`
    # on (that entry's `last_round` is the round before). He has no seat of his own: the seat
    # (orientation, starting table) stays the replaced entry's.
    replaces = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="substitutes",
        verbose_name=_("replaces"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique"),
            models.UniqueConstraint(
                fields=["tournament", "orientation", "start_table"],
                condition=~models.Q(orientation=""),
                name="entry_duplicate_seat_unique",
            ),
            models.UniqueConstraint(
                fields=["replaces"],
                condition=models.Q(replaces__isnull=False),
                name="entry_substitute_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.player}"

    @property
    def withdrawn(self) -> bool:
        return self.last_round is not None

    @property
    def from_round(self) -> int | None:
        """A substitute's first round (None for a player who is no substitute)."""
        return self.first_round if self.replaces_id else None


class Table(models.Model):
    """One table of one round; its deals are a game entered with the table's share link."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")

    class Meta:
        ordering = ["tournament", "round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "number"], name="table_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · R{self.round} T{self.number}"


class RedrawnTable(models.Model):
    """A table the director redrew away before its first deal (its game is gone).

    Its share link may still be on a phone, or in the QR code of a sheet printed before the
    redraw: it then tells the table's players where each of them sits now.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="redrawn_tables"
    )
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True)
    players = models.JSONField(default=list)  # player pks in seat order
    redrawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "round", "number", "-redrawn_at"]

    def __str__(self) -> str:
        return f"{self.tournament} · R{self.round} T{self.number} (redrawn)"


def deals_for_table(tournament: Tournament, size: int) -> int:
    """Deals a table plays in a round: at five the dealer sits out, so everybody plays as many."""
    if size == 5:
        return -(-tournament.deals_per_round * 5 // 4)
    return tournament.deals_per_round
