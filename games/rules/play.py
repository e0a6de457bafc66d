"""Legal play, tricks and the end of a hand (RULES.md, "Play").

`legal_cards_mask` is the one place the legality of a card is decided; the bots'
simulations call it too.
"""

from __future__ import annotations

from games.rules.belote import belote_call, belote_team
from games.rules.cards import (
    CARD_NAMES,
    LAST_TRICK_BONUS,
    POINTS,
    SUIT_MASKS,
    SUITS,
    TRUMP_ABOVE,
    WIN_KEYS,
)
from games.rules.dealing import after_scoring
from games.rules.declarations import count_declarations
from games.rules.errors import RuleError
from games.rules.events import (
    CardPlayed,
    DeclarationsShown,
    Event,
    HandScored,
    TrickWon,
)
from games.rules.scoring import score_hand
from games.rules.state import GameState

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def winning(trick: tuple[int, ...], trump: int) -> tuple[int, int]:
    """(index in the trick, card id) of the card winning a (partial) trick so far."""
    keys = WIN_KEYS[4 * trump + (trick[0] & 3)]
    best_index = 0
    best_key = keys[trick[0]]
    for index in range(1, len(trick)):
        key = keys[trick[index]]
        if key > best_key:
            best_key, best_index = key, index
    return best_index, trick[best_index]


def legal_cards_mask(
    hand: int, trick: tuple[int, ...], trump: int, overtrump_partner_on_trump_lead: bool = True
) -> int:
    """The cards of `hand` (a mask) that may be played on `trick` (card ids in
    play order, leader first; the player is the next one after them)."""
    if not trick:
        return hand
    index, card = winning(trick, trump)
    return legal_on(hand, trick, index, card, trump, overtrump_partner_on_trump_lead)


def legal_on(  # noqa: PLR0917 (hot path: positional arguments are the cheapest)
    hand: int,
    trick: tuple[int, ...],
    win_index: int,
    win_card: int,
    trump: int,
    overtrump_partner_on_trump_lead: bool,
) -> int:
    """`legal_cards_mask` on a started trick whose winner so far is known."""
    led = trick[0] & 3
    following = hand & SUIT_MASKS[led]
    partner_winning = win_index == len(trick) - 2
    if following:
        if led != trump:
            return following
        higher = following & TRUMP_ABOVE[win_card]
        if higher and (overtrump_partner_on_trump_lead or not partner_winning):
            return higher
        return following
    if partner_winning:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if win_card & 3 == trump:
        return trumps & TRUMP_ABOVE[win_card] or trumps
    return trumps


def legal_mask(state: GameState, seat: int) -> int:
    """The cards `seat` may play now, as a mask (none when it is not to play a card)."""
    return state.legal if seat == state.turn else 0


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
    state: GameState, seat: int, card: int, belote: bool | None, next_seed: bytes
) -> tuple[Event, ...]:
    """The events of `seat` playing `card`: the card, and the trick, the
    declarations, the score and the next deal or end of game it completes."""
    trick = state.trick
    trump = state.trump
    if not state.legal >> card & 1:  # the folds keep `legal`: a subset of the hand
        hand = state.hands[seat]
        if not hand >> card & 1:
            raise RuleError("card_not_in_hand", f"{CARD_NAMES[card]} is not in your hand")
        raise _refusal(hand, trick, trump, card)
    played = CardPlayed(seat, card, belote_call(state, seat, card, belote))
    if len(trick) < 3:
        return (played,)
    trick = (*trick, card)
    keys = WIN_KEYS[4 * trump + (trick[0] & 3)]
    index = 3 if keys[card] > keys[state.win_card] else state.win_index
    number = len(state.tricks) + 1
    table = POINTS[trump]
    points = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
    if number == 8:
        points += LAST_TRICK_BONUS
    leader = state.trick_leader
    won = TrickWon(number, leader, (leader + index) & 3, trick, points)
    if number == 1:
        if any(state.declared):
            count = count_declarations(state.declared, trump)
            return played, won, DeclarationsShown(count.team, count.counted)
        return played, won
    if number < 8:
        return played, won
    scored = _score(state, won)
    return (played, won, scored, *after_scoring(state, scored, next_seed))


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
        state.hand_seed,
    )
