"""`apply`: one fold per event type. Folds trust the event; they check nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, get_type_hints

from games.rules.belote import belote_holder
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
    SeatAbsent,
    SeatReturned,
    TableClosed,
    TrickWon,
    TrumpSet,
    TurnTimedOut,
)
from games.rules.state import (
    BIDDING_1,
    BIDDING_2,
    FINISHED,
    GAME_FIELDS,
    HAND_OVER,
    NO_SEAT,
    PLAYING,
    GameState,
)

T = TypeVar("T")
Fold = TypeVar("Fold", bound=Callable[..., GameState])

#: each event type's fold, found by the event's own type (no event type is subclassed).
#: A plain dict, not `functools.singledispatch`: its lookup through the MRO and a weak
#: cache cost 4% of `./scripts/bench instructions` (3,477,177 -> 3,331,419 a hand).
_FOLDS: dict[type, Callable[[Any, GameState], GameState]] = {}


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`. Trusts the event: `decide` checked the rules."""
    try:
        fold = _FOLDS[type(event)]
    except KeyError:
        raise TypeError(f"not an event: {event!r}") from None
    return fold(event, state)


def _folds(fold: Fold) -> Fold:
    """Register `fold` for the event type its `event` parameter is annotated with."""
    _FOLDS[get_type_hints(fold)["event"]] = fold
    return fold


@_folds
def _game_started(event: GameStarted, state: GameState) -> GameState:
    return state._replace(
        options=event.options,
        game_seed=event.game_seed,
        first_dealer=event.first_dealer,
        dealer=event.first_dealer,
        secret_chain=event.secret_chain,
        client_seeds=event.client_seeds,
    )


@_folds
def _hand_dealt(event: HandDealt, state: GameState) -> GameState:
    kept = {name: getattr(state, name) for name in GAME_FIELDS}
    return GameState(  # every field of the hand not named here starts from its default
        **kept,
        phase=BIDDING_1,
        dealer=event.dealer,
        hand_number=event.hand,
        hand_seed=event.seed,
        hand_secret=event.secret,
        seed_commitment=event.seed_commitment,
        hands=event.cards,
        turned_card=event.turned_card,
        stock=event.stock,
        turn=(event.dealer + 1) % 4,
    )


def _seat_set(values: tuple[T, T, T, T], seat: int, value: T) -> tuple[T, T, T, T]:
    """`values` (one per seat) with `seat`'s replaced by `value`."""
    listed = list(values)
    listed[seat] = value
    return (listed[0], listed[1], listed[2], listed[3])


def _played_itself(state: GameState, seat: int) -> GameState:
    """A seat's own move clears its timeouts (a timeout's mark, folded next, sets them).

    A bot's move for an absent seat is not the seat playing itself: its count stays the
    one that handed it to the bot, until its player returns (`seat_returned` clears it).
    """
    if not state.timeouts[seat] or state.absent[seat]:
        return state
    return state._replace(timeouts=_seat_set(state.timeouts, seat, 0))


@_folds
def _bid(event: Bid, state: GameState) -> GameState:
    state = _played_itself(state, event.seat)
    phase = state.phase
    if event.bid == "pass" and event.seat == state.dealer:
        phase = BIDDING_2  # the dealer's pass ends round 1 (round 2 ends in a throw-in)
    return state._replace(
        bids=(*state.bids, (event.seat, event.round, event.bid)),
        turn=(event.seat + 1) % 4,
        phase=phase,
    )


@_folds
def _hand_thrown_in(event: HandThrownIn, state: GameState) -> GameState:
    return state._replace(phase=HAND_OVER, turn=NO_SEAT)


@_folds
def _trump_set(event: TrumpSet, state: GameState) -> GameState:
    return state._replace(taker=event.taker, trump=event.trump, turn=NO_SEAT)


@_folds
def _rest_dealt(event: RestDealt, state: GameState) -> GameState:
    full = [held | extra for held, extra in zip(state.hands, event.cards, strict=True)]
    full[state.taker] |= 1 << state.turned_card  # the taker's third card
    hands = (full[0], full[1], full[2], full[3])
    leader = (state.dealer + 1) % 4
    return state._replace(
        phase=PLAYING,
        hands=hands,
        stock=(),
        trick_leader=leader,
        turn=leader,
        belote_holder=belote_holder(hands, state.trump),
    )


@_folds
def _declared(event: Declared, state: GameState) -> GameState:
    state = _played_itself(state, event.seat)
    declared = list(state.declared)
    declared[event.seat] = event.declarations
    return state._replace(declared=tuple(declared))


@_folds
def _card_played(event: CardPlayed, state: GameState) -> GameState:
    state = _played_itself(state, event.seat)
    hands = list(state.hands)
    hands[event.seat] &= ~(1 << event.card)
    calls = state.belote_calls
    if event.belote is not None:
        calls = (*calls, (event.seat, event.belote))
    return state._replace(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        trick=(*state.trick, event.card),
        turn=(event.seat + 1) % 4,
        belote_calls=calls,
    )


def _added(pair: tuple[int, int], team: int, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)


@_folds
def _trick_won(event: TrickWon, state: GameState) -> GameState:
    team = event.winner % 2
    return state._replace(
        trick_leader=event.winner,
        tricks=(*state.tricks, event),
        trick_points=_added(state.trick_points, team, event.points),
        tricks_won=_added(state.tricks_won, team, 1),
        trick=(),
        turn=event.winner if event.trick < 8 else NO_SEAT,
    )


@_folds
def _declarations_shown(event: DeclarationsShown, state: GameState) -> GameState:
    return state._replace(shown=event.declarations, shown_team=event.team)


@_folds
def _hand_scored(event: HandScored, state: GameState) -> GameState:
    return state._replace(
        phase=HAND_OVER,
        turn=NO_SEAT,
        scores=event.game_scores,
        waiting_points=event.waiting_after,
        results=(*state.results, event),
    )


@_folds
def _game_finished(event: GameFinished, state: GameState) -> GameState:
    winner = NO_SEAT if event.winner is None else event.winner
    return state._replace(phase=FINISHED, turn=NO_SEAT, winner=winner)


@_folds
def _turn_timed_out(event: TurnTimedOut, state: GameState) -> GameState:
    return state._replace(timeouts=_seat_set(state.timeouts, event.seat, event.consecutive))


@_folds
def _seat_absent(event: SeatAbsent, state: GameState) -> GameState:
    return state._replace(absent=_seat_set(state.absent, event.seat, True))


@_folds
def _seat_returned(event: SeatReturned, state: GameState) -> GameState:
    return state._replace(
        absent=_seat_set(state.absent, event.seat, False),
        timeouts=_seat_set(state.timeouts, event.seat, 0),
    )


@_folds
def _table_closed(event: TableClosed, state: GameState) -> GameState:
    # over before it began: no winner, no turn, never a deal
    return state._replace(phase=FINISHED, turn=NO_SEAT, winner=NO_SEAT)
