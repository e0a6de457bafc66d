"""The engine's entry points: decide, apply, replay, legal actions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.rules.belote import is_first_of_pair
from games.rules.bidding import decide_bid, legal_bids
from games.rules.cards import ids_of
from games.rules.commands import (
    PLAYS,
    Action,
    CloseTable,
    Command,
    Declare,
    LeaveSeat,
    Play,
    PlayerAction,
    ReturnSeat,
)
from games.rules.dealing import deal
from games.rules.declarations import Declaration, best_sets
from games.rules.errors import RuleError
from games.rules.events import Declared, Event, GameStarted, TableClosed
from games.rules.folds import apply
from games.rules.play import decide_play
from games.rules.presence import decide_presence, timed_out
from games.rules.shuffle import first_dealer
from games.rules.state import BIDDING_1, BIDDING_2, FINISHED, PLAYING, WAITING, GameState
from games.rules.wire import action_to_dict


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events a command produces, with every outcome it implies.

    Raises `RuleError` (with a stable `code`) when the command breaks a rule.
    """
    if isinstance(command, PlayerAction):
        move = _decide_action(
            state, command.seat, command.action, command.next_hand_seed, command.next_hand_secret
        )
        return timed_out(state, command.seat, move) if command.timed_out else move
    if isinstance(command, LeaveSeat | ReturnSeat):
        return decide_presence(state, command)
    if state.phase != WAITING:
        raise RuleError("game_already_started", "the game has already started")
    if isinstance(command, CloseTable):
        return (TableClosed(command.reason),)
    dealer = first_dealer(command.game_seed)
    started = GameStarted(
        command.options,
        dealer,
        command.game_seed.hex(),
        command.secret_chain,
        command.client_seeds,
    )
    return started, deal(1, dealer, command.hand_seed, command.hand_secret, command.client_seeds)


def _decide_action(
    state: GameState, seat: int, action: Action, next_seed: bytes, next_secret: bytes
) -> tuple[Event, ...]:
    phase = state.phase
    if type(seat) is not int or not 0 <= seat < 4:
        raise RuleError("invalid_action", "seats are 0 to 3")
    if state.turn != seat:
        if phase == FINISHED:
            raise RuleError("game_over", "the game is over")
        if phase == WAITING:
            raise RuleError("wrong_phase", "the game has not started")
        raise RuleError("not_your_turn", "it is not your turn")
    if phase == PLAYING:
        if isinstance(action, Play):
            return decide_play(
                state, seat, action.card, action.belote, next_seed, next_secret=next_secret
            )
        if isinstance(action, Declare):
            return (_decide_declare(state, seat, action),)
        raise RuleError("wrong_phase", "the bidding is over: play a card")
    return decide_bid(state, seat, action, next_seed, next_secret)


def _decide_declare(state: GameState, seat: int, action: Declare) -> Declared:
    if not state.options.declarations:
        raise RuleError("invalid_declaration", "declarations are not played at this table")
    if state.hands[seat].bit_count() < 8:
        raise RuleError("declaration_too_late", "declarations go with your first card")
    if state.declared[seat]:
        raise RuleError("invalid_declaration", "you have already declared")
    announced = tuple(sorted(action.declarations, key=lambda d: d.cards))
    if announced not in declaration_offers(state, seat):
        raise RuleError(
            "invalid_declaration",
            "announce one of the best sets of declarations your hand holds",
        )
    return Declared(seat, announced)


def declaration_offers(state: GameState, seat: int) -> tuple[tuple[Declaration, ...], ...]:
    """The sets of declarations `seat` may announce with its first card: the best
    its 8-card hand holds (none at a table that plays no declarations)."""
    return best_sets(state.hands[seat]) if state.options.declarations else ()


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold `apply` over events, from `state` (a snapshot) or the empty game."""
    current = GameState() if state is None else state
    for event in events:
        current = apply(current, event)
    return current


def legal_moves(state: GameState, seat: int) -> list[Action]:
    """Every typed action `seat` may take now (empty when it is not its turn)."""
    if state.turn != seat or seat < 0:
        return []
    phase = state.phase
    if phase == PLAYING:
        return [*_declarations_open(state, seat), *_plays(state, seat)]
    if phase in (BIDDING_1, BIDDING_2):
        return legal_bids(state)
    return []


def _declarations_open(state: GameState, seat: int) -> list[Declare]:
    if state.hands[seat].bit_count() == 8 and not state.declared[seat]:
        return [Declare(offer) for offer in declaration_offers(state, seat)]
    return []


def _plays(state: GameState, seat: int) -> list[Play]:
    cards = ids_of(state.legal)
    if state.options.auto_belote:
        return [PLAYS[card] for card in cards]
    moves: list[Play] = []
    for card in cards:
        if is_first_of_pair(state, seat, card):
            moves.extend((Play(card, True), Play(card, False)))
        else:
            moves.append(PLAYS[card])
    return moves


def legal_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    """Every action `seat` may take now, as JSON-ready dicts that `parse_action`
    accepts; empty when it is not the seat's turn or the game is over."""
    return [action_to_dict(move) for move in legal_moves(state, seat)]


__all__ = ["apply", "decide", "legal_actions", "legal_moves", "replay"]
