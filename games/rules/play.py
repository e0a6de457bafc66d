"""Playing a card: the refusal of an illegal one, and the trick, declarations,
score and next deal that a card completes (docs/rules.md, "Play")."""

from __future__ import annotations

from games.rules.belote import belote_call, belote_team
from games.rules.cards import CARD_NAMES, SUIT_MASKS, SUITS, TRUMP_ABOVE
from games.rules.dealing import after_scoring, revealed
from games.rules.declarations import count_declarations
from games.rules.errors import RuleError
from games.rules.events import CardPlayed, DeclarationsShown, Event, HandScored, TrickWon
from games.rules.scoring import score_hand
from games.rules.state import GameState
from games.rules.tricks import trick_points, winning

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _refusal(hand: int, trick: tuple[int, ...], trump: int, card: int) -> RuleError:
    """Why `card` may not be played: it names only the player's own cards."""
    led = trick[0] & 3
    if hand & SUIT_MASKS[led] and card & 3 != led:
        return RuleError(
            "must_follow_suit", f"you hold {SUIT_NAMES[SUITS[led]]}, the suit led: play one"
        )
    winning_card = winning(trick, trump)[1]
    trump_name = SUIT_NAMES[SUITS[trump]]
    if winning_card & 3 == trump:
        if hand & SUIT_MASKS[trump] & TRUMP_ABOVE[winning_card]:
            return RuleError(
                "must_overtrump",
                f"you hold a {trump_name[:-1]} higher than {CARD_NAMES[winning_card]}: play one",
            )
        return RuleError(
            "must_undertrump", f"you hold {trump_name} (trumps) and cannot follow: play one"
        )
    return RuleError("must_trump", f"you hold {trump_name} (trumps) and cannot follow: play one")


def decide_play(
    state: GameState,
    seat: int,
    card: int,
    belote: bool | None,
    next_seed: bytes,
    *,
    next_secret: bytes = b"",
) -> tuple[Event, ...]:
    """The events of `seat` (the seat to play) playing `card`: the card, and the
    trick, the declarations, the score and the next deal or end of game it completes."""
    if not state.legal >> card & 1:
        hand = state.hands[seat]
        if not hand >> card & 1:
            raise RuleError("card_not_in_hand", f"{CARD_NAMES[card]} is not in your hand")
        raise _refusal(hand, state.trick, state.trump, card)
    played = CardPlayed(seat, card, belote_call(state, seat, card, belote))
    if len(state.trick) < 3:
        return (played,)
    won = _trick_won(state, card)
    if won.trick == 1:
        if any(state.declared):
            count = count_declarations(state.declared, state.trump)
            return played, won, DeclarationsShown(count.team, count.counted)
        return played, won
    if won.trick < 8:
        return played, won
    scored = _score(state, won)
    return (played, won, scored, *after_scoring(state, scored, next_seed, next_secret))


def _trick_won(state: GameState, last_card: int) -> TrickWon:
    """The trick that `last_card`, its fourth card, completes."""
    cards = (*state.trick, last_card)
    number = len(state.tricks) + 1
    index, _ = winning(cards, state.trump)
    points = trick_points(cards, state.trump, last=number == 8)
    return TrickWon(number, state.trick_leader, (state.trick_leader + index) % 4, cards, points)


def _score(state: GameState, last: TrickWon) -> HandScored:
    team = last.winner % 2
    trick_points = list(state.trick_points)
    trick_points[team] += last.points
    tricks_won = list(state.tricks_won)
    tricks_won[team] += 1
    belote = belote_team(state)
    counted_team, counted_points = state.shown_team, sum(d.points for d in state.shown or ())
    result = score_hand(
        state.options,
        taker_team=state.taker % 2,
        trick_points=(trick_points[0], trick_points[1]),
        tricks_won=(tricks_won[0], tricks_won[1]),
        counted_team=counted_team,
        counted_points=counted_points,
        belote_team=belote,
        waiting_before=state.waiting_points,
    )
    game_scores = (state.scores[0] + result.deltas[0], state.scores[1] + result.deltas[1])
    return HandScored(
        state.hand_number,
        state.taker,
        state.trump,
        result.card_points,
        counted_team,
        counted_points,
        belote,
        result.totals,
        result.outcome,
        result.scores,
        state.waiting_points,
        result.waiting_after,
        result.waiting_to,
        result.deltas,
        game_scores,
        *revealed(state),
    )
