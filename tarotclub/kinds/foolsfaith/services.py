"""Writes of Fool's Faith's challenges: the club's list, and the cards a winner gives.

Each function is one transaction; refusals raise `games.services.GameError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext_lazy as _

from tarotclub.core.history import field
from tarotclub.core.models import acting_user, action, log_action
from tarotclub.core.text import clean_text
from tarotclub.games import kinds
from tarotclub.games.models import Game
from tarotclub.games.services import GameError, bump_revision, lock_game

from .models import Challenge, ChallengeAward

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


def awards_snapshot(game: Game) -> list[dict]:
    """The challenge cards given in a game, for its change history."""
    return [
        {"card": a.card, "challenge": a.challenge_id, "text": a.text, "player": a.player_id}
        for a in game.challenge_awards.order_by("card")
    ]


@transaction.atomic
def challenges_award(
    *, game: Game | None = None, played=None, awards: Sequence[tuple[int, int]], user=None
) -> list:
    """The winner gives their challenge cards: `awards` is one (challenge pk, player pk) a card.

    Giving them again replaces what was given before; the history keeps both.
    """
    if played is None:
        kind = kinds.get(game.kind)
        if kind is None or kind.identifier != "foolsfaith":
            raise GameError(ERR_NOT_FOOLS_FAITH)
        played = kind.load(game)
    if played.kind.identifier != "foolsfaith":
        raise GameError(ERR_NOT_FOOLS_FAITH)
    game = lock_game(played.game)
    if game.revision != played.game.revision:
        played = played.kind.load(game)
    state = played.state
    if not game.finished or state is None or not state.finished:
        raise GameError(ERR_NO_WINNER if game.finished else ERR_NOT_OVER)
    names = played.names
    winner = state.winner
    count = state.cards[winner]
    if len(awards) != count:
        raise GameError(ERR_CARD_COUNT, params={"winner": names[winner], "count": count})
    by_pk = {p.pk: p for p in played.players}
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
