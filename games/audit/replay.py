"""Replaying a log with the rules engine: every event must be what the rules decide.

The log is cut into the groups of events one command produced (a game start, a seat's
action with all it completes, a seat leaving or coming back). For each group the
command is worked out from its first event, the rules decide it again from the state
before, and the events decided must equal the events stored, one by one. So every
action was legal when taken, every trick, declaration count, hand score and the result
follow from the cards, and every deal follows from its seed. A hand's seed comes from
the log itself (the stored `hand_dealt` keeps it); it is then checked against the
commitment published with the deal and against the seed the hand's end revealed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from games import rules
from games.audit.fairness import dealt_fairly, started_fairly
from games.audit.report import Discrepancy
from games.rules.events import (
    Bid,
    CardPlayed,
    Declared,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    HandThrownIn,
    SeatAbsent,
    SeatReturned,
    TableClosed,
    TurnTimedOut,
)
from games.rules.shuffle import deal_first_cards, shuffled_ids

#: a placeholder seed for a first decision; redone with the logged one if a hand is dealt
_NO_SEED = bytes(32)

#: told of every seat's move before it is applied: (state before, seq, seat, the move,
#: whether it was played for the seat on a timeout); raises ReplayError to stop the replay
MoveCheck = Callable[[rules.GameState, int, int, rules.Action, bool], None]


class ReplayError(Exception):
    """The log stops following the rules: carries the first discrepancy."""

    def __init__(self, discrepancy: Discrepancy) -> None:
        super().__init__(discrepancy.what)
        self.discrepancy = discrepancy


def same(a: Any, b: Any) -> bool:
    """Equal events: the same type and fields (NamedTuples alone compare as plain tuples,
    so `TrumpSet(3, 1) == TurnTimedOut(3, 1)`)."""
    return type(a) is type(b) and a == b


def _wire(event: rules.Event | None) -> Any:
    return None if event is None else rules.event_to_dict(event)


def replay_log(
    events: Sequence[rules.Event], *, check_move: MoveCheck | None = None
) -> rules.GameState:
    """The state at the end of `events` (seq 1 first), or ReplayError at the first event
    the rules would not have produced (or that `check_move` refuses)."""
    state = rules.new_game()
    at = 0
    while at < len(events):
        decided = _decided(state, events, at, check_move)
        for offset, expected in enumerate(decided):
            found = events[at + offset] if at + offset < len(events) else None
            # the commit-reveal checks first: they name what a forged deal got wrong
            unfair = _unfair(state, events, at + offset)
            if unfair is not None:
                raise ReplayError(unfair)
            if not same(found, expected):
                raise ReplayError(_named(at + offset + 1, expected, found))
            state = rules.apply(state, expected)
        at += len(decided)
    return state


def _unfair(state: rules.GameState, events: Sequence[rules.Event], at: int) -> Discrepancy | None:
    """The commit-reveal discrepancy of the stored event at `at`, if any."""
    found = events[at] if at < len(events) else None
    following = events[at + 1] if at + 1 < len(events) else None
    if isinstance(found, GameStarted) and isinstance(following, HandDealt):
        return started_fairly(found, following, at + 1)
    if isinstance(found, HandDealt):
        return dealt_fairly(state, found, at + 1)
    return None


def _decided(
    state: rules.GameState,
    events: Sequence[rules.Event],
    at: int,
    check_move: MoveCheck | None,
) -> tuple[Any, ...]:
    """What the rules decide for the command that the event at `at` starts."""
    first = events[at]
    seq = at + 1
    if isinstance(first, GameStarted):
        seed, secret = _dealt_seed(events, at + 1) or (_NO_SEED, b"")
        command: rules.Command = rules.StartGame(
            bytes.fromhex(first.game_seed),
            seed,
            first.options,
            hand_secret=secret,
            secret_chain=first.secret_chain,
            client_seeds=first.client_seeds,
        )
        return _decide(state, command, seq, first)
    if isinstance(first, SeatAbsent) and first.reason == "left":
        return _decide(state, rules.LeaveSeat(first.seat), seq, first)
    if isinstance(first, SeatReturned):
        return _decide(state, rules.ReturnSeat(first.seat), seq, first)
    if isinstance(first, TableClosed):
        return _decide(state, rules.CloseTable(first.reason), seq, first)
    if isinstance(first, Bid | CardPlayed | Declared):
        return _decided_action(state, events, at, first, check_move)
    raise ReplayError(Discrepancy(seq, "unexpected_event", "a command's first event", _wire(first)))


def _decide(
    state: rules.GameState, command: rules.Command, seq: int, first: Any
) -> tuple[Any, ...]:
    try:
        return rules.decide(state, command)
    except rules.RuleError as error:
        raise ReplayError(Discrepancy(seq, "illegal_action", error.code, _wire(first))) from error


def _decided_action(
    state: rules.GameState,
    events: Sequence[rules.Event],
    at: int,
    first: Bid | CardPlayed | Declared,
    check_move: MoveCheck | None,
) -> tuple[Any, ...]:
    """A seat's move, with the seed of the next hand from the log if it deals one."""
    seat = first.seat
    seq = at + 1
    mark = TurnTimedOut(seat, state.timeouts[seat] + 1)
    timed = at + 1 < len(events) and same(events[at + 1], mark)
    for action in _candidates(state, first):
        move = rules.PlayerAction(seat, action, _NO_SEED, timed_out=timed)
        decided = _decide(state, move, seq, first)
        if not same(decided[0], first):
            continue
        if check_move is not None:
            check_move(state, seq, seat, action, timed)
        dealt = next((i for i, e in enumerate(decided) if isinstance(e, HandDealt)), None)
        if dealt is None:
            return decided
        logged = _dealt_seed(events, at + dealt)
        if logged is None:  # the log has no deal there: the comparison names it
            return decided
        seed, secret = logged
        again = move._replace(next_hand_seed=seed, next_hand_secret=secret)
        return _decide(state, again, seq, first)
    legal = rules.legal_actions(state, seat) if state.turn == seat else []
    raise ReplayError(Discrepancy(seq, "illegal_action", legal, _wire(first)))


def _candidates(state: rules.GameState, first: Bid | CardPlayed | Declared) -> list[rules.Action]:
    """The seat's legal moves that could have produced `first` (empty: none could)."""
    if state.turn != first.seat:
        return []
    moves = rules.legal_moves(state, first.seat)
    if isinstance(first, CardPlayed):
        return [move for move in moves if isinstance(move, rules.Play) and move.card == first.card]
    if isinstance(first, Declared):
        return [move for move in moves if isinstance(move, rules.Declare)]
    return [move for move in moves if not isinstance(move, rules.Play | rules.Declare)]


def _dealt_seed(events: Sequence[rules.Event], at: int) -> tuple[bytes, bytes] | None:
    """The seed and secret the stored `hand_dealt` at `at` keeps, if that event is one."""
    dealt = events[at] if at < len(events) else None
    if isinstance(dealt, HandDealt):
        try:
            return bytes.fromhex(dealt.seed), bytes.fromhex(dealt.secret)
        except ValueError:
            return None
    return None


def _named(seq: int, expected: Any, found: Any) -> Discrepancy:
    """The discrepancy of a stored event that differs from the one decided, by its kind."""
    if found is None:
        return Discrepancy(seq, "missing_event", _wire(expected), None)
    if isinstance(found, HandDealt) and isinstance(expected, HandDealt):
        return _deal_discrepancy(seq, expected, found)
    if isinstance(expected, HandScored | HandThrownIn) and type(found) is type(expected):
        if same(expected._replace(seed=found.seed), found):
            return Discrepancy(seq, "seed_reveal", expected.seed, found.seed)
        if same(expected._replace(secret=found.secret), found):
            return Discrepancy(seq, "secret_reveal", expected.secret, found.secret)
        if isinstance(found, HandScored):
            return Discrepancy(seq, "hand_score", _wire(expected), _wire(found))
    if isinstance(expected, GameFinished):
        return Discrepancy(seq, "result", _wire(expected), _wire(found))
    return Discrepancy(seq, "event", _wire(expected), _wire(found))


def _deal_discrepancy(seq: int, expected: HandDealt, found: HandDealt) -> Discrepancy:
    try:
        seed = bytes.fromhex(found.seed)
    except ValueError:
        return Discrepancy(seq, "seed_commitment", "a hex seed", found.seed)
    commitment = hashlib.sha256(seed).hexdigest()
    if commitment != found.seed_commitment:
        return Discrepancy(seq, "seed_commitment", commitment, found.seed_commitment)
    cards, turned, stock = deal_first_cards(shuffled_ids(seed), found.dealer)
    if (cards, turned, stock) != (found.cards, found.turned_card, found.stock):
        return Discrepancy(seq, "deal", _wire(expected), _wire(found))
    return Discrepancy(seq, "event", _wire(expected), _wire(found))
