"""Writes of Fool's Faith's challenges: the club's list, and the cards a winner gives.

Each function is one transaction; refusals raise `games.services.GameError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tarotclub.core.models import acting_user
from tarotclub.games import kinds
from tarotclub.games.models import ChangeAction, Game
from tarotclub.games.services import GameError, lock_game, log_change

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


def _clean_text(text: str) -> str:
    text = " ".join((text or "").split())
    if not text or len(text) > 200:
        raise GameError(ERR_CHALLENGE_TEXT, code="text")
    return text


@transaction.atomic
def challenge_create(*, text: str, order: int | None = None) -> Challenge:
    text = _clean_text(text)
    if order is None:
        last = Challenge.objects.order_by("-order").values_list("order", flat=True).first()
        order = (last or 0) + 1
    return Challenge.objects.create(text=text, order=max(0, order))


@transaction.atomic
def challenge_update(*, challenge: Challenge, text: str, active: bool, order: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
    challenge.text = _clean_text(text)
    challenge.active = bool(active)
    challenge.order = max(0, order)
    challenge.save()
    return challenge


@transaction.atomic
def challenge_delete(*, challenge: Challenge) -> None:
    """Delete a challenge never given; one already given can only be taken out of use."""
    if ChallengeAward.objects.filter(challenge=challenge).exists():
        raise GameError(ERR_CHALLENGE_USED, code="used")
    challenge.delete()


@transaction.atomic
def challenges_suggest() -> list[Challenge]:
    """Fill an empty list with the suggested challenges, in the current language."""
    if Challenge.objects.exists():
        return []
    return [
        Challenge.objects.create(text=str(text), order=i)
        for i, text in enumerate(SUGGESTED_CHALLENGES, start=1)
    ]


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
    challenges = Challenge.objects.in_bulk([c for c, _p in awards])
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
    before = awards_snapshot(game)
    game.challenge_awards.all().delete()
    created = ChallengeAward.objects.bulk_create(rows)
    log_change(
        game,
        ChangeAction.AWARDED,
        before={"awards": before} if before else None,
        after={"awards": awards_snapshot(game)},
        user=user,
    )
    return created
