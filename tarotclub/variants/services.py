"""Writes of the other games: records (rounds, deals, games), challenges and their awards.

Each function is one transaction. A record is checked by replaying the whole game through its
`scoring` module with the new record in place, so nothing the rules refuse is ever stored.
Errors a person can cause raise `games.services.GameError` (a ValidationError with a
translated message); a record changed by another phone since it was opened raises
`StaleRecordError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tarotclub.core.history import field
from tarotclub.core.models import action, log_action
from tarotclub.core.text import clean_text
from tarotclub.games.models import Change, ChangeAction, Game, GameKind, Record
from tarotclub.games.services import (
    GameError,
    acting_user,
    bump_revision,
    lock_game,
    seat_players,
)
from tarotclub.players.models import Player

from . import rules
from .models import Challenge, ChallengeAward

ERR_FINISHED = _("This game is over: no entry can be added or changed.")
ERR_NOT_VARIANT = _("This game is not one of the other games.")
ERR_NO_RECORD = _("There is nothing to undo.")
ERR_NOT_LAST = _("Only the last entry can be undone; entry %(number)s was made since.")
ERR_ENTRY_TAKEN = _(
    "Entry %(number)s was just made from another phone. Check the sheet before entering "
    "the next one."
)
ERR_NO_SUCH_RECORD = _("This entry does not exist (any more).")
ERR_FINISHED_CORRECT = _(
    "This game is over, so its entries can no longer change. "
    "To fix the last one, undo it and enter it again."
)
ERR_STOPPED = _("This game was stopped: its entries can no longer change.")
ERR_LATER_RECORD = _("With this change, entry %(number)s no longer fits: %(message)s")
ERR_STALE = _(
    "Somebody else changed this entry since you opened it. Here is the newer version; "
    "check it and enter your change again if it is still needed."
)
ERR_NOT_FOOLS_FAITH = _("Only a Fool's Faith game gives challenge cards.")
ERR_NOT_OVER = _("The challenge cards are given when the game is over.")
ERR_NO_WINNER = _("This game ended without a winner: nobody gives challenge cards.")
ERR_CARD_COUNT = _("%(winner)s won %(count)s challenge cards: give each of them.")
ERR_UNKNOWN_CHALLENGE = _("Choose each challenge from the club's list.")
ERR_AWARD_PLAYER = _("Give each challenge to another player of this game.")
ERR_CHALLENGE_TEXT = _("Write the challenge (up to 200 characters).")
ERR_CHALLENGE_USED = _(
    "This challenge was already given in a game, so it stays in the records: "
    "take it out of use instead."
)

#: Offered when the club's list is empty; stored in the language of whoever adds them.
SUGGESTED_CHALLENGES = (
    _("Sing a song of your choice."),
    _("Tell a joke to the whole table."),
    _("Shuffle and deal the next game."),
    _("Fetch a round of drinks for the table."),
    _("Speak only in questions until the next round."),
    _("Do ten squats."),
    _("Imitate an animal chosen by the winner."),
    _("Tell the story of your worst card game."),
    _("Recite a poem or a nursery rhyme."),
    _("Compliment every other player."),
)


class RuleRefused(GameError):
    """The rules refuse a record; `number` is the record that broke them (0: the table)."""

    number = 0

    def __init__(self, message, params=None):
        super().__init__(message, code="rule", params=params)


class StaleRecordError(GameError):
    def __init__(self, record: Record):
        super().__init__(ERR_STALE, code="stale")
        self.record = record


# --- helpers -----------------------------------------------------------------------------------


def _lock_game(game: Game) -> Game:
    """Re-read the game under a row lock so concurrent phones write one after the other."""
    locked = lock_game(game)
    if locked.kind not in rules.KINDS:
        raise GameError(ERR_NOT_VARIANT)
    return locked


def names_of(players: Sequence[Player]) -> dict[int, str]:
    return {p.pk: getattr(p, "label", p.short_name) for p in players}


def game_players(game: Game) -> tuple[list[Player], list[int]]:
    """(players in seat order with labels, player pks in the rules' order)."""
    players = seat_players(game)
    return players, rules.rules_order([p.pk for p in players], game.first_dealer)


def replay(game: Game, datas: Sequence[Any], players: Sequence[Player] | None = None):
    """Replay stored records; a broken rule becomes a GameError naming the players."""
    if players is None:
        players, order = game_players(game)
    else:
        order = rules.rules_order([p.pk for p in players], game.first_dealer)
    try:
        return rules.replay(game.kind, order, datas, game.options)
    except rules.ReplayError as e:
        error = RuleRefused(rules.named_message(e.error, names_of(players), gettext))
        error.number = e.number
        raise error from e


def _replay_with(game: Game, datas: list, number: int, players):
    """Replay; an error in a record after `number` says which one no longer fits."""
    try:
        return replay(game, datas, players)
    except RuleRefused as e:
        if e.number and e.number != number:
            raise RuleRefused(
                ERR_LATER_RECORD, params={"number": e.number, "message": e.message}
            ) from e
        raise


def _stopped(game: Game, state) -> bool:
    """Finished by a person (Finish button), not by the rules."""
    return game.finished and not rules.is_finished(state)


def _finish_if_over(game: Game, state, user) -> None:
    if rules.is_finished(state) and not game.finished:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
        Change.objects.create(game=game, action=ChangeAction.FINISHED, user=acting_user(user))


def record_snapshot(record: Record) -> dict:
    return {"number": record.number, "data": record.data, "version": record.version}


def _awards_snapshot(game: Game) -> list[dict]:
    return [
        {"card": a.card, "challenge": a.challenge_id, "text": a.text, "player": a.player_id}
        for a in game.challenge_awards.all()
    ]


# --- records -----------------------------------------------------------------------------------


@transaction.atomic
def record_add(
    *, game: Game, data: Mapping[str, Any], user=None, expected_number: int | None = None
) -> Record:
    """Enter the next record; finishes the game when the rules say it is over.

    `expected_number` is the entry the person was making: when another phone made that entry
    meanwhile, this one is refused rather than recorded twice.
    """
    game = _lock_game(game)
    if game.finished:
        raise GameError(ERR_FINISHED)
    players, _order = game_players(game)
    stored = list(game.records.order_by("number").values_list("data", flat=True))
    number = len(stored) + 1
    if expected_number is not None and expected_number != number:
        raise GameError(ERR_ENTRY_TAKEN, params={"number": expected_number})
    new = rules.to_json(data)
    state = _replay_with(game, [*stored, new], number, players)
    record = Record.objects.create(game=game, number=number, data=new)
    Change.objects.create(
        game=game,
        number=number,
        action=ChangeAction.RECORDED,
        after=record_snapshot(record),
        user=acting_user(user),
    )
    _finish_if_over(game, state, user)
    bump_revision(game)
    return record


@transaction.atomic
def record_correct(
    *, record: Record, data: Mapping[str, Any], expected_version: int, user=None
) -> Record:
    """Correct a record; refused when another phone changed it since `expected_version`."""
    game = _lock_game(record.game)
    if game.finished:
        players, _order = game_players(game)
        stored = list(game.records.order_by("number").values_list("data", flat=True))
        state = replay(game, stored, players)
        raise GameError(ERR_STOPPED if _stopped(game, state) else ERR_FINISHED_CORRECT)
    try:
        current = Record.objects.select_for_update().get(pk=record.pk, game=game)
    except Record.DoesNotExist:
        raise GameError(ERR_NO_SUCH_RECORD) from None
    if current.version != expected_version:
        raise StaleRecordError(current)
    players, _order = game_players(game)
    new = rules.to_json(data)
    stored = list(game.records.order_by("number").values_list("number", "data"))
    datas = [new if n == current.number else d for n, d in stored]
    state = _replay_with(game, datas, current.number, players)
    before = record_snapshot(current)
    current.data = new
    current.version += 1
    current.save(update_fields=["data", "version", "updated_at"])
    Change.objects.create(
        game=game,
        number=current.number,
        action=ChangeAction.CORRECTED,
        before=before,
        after=record_snapshot(current),
        user=acting_user(user),
    )
    _finish_if_over(game, state, user)
    bump_revision(game)
    return current


@transaction.atomic
def record_undo_last(*, game: Game, number: int, user=None) -> bool:
    """Remove the last record; `number` is the one the person confirmed removing.

    A game the rules had ended is reopened (its challenge cards, if any were given, are taken
    back; the change history keeps them). A game stopped by hand stays closed. Returns whether
    the game was reopened.
    """
    game = _lock_game(game)
    players, _order = game_players(game)
    records = list(game.records.order_by("number"))
    reopened = False
    if game.finished:
        state = replay(game, [r.data for r in records], players)
        if _stopped(game, state):
            raise GameError(ERR_STOPPED)
        reopened = True
    if not records:
        raise GameError(ERR_NO_RECORD)
    last = records[-1]
    if last.number != number:
        raise GameError(ERR_NOT_LAST, params={"number": last.number})
    before = record_snapshot(last)
    if reopened:
        before["reopened"] = True
        awards = _awards_snapshot(game)
        if awards:
            before["awards"] = awards
            game.challenge_awards.all().delete()
        game.finished_at = None
        game.save(update_fields=["finished_at"])
    Change.objects.create(
        game=game,
        number=last.number,
        action=ChangeAction.UNDONE,
        before=before,
        user=acting_user(user),
    )
    last.delete()
    bump_revision(game)
    return reopened


@transaction.atomic
def game_stop(*, game: Game, user=None) -> Game:
    """Finish a game by hand (Death's Pot and Keys have no end of their own)."""
    game = _lock_game(game)
    if game.finished:
        raise GameError(ERR_FINISHED)
    game.finished_at = timezone.now()
    game.save(update_fields=["finished_at"])
    Change.objects.create(game=game, action=ChangeAction.FINISHED, user=acting_user(user))
    bump_revision(game)
    return game


# --- challenges --------------------------------------------------------------------------------

CHALLENGE_CREATED = action("challenge.created", _("challenge added"))
CHALLENGE_CHANGED = action("challenge.changed", _("challenge changed"))
CHALLENGE_DELETED = action("challenge.deleted", _("challenge deleted"))
CHALLENGES_GIVEN = action("challenges.given", _("challenge cards given"))
CHALLENGES_GIVEN_AGAIN = action("challenges.given_again", _("challenge cards given again"))
field("challenge", _("challenge"))
field("order", _("order"))
field("in_use", _("in use"))
field("awards", _("Challenge cards"))

ERR_NO_SUCH_CHALLENGE = _("This challenge is no longer in the list.")
#: The largest order a challenge can have (the form offers up to 9999).
ORDER_MAX = 9999


def _clean_text(text: str) -> str:
    text = clean_text(text)
    if not text or len(text) > 200:
        raise GameError(ERR_CHALLENGE_TEXT, code="text")
    return text


def _order(order: int) -> int:
    return min(max(0, int(order)), ORDER_MAX)


def _challenge_snapshot(challenge: Challenge) -> dict:
    return {"challenge": challenge.text, "order": challenge.order, "in_use": challenge.active}


def _lock_challenge(challenge: Challenge) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge.pk)
    except Challenge.DoesNotExist:
        raise GameError(ERR_NO_SUCH_CHALLENGE, code="gone") from None


@transaction.atomic
def challenge_create(*, text: str, order: int | None = None, user=None) -> Challenge:
    text = _clean_text(text)
    if order is None:
        last = Challenge.objects.order_by("-order").values_list("order", flat=True).first()
        order = (last or 0) + 1
    challenge = Challenge.objects.create(text=text, order=_order(order))
    log_action(challenge, CHALLENGE_CREATED, user=user, after=_challenge_snapshot(challenge))
    return challenge


@transaction.atomic
def challenge_update(
    *, challenge: Challenge, text: str, active: bool, order: int, user=None
) -> Challenge:
    text = _clean_text(text)
    challenge = _lock_challenge(challenge)
    before = _challenge_snapshot(challenge)
    challenge.text, challenge.active, challenge.order = text, bool(active), _order(order)
    after = _challenge_snapshot(challenge)
    if after != before:
        challenge.save(update_fields=["text", "active", "order"])
        log_action(challenge, CHALLENGE_CHANGED, user=user, before=before, after=after)
    return challenge


@transaction.atomic
def challenge_delete(*, challenge: Challenge, user=None) -> None:
    """Delete a challenge never given; one already given can only be taken out of use."""
    challenge = _lock_challenge(challenge)
    if ChallengeAward.objects.filter(challenge=challenge).exists():
        raise GameError(ERR_CHALLENGE_USED, code="used")
    log_action(challenge, CHALLENGE_DELETED, user=user, before=_challenge_snapshot(challenge))
    try:
        with transaction.atomic():
            challenge.delete()
    except ProtectedError:  # given in a game meanwhile
        raise GameError(ERR_CHALLENGE_USED, code="used") from None


@transaction.atomic
def challenges_suggest(*, user=None) -> list[Challenge]:
    """Fill an empty list with the suggested challenges, in the current language."""
    if Challenge.objects.exists():
        return []
    added = []
    for i, text in enumerate(SUGGESTED_CHALLENGES, start=1):
        challenge = Challenge.objects.create(text=clean_text(text, 200), order=i)
        log_action(challenge, CHALLENGE_CREATED, user=user, after=_challenge_snapshot(challenge))
        added.append(challenge)
    return added


def _awards_log(awards) -> dict | None:
    """The cards given, as the history shows them: who received which challenge."""
    rows = [
        {
            "card": a.card,
            "player": a.player.name,
            "challenge": a.text,
            "player_id": a.player_id,
            "challenge_id": a.challenge_id,
        }
        for a in awards
    ]
    return {"awards": rows} if rows else None


@transaction.atomic
def challenges_award(
    *, game: Game, awards: Sequence[tuple[int, int]], user=None
) -> list[ChallengeAward]:
    """The winner gives their challenge cards: `awards` is one (challenge pk, player pk) a card.

    Giving them again replaces what was given before; the history keeps both.
    """
    game = _lock_game(game)
    if game.kind != GameKind.FOOLS_FAITH:
        raise GameError(ERR_NOT_FOOLS_FAITH)
    players, _order = game_players(game)
    stored = list(game.records.order_by("number").values_list("data", flat=True))
    state = replay(game, stored, players)
    if not game.finished or not state.finished:
        raise GameError(ERR_NO_WINNER if game.finished else ERR_NOT_OVER)
    names = names_of(players)
    winner = state.winner
    count = state.cards[winner]
    if len(awards) != count:
        raise GameError(ERR_CARD_COUNT, params={"winner": names[winner], "count": count})
    by_pk = {p.pk: p for p in players}
    # locked, so that a challenge is not deleted while it is being given
    challenges = Challenge.objects.select_for_update().in_bulk([c for c, _p in awards])
    rows = []
    for card, (challenge_pk, player_pk) in enumerate(awards, start=1):
        challenge = challenges.get(challenge_pk)
        if challenge is None:
            raise GameError(ERR_UNKNOWN_CHALLENGE)
        if player_pk not in by_pk or player_pk == winner:
            raise GameError(ERR_AWARD_PLAYER)
        rows.append(
            ChallengeAward(
                game=game,
                card=card,
                challenge=challenge,
                text=challenge.text,
                player=by_pk[player_pk],
                awarded_by=by_pk[winner],
                user=acting_user(user),
            )
        )
    before = _awards_log(game.challenge_awards.select_related("player").order_by("card"))
    game.challenge_awards.all().delete()
    created = ChallengeAward.objects.bulk_create(rows)
    log_action(
        game,
        CHALLENGES_GIVEN_AGAIN if before else CHALLENGES_GIVEN,
        user=user,
        before=before,
        after=_awards_log(created),
    )
    bump_revision(game)
    return created
