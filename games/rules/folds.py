"""`apply`: one fold per event type. Folds trust the event; they check nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
_TRICK = FIELD["trick"]
_TRICK_LEADER = FIELD["trick_leader"]
_TRICKS = FIELD["tricks"]
_TRICK_POINTS = FIELD["trick_points"]
_TRICKS_WON = FIELD["tricks_won"]
_BELOTE_CALLS = FIELD["belote_calls"]
_WIN_INDEX = FIELD["win_index"]
_WIN_CARD = FIELD["win_card"]
_LEGAL = FIELD["legal"]


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
    full = [held | extra for held, extra in zip(state.hands, event.cards, strict=True)]
    full[state.taker] |= 1 << state.turned_card
    hands = (full[0], full[1], full[2], full[3])
    offers = (
        tuple(best_sets(hand) for hand in hands) if state.options.declarations else ((), (), (), ())
    )
    leader = (state.dealer + 1) % 4
    return evolve(
        state,
        phase=PLAYING,
        hands=hands,
        stock=(),
        turn=leader,
        trick_leader=leader,
        belote_holder=belote_holder(hands, state.trump),
        offers=offers,
        legal=hands[leader],
    )


def _declared(state: GameState, event: Declared) -> GameState:
    declared = list(state.declared)
    declared[event.seat] = event.declarations
    return evolve(state, declared=tuple(declared))


def _card_played(state: GameState, event: CardPlayed) -> GameState:
    # the hottest fold: unpacking and starred builds instead of attribute reads and calls
    seat, card, belote = event
    values = [*state]
    hands = [*state.hands]
    hands[seat] ^= 1 << card  # the card is in the hand: decide checked it
    values[_HANDS] = (hands[0], hands[1], hands[2], hands[3])
    trick = state.trick
    trump = state.trump
    if not trick:
        win_index = 0
        win_card = values[_WIN_CARD] = card
        values[_WIN_INDEX] = 0
    else:
        keys = WIN_KEYS[4 * trump + (trick[0] & 3)]
        win_card = state.win_card
        if keys[card] > keys[win_card]:
            win_index = values[_WIN_INDEX] = len(trick)
            win_card = values[_WIN_CARD] = card
        else:
            win_index = state.win_index
    trick = values[_TRICK] = (*trick, card)
    following = values[_TURN] = (seat + 1) & 3
    if belote is not None:
        values[_BELOTE_CALLS] = (*state.belote_calls, (seat, belote))
    # the next seat's legal cards; none once the trick is full (trick_won comes next)
    values[_LEGAL] = (
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
    return _new_tuple(GameState, values)  # `rebuild` without its call


def _trick_won(state: GameState, event: TrickWon) -> GameState:
    values = list(state)
    team = event.winner % 2
    points = list(state.trick_points)
    points[team] += event.points
    won = list(state.tricks_won)
    won[team] += 1
    values[_TRICK_POINTS] = (points[0], points[1])
    values[_TRICKS_WON] = (won[0], won[1])
    values[_TRICKS] = (*state.tricks, event)
    values[_TRICK] = ()
    values[_WIN_INDEX] = values[_WIN_CARD] = -1
    values[_TRICK_LEADER] = event.winner
    if event.trick < 8:
        values[_TURN] = event.winner
        values[_LEGAL] = state.hands[event.winner]
    else:
        values[_TURN] = NO_SEAT
        values[_LEGAL] = 0
    return rebuild(values)


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
    return evolve(state, phase=FINISHED, turn=NO_SEAT, winner=event.winner)


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
