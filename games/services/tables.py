"""Creating a table and filling its seats; the game starts when the fourth seat fills."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import rules, selectors, store
from games.errors import (
    AlreadySeatedError,
    GameAlreadyStartedError,
    GameNotFoundError,
    InvalidTableOptionsError,
    NoHumanSeatedError,
    NotOrganiserError,
    NotSeatedError,
    SeatEmptyError,
    SeatTakenError,
    TableClosedError,
    TableFullError,
    VersionConflictError,
)
from games.models import Game, GameStatus, Seat
from games.rules import fairness
from games.services import deals
from games.services.play import commit

SEATS = range(4)
#: the version of a table closed before it started: its one event is `table_closed` (a
#: game that started has at least `game_started` and `hand_dealt`)
CLOSED_VERSION = 1


class SeatChoice(enum.Enum):
    """`seat` omitted at creation: sit the creator in the first free seat."""

    FIRST_FREE = "first_free"


@transaction.atomic
def game_create(
    *,
    user: User,
    options: Mapping[str, Any],
    seat: int | SeatChoice | None = SeatChoice.FIRST_FREE,
    client_seed: str = "",
) -> Game:
    """A new table with validated options (defaults filled); `seat=None` only watches.
    `client_seed`: the creator's contribution to every deal (docs/fairness.md)."""
    game = _table_create(user, options)
    if seat is not None:
        number = 0 if seat is SeatChoice.FIRST_FREE else seat
        Seat.objects.create(game=game, seat=number, user=user, client_seed=client_seed)
    return game


@transaction.atomic
def bot_game_create(*, user: User, options: Mapping[str, Any], levels: Sequence[str]) -> Game:
    """A game of four bots (`levels` by seat), started at once, organised by `user`.

    For internal callers only (tests, benchmarks): the API's
    tables refuse to start with no human seated (`bot_seat`), so that nobody can set
    games running that no one plays. The options are validated as for any table, so
    the target bounds such a game as well.
    """
    if len(levels) != len(SEATS):
        raise ValueError("a bot game needs one level for each of the four seats")
    game = _table_create(user, options)
    Seat.objects.bulk_create(
        Seat(game=game, seat=number, bot_level=level, client_seed=_bot_client_seed(game, number))
        for number, level in zip(SEATS, levels, strict=True)
    )
    _start_if_full(game)
    return game


@dataclass(frozen=True)
class SeatTaker:
    """Who takes a seat of a game created whole: a user (by id) or a bot of a level."""

    user_id: int | None = None
    bot_level: str | None = None


@transaction.atomic
def seated_game_create(
    *, user: User, options: Mapping[str, Any], seats: Sequence[SeatTaker]
) -> Game:
    """A game organised by `user` with its four seats given (seat 0 first), started at
    once: the tables a tournament sets up for its pairings. For internal callers only,
    like `bot_game_create`: the options are validated as for any table."""
    _check_seats(seats)
    game = _table_create(user, options)
    # Bots contribute the seed the table's commitment fixes; a player seated by a
    # tournament contributes nothing (the empty seed, docs/fairness.md).
    Seat.objects.bulk_create(
        Seat(
            game=game,
            seat=number,
            user_id=taker.user_id,
            bot_level=taker.bot_level,
            client_seed=_bot_client_seed(game, number) if taker.bot_level else "",
        )
        for number, taker in zip(SEATS, seats, strict=True)
    )
    _start_if_full(game)
    return game


@transaction.atomic
def board_game_create(
    *, user: User, options: Mapping[str, Any], seats: Sequence[SeatTaker], board_secret: str
) -> Game:
    """A duplicate board's table (docs/fairness.md, "Boards"), seated and started like
    `seated_game_create`, its one hand dealt from `board_secret`: the end of a chain of
    hand secrets that the board's owner drew and committed to. Every seat contributes
    the empty seed, so every table of the board gets the same deal; the game's log stays
    sealed until the owner releases it (`board_deals_release`)."""
    _check_seats(seats)
    chain_end = bytes.fromhex(board_secret)
    if len(chain_end) != 32:
        raise ValueError("a board secret is 32 bytes")
    committed = (board_secret, fairness.commitment(chain_end))
    game = _table_create(user, {**options, "board": True}, committed)
    Seat.objects.bulk_create(
        Seat(game=game, seat=number, user_id=taker.user_id, bot_level=taker.bot_level)
        for number, taker in zip(SEATS, seats, strict=True)
    )
    _start_if_full(game)
    return game


def board_deals_release(*, game_ids: Sequence[UUID]) -> int:
    """Publish the logs of finished boards whose deal every table has played: how many."""
    finished = Game.objects.filter(pk__in=game_ids, status=GameStatus.FINISHED, deal_sealed=True)
    return finished.update(deal_sealed=False)


def _check_seats(seats: Sequence[SeatTaker]) -> None:
    if len(seats) != len(SEATS) or any(
        (taker.user_id is None) == (taker.bot_level is None) for taker in seats
    ):
        raise ValueError("a seated game needs a user or a bot level for each of four seats")


def _table_create(
    user: User, options: Mapping[str, Any], board: tuple[str, str] | None = None
) -> Game:
    """A new table; `board`: a board's (chain end, commitment), its log sealed."""
    try:
        table_options = rules.Options.from_dict(dict(options))
    except rules.InvalidOptions as error:
        raise InvalidTableOptionsError(error) from error
    hand_secrets, secret_chain = board or deals.table_secrets()
    return Game.objects.create(
        created_by=user,
        options=table_options.to_dict(),
        scores=[0, 0],
        hand_secrets=hand_secrets,
        secret_chain=secret_chain,
        deal_sealed=board is not None,
    )


def _bot_client_seed(game: Game, seat: int) -> str:
    """A bot's contribution, fixed by the table's commitment (docs/fairness.md)."""
    return fairness.bot_client_seed(game.secret_chain, seat) if game.secret_chain else ""


@transaction.atomic
def seat_join(*, game_id: UUID, user: User, seat: int | None = None, client_seed: str = "") -> Game:
    """Sit `user` at `seat` (or the first free one), with their contribution to every
    deal (docs/fairness.md); the fourth seat starts the game."""
    game = _waiting_game_locked(game_id)
    seats = _seats(game)
    if any(row.user_id == user.pk for row in seats.values()):
        raise AlreadySeatedError()
    Seat.objects.create(game=game, seat=_free_seat(seats, seat), user=user, client_seed=client_seed)
    _start_if_full(game)
    return game


@transaction.atomic
def bot_seat(*, game_id: UUID, user: User, level: str, seat: int | None = None) -> Game:
    """Put a bot of `level` at `seat`; only the creator or a seated player may.

    The bot that would fill the table with no human at it is refused: a game of four
    bots would play itself to the end for nobody (see `bot_game_create`).
    """
    game = _waiting_game_locked(game_id)
    seats = _seats(game)
    _require_organiser(game, seats, user)
    number = _free_seat(seats, seat)
    if len(seats) == len(SEATS) - 1 and all(row.user_id is None for row in seats.values()):
        raise NoHumanSeatedError(_("This bot would fill the table with nobody playing at it."))
    Seat.objects.create(
        game=game, seat=number, bot_level=level, client_seed=_bot_client_seed(game, number)
    )
    _start_if_full(game)
    return game


@transaction.atomic
def seat_leave(*, game_id: UUID, user: User, seat: int) -> Game:
    """Free `seat` before the start: one's own seat, or a bot seat for an organiser."""
    game = _waiting_game_locked(game_id)
    seats = _seats(game)
    row = seats.get(seat)
    if row is None:
        raise SeatEmptyError(_("Seat %(seat)d is free already.") % {"seat": seat})
    if row.user_id is None:
        _require_organiser(game, seats, user)
    elif row.user_id != user.pk:
        raise NotSeatedError(_("That seat belongs to another player."))
    row.delete()
    return game


def _waiting_game_locked(game_id: UUID) -> Game:
    # A row lock on this one game serialises seat changes, so two joins can neither
    # take the same seat nor both miss that the table became full.
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFoundError()
    if game.status == GameStatus.FINISHED and game.version == CLOSED_VERSION:
        raise TableClosedError(_("Nobody filled this table in time: it was closed."))
    if game.status != GameStatus.WAITING:
        raise GameAlreadyStartedError(_("Seats change only before the game starts."))
    return game


def _seats(game: Game) -> dict[int, Seat]:
    return {row.seat: row for row in Seat.objects.filter(game=game)}


def _free_seat(seats: Mapping[int, Seat], wanted: int | None) -> int:
    if wanted is None:
        free = [number for number in SEATS if number not in seats]
        if not free:
            raise TableFullError()
        return free[0]
    if wanted in seats:
        raise SeatTakenError(_("Seat %(seat)d is taken.") % {"seat": wanted})
    return wanted


def _require_organiser(game: Game, seats: Mapping[int, Seat], user: User) -> None:
    if game.created_by_id == user.pk:
        return
    if not any(row.user_id == user.pk for row in seats.values()):
        raise NotOrganiserError()


def _start_if_full(game: Game) -> None:
    seats = list(Seat.objects.filter(game=game))
    if len(seats) < len(SEATS):
        return
    try:
        # again: a table created before the options' bounds were narrowed cannot start
        options = rules.Options.from_dict(game.options)
    except rules.InvalidOptions as error:
        raise InvalidTableOptionsError(error) from error
    state = rules.new_game()
    by_seat = {row.seat: row.client_seed for row in seats}
    client_seeds = (by_seat[0], by_seat[1], by_seat[2], by_seat[3])
    command = deals.start_command(game.hand_secrets, game.secret_chain, client_seeds, options)
    events = rules.decide(state, command)
    start = store.LoadedGame(state=state, version=0)
    try:
        # the same path as every move: clock, notices, the first bot's turn
        commit(selectors.game_table(game.id), 0, start, events, actor=store.Actor.system())
    except VersionConflictError as conflict:
        raise GameAlreadyStartedError() from conflict
