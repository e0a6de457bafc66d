"""Playing: load -> decide -> append -> on_commit, for people and bots alike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import rules, selectors, store
from games.audit.seeds import bot_seed
from games.errors import (
    GameNotFoundError,
    GameNotStartedError,
    GameOverError,
    NotSeatedError,
    RuleViolationError,
    SeatAbsentError,
    VersionConflictError,
)
from games.models import GameStatus
from games.services.bot_turns import schedule_bot_turn, seats_follow_absence
from games.services.clocks import clock_after, expiry_hint
from games.services.deals import decide_move
from games.services.notices import notices_append, notices_of_append
from games.signals import game_finished


@dataclass(frozen=True)
class ActResult:
    """What one command did: the table it left, the states around it, the events."""

    table: selectors.GameTable
    seat: int | None
    before: rules.GameState
    after: store.LoadedGame
    appended: list[store.StoredEvent]
    # The acting seat's view of the game after the command (selectors.game_view).
    view: dict[str, Any]


def game_act(
    *,
    game_id: UUID,
    user: User,
    action: Mapping[str, Any],
    expected_version: int,
) -> ActResult:
    """`user` takes `action` (a wire dict, e.g. one entry of legal_actions) at a version."""
    read = selectors.table_state(game_id)
    table, loaded = read.table, read.loaded
    seat = selectors.seat_of(table, user)
    if seat is None:
        raise NotSeatedError()
    _require_playing(loaded)
    if loaded.version != expected_version:
        raise _conflict(table, seat, expected_version, loaded)
    if loaded.state.absent[seat]:
        raise SeatAbsentError()
    try:
        move = rules.parse_action(action)
        events = decide_move(loaded.state, seat, move, table.hand_secrets)
    except rules.RuleError as error:
        raise RuleViolationError(error) from error
    return commit(table, seat, loaded, events, actor=store.Actor.user(int(user.pk)))


def bot_play(*, game_id: UUID, expected_version: int) -> bool:
    """Play the bot whose turn it is at `expected_version`; False if nothing to do.

    Idempotent: a game that has moved on, or whose turn is not a bot's, is left alone.
    """
    try:
        table = selectors.game_table(game_id)
    except GameNotFoundError:
        return False
    if table.version != expected_version or table.status != GameStatus.PLAYING:
        return False
    bot = next((row for row in table.seats if row.seat == table.turn and row.bot_level), None)
    if bot is None or bot.bot_level is None:
        return False
    loaded = store.load(table.id)
    if loaded.version != expected_version:
        return False
    from games.bots import choose_action  # noqa: PLC0415 (bots are optional to the API)

    seed = bot_seed(bytes.fromhex(loaded.state.hand_seed), expected_version, bot.seat)
    wire = choose_action(rules.view(loaded.state, bot.seat), seed, bot.bot_level)
    events = decide_move(loaded.state, bot.seat, rules.parse_action(wire), table.hand_secrets)
    try:
        commit(table, bot.seat, loaded, events, actor=store.Actor.bot())
    except VersionConflictError:
        return False
    return True


def _require_playing(loaded: store.LoadedGame) -> None:
    status = rules.summary(loaded.state).status
    if status == GameStatus.WAITING:
        raise GameNotStartedError(_("The game starts when all four seats are filled."))
    if status == GameStatus.FINISHED:
        raise GameOverError()


def commit(
    table: selectors.GameTable,
    seat: int | None,
    loaded: store.LoadedGame,
    events: tuple[rules.Event, ...],
    *,
    actor: store.Actor,
    moved: bool = True,
    now: datetime | None = None,
) -> ActResult:
    """Append `events` (decided at `loaded`) with the turn clock they leave, then queue the
    bot that is to play, if any. `moved`: the events are a seat's move (see `clock_after`).
    `seat` is the one whose view the result carries (None: a spectator's)."""
    now = timezone.now() if now is None else now
    after = rules.replay(events, loaded.state)
    if table.version != loaded.version:  # the row was read before a move the state has
        table = selectors.game_table(table.id)
    clock = clock_after(table=table, state_after=after, moved=moved, now=now)
    deadline_before = table.turn_deadline
    try:
        with transaction.atomic():
            appended = store.append(
                table.id,
                expected_version=loaded.version,
                events=events,
                actor=actor,
                state_after=after,
                now=now,
                read_model=clock.columns(),
                turn_deadline=clock.deadline,
            )
            seats = seats_follow_absence(table.id, table.seats, after)
            notices = notices_of_append(
                seats, events, after, turn_deadline=clock.deadline, starts_turn=moved
            )
            notices_append(table.id, notices, version=appended.progress.version, now=now)
    except store.ConcurrencyConflict as conflict:
        raise _conflict(table, seat, loaded.version, store.load(table.id)) from conflict
    progress = appended.progress
    table = replace(
        table,
        status=progress.summary.status,
        version=progress.version,
        turn=progress.summary.turn,
        turn_deadline=clock.deadline,
        time_banks_ms=clock.banks_ms,
        seats=seats,
    )
    # After append's transaction (or inside the caller's): either way it runs after commit.
    schedule_bot_turn(table.id, progress, seats=table.seats)
    if clock.deadline != deadline_before:
        expiry_hint(table.id, progress.version, clock.deadline, now)
    if progress.summary.status == GameStatus.FINISHED:
        announce_finished(table.id)
    head = appended.events[-1].hash if appended.events else loaded.head_hash
    loaded_after = store.LoadedGame(state=after, version=progress.version, head_hash=head)
    return ActResult(
        table=table,
        seat=seat,
        before=loaded.state,
        after=loaded_after,
        appended=list(appended.events),
        view=selectors.game_view(table=table, loaded=loaded_after, seat=seat),
    )


def announce_finished(game_id: UUID) -> None:
    """Send `game_finished` once the append that ended the game is committed (robust: a
    receiver's failure is logged, never undoes the move)."""
    transaction.on_commit(
        lambda: game_finished.send_robust(sender="games", game_id=game_id), robust=True
    )


def _conflict(
    table: selectors.GameTable,
    seat: int | None,
    expected: int,
    current: store.LoadedGame,
) -> VersionConflictError:
    # the table as the winning append left it (its clock and seats), with its state
    view = selectors.game_view(table=selectors.game_table(table.id), loaded=current, seat=seat)
    return VersionConflictError(expected=expected, current=current.version, game=view)
