"""`apply`: one fold per event type. Folds trust the event; they check nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from games.rules.belote import belote_holder
from games.rules.cards import WIN_KEYS
from games.rules.declarations import best_sets
from games.rules.events import (
    Bid,
    CardPlayed,
    DeclarationsShown,
    Declared,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    HandThrownIn,
    RestDealt,
    TrickWon,
    TrumpSet,
)
from games.rules.play import legal_on
from games.rules.state import (
    BIDDING_1,
    BIDDING_2,
    FIELD,
    FINISHED,
    HAND_OVER,
    NO_SEAT,
    PLAYING,
    GameState,
    evolve,
    rebuild,
)

_FRESH_HAND = GameState()
_new_tuple = tuple.__new__
_HAND_START = FIELD["hand_seed"]
_PHASE = FIELD["phase"]
_HANDS = FIELD["hands"]
_TURN = FIELD["turn"]
_STOCK = FIELD["stock"]
_TRICK_LEADER = FIELD["trick_leader"]
_BELOTE_HOLDER = FIELD["belote_holder"]
_OFFERS = FIELD["offers"]
_LEGAL = FIELD["legal"]
#: card_played rebuilds the state from the fields before `hands`, trick_won from those
#: before `trick_leader` (the order of GameState puts them last; a test pins it)
_BEFORE_HANDS: Final = 27
_BEFORE_TRICK_LEADER: Final = 23


def _game_started(state: GameState, event: GameStarted) -> GameState:
    return evolve(
        state,
        options=event.options,
        game_seed=event.game_seed,
        first_dealer=event.first_dealer,
        dealer=event.first_dealer,
    )


def _hand_dealt(state: GameState, event: HandDealt) -> GameState:
    values = list(state)
    values[_HAND_START:] = _FRESH_HAND[_HAND_START:]
    values[_PHASE] = BIDDING_1
    values[FIELD["dealer"]] = event.dealer
    values[FIELD["hand_number"]] = event.hand
    values[FIELD["hand_seed"]] = event.seed
    values[FIELD["seed_commitment"]] = event.seed_commitment
    values[_HANDS] = event.cards
    values[FIELD["turned_card"]] = event.turned_card
    values[FIELD["stock"]] = event.stock
    values[_TURN] = (event.dealer + 1) % 4
    return rebuild(values)


def _bid(state: GameState, event: Bid) -> GameState:
    phase = state.phase
    if event.bid == "pass" and event.seat == state.dealer:
        phase = BIDDING_2  # the dealer's pass ends round 1 (round 2 ends in a throw-in)
    return evolve(
        state,
        bids=(*state.bids, (event.seat, event.round, event.bid)),
        turn=(event.seat + 1) % 4,
        phase=phase,
    )


def _hand_thrown_in(state: GameState, event: HandThrownIn) -> GameState:
    return evolve(state, phase=HAND_OVER, turn=NO_SEAT)


def _trump_set(state: GameState, event: TrumpSet) -> GameState:
    return evolve(state, taker=event.taker, trump=event.trump, turn=NO_SEAT)


def _rest_dealt(state: GameState, event: RestDealt) -> GameState:
    held_0, held_1, held_2, held_3 = state.hands
    extra_0, extra_1, extra_2, extra_3 = event.cards
    full = [held_0 | extra_0, held_1 | extra_1, held_2 | extra_2, held_3 | extra_3]
    full[state.taker] |= 1 << state.turned_card
    hands = (full[0], full[1], full[2], full[3])
    leader = (state.dealer + 1) & 3
    values = [*state]
    values[_PHASE] = PLAYING
    values[_HANDS] = hands
    values[_STOCK] = ()
    values[_TURN] = values[_TRICK_LEADER] = leader
    values[_BELOTE_HOLDER] = belote_holder(hands, state.trump)
    if state.options.declarations:
        values[_OFFERS] = (
            best_sets(hands[0]),
            best_sets(hands[1]),
            best_sets(hands[2]),
            best_sets(hands[3]),
        )
    values[_LEGAL] = hands[leader]
    return rebuild(values)


def _declared(state: GameState, event: Declared) -> GameState:
    declared = list(state.declared)
    declared[event.seat] = event.declarations
    return evolve(state, declared=tuple(declared))


def _card_played(state: GameState, event: CardPlayed) -> GameState:
    # the hottest fold: locals, one slice and one tuple instead of a list of all fields
    seat, card, belote = event
    if belote is not None:
        state = evolve(state, belote_calls=(*state.belote_calls, (seat, belote)))
    h0, h1, h2, h3 = state.hands
    bit = 1 << card  # the card is in the hand: decide checked it
    if seat == 0:
        h0 ^= bit
    elif seat == 1:
        h1 ^= bit
    elif seat == 2:
        h2 ^= bit
    else:
        h3 ^= bit
    hands = (h0, h1, h2, h3)
    trick = state.trick
    trump = state.trump
    if trick:
        keys = WIN_KEYS[4 * trump + (trick[0] & 3)]
        win_card = state.win_card
        if keys[card] > keys[win_card]:
            win_index, win_card = len(trick), card
        else:
            win_index = state.win_index
        trick = (*trick, card)
    else:
        win_index, win_card, trick = 0, card, (card,)
    following = (seat + 1) & 3
    # the next seat's legal cards; none once the trick is full (trick_won comes next)
    legal = (
        legal_on(
            hands[following],
            trick,
            win_index,
            win_card,
            trump,
            state.options.overtrump_partner_on_trump_lead,
        )
        if len(trick) < 4
        else 0
    )
    return _new_tuple(
        # concatenation: cheaper here than unpacking the slice into a new tuple
        GameState,
        state[:_BEFORE_HANDS] + (hands, trick, win_index, win_card, following, legal),  # noqa: RUF005
    )


def _trick_won(state: GameState, event: TrickWon) -> GameState:
    number, _, winner, _, points = event
    points_0, points_1 = state.trick_points
    won_0, won_1 = state.tricks_won
    if winner & 1:
        points_1 += points
        won_1 += 1
    else:
        points_0 += points
        won_0 += 1
    hands = state.hands
    turn, legal = (winner, hands[winner]) if number < 8 else (NO_SEAT, 0)
    return _new_tuple(
        GameState,
        state[:_BEFORE_TRICK_LEADER]  # noqa: RUF005 (as in _card_played)
        + (
            winner,
            (*state.tricks, event),
            (points_0, points_1),
            (won_0, won_1),
            hands,
            (),
            -1,
            -1,
            turn,
            legal,
        ),
    )


def _declarations_shown(state: GameState, event: DeclarationsShown) -> GameState:
    return evolve(state, shown=event.declarations, shown_team=event.team)


def _hand_scored(state: GameState, event: HandScored) -> GameState:
    return evolve(
        state,
        phase=HAND_OVER,
        turn=NO_SEAT,
        scores=event.game_scores,
        waiting_points=event.waiting_after,
        results=(*state.results, event),
    )


def _game_finished(state: GameState, event: GameFinished) -> GameState:
    winner = NO_SEAT if event.winner is None else event.winner
    return evolve(state, phase=FINISHED, turn=NO_SEAT, winner=winner)


FOLDS: dict[type, Callable[[GameState, Any], GameState]] = {
    GameStarted: _game_started,
    HandDealt: _hand_dealt,
    Bid: _bid,
    HandThrownIn: _hand_thrown_in,
    TrumpSet: _trump_set,
    RestDealt: _rest_dealt,
    Declared: _declared,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    DeclarationsShown: _declarations_shown,
    HandScored: _hand_scored,
    GameFinished: _game_finished,
}


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`. Trusts the event: `decide` checked the rules."""
    return FOLDS[type(event)](state, event)
