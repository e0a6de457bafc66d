"""A player's own feed: the notices an append gives the game's players (docs/feed.md).

Every append that asks something of a player or tells them something about their seat
writes their notices in the same transaction: "your turn" (with the deadline), the game
started, their seat handed to a bot, the game over, the table closed. Each user's
notices are numbered 1, 2, 3... with no gap: the seq is taken from the user's
`NoticeCounter` row by an `INSERT ... ON CONFLICT DO UPDATE`, which keeps that row
locked until the transaction ends, so seq n + 1 is only handed out once n is committed
or rolled back (a rolled-back one is taken again). A reader that sees n + 1 therefore
sees n, and "after n" is a cursor that never skips an item. The users are locked in
ascending id order, so two appends to games with the same players never deadlock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import connection

from games import rules, selectors
from games.models import GameStatus, NoticeType, PlayerNotice
from games.rules.events import GameFinished, GameStarted, SeatAbsent, SeatReturned, TableClosed
from games.store.stream import NOTIFY_CHANNEL

#: the prefix of a user's key on the feed's notification channel: `player-<id>:<seq>`
PLAYER_KEY_PREFIX = "player-"


@dataclass(frozen=True)
class NoticeDraft:
    """A notice before its seq is known."""

    user_id: int
    type: NoticeType
    seat: int
    turn_deadline: datetime | None = None
    reason: str = ""


#: the events every player of the game is told of
_TO_EVERY_PLAYER: dict[type, NoticeType] = {
    GameStarted: NoticeType.GAME_STARTED,
    GameFinished: NoticeType.GAME_FINISHED,
    TableClosed: NoticeType.TABLE_CLOSED,
}


def notices_of_append(
    seats: Sequence[selectors.SeatRow],
    events: Sequence[rules.Event],
    state_after: rules.GameState,
    *,
    turn_deadline: datetime | None,
    starts_turn: bool,
) -> list[NoticeDraft]:
    """The notices `events` give the players seated at `seats`.

    `starts_turn`: the append is a move (the start of the game, a move, a timeout), so the
    seat to play next has a new turn; any other append (a seat left or came back) starts
    no turn, except for the seat that came back on its own turn.
    """
    players = {row.seat: row.user_id for row in seats if row.user_id is not None}
    drafts: list[NoticeDraft] = []
    for event in events:
        kind = _TO_EVERY_PLAYER.get(type(event))
        if kind is not None:
            reason = event.reason if isinstance(event, TableClosed) else ""
            drafts += [
                NoticeDraft(user, kind, seat, reason=reason)
                for seat, user in sorted(players.items())
            ]
        elif isinstance(event, SeatAbsent) and event.seat in players:
            user = players[event.seat]
            drafts.append(
                NoticeDraft(user, NoticeType.SEAT_ABSENT, event.seat, reason=event.reason)
            )
    progress = rules.summary(state_after)
    turn = progress.turn
    returned = any(isinstance(event, SeatReturned) and event.seat == turn for event in events)
    if (
        (starts_turn or returned)
        and progress.status == GameStatus.PLAYING
        and turn is not None
        and turn in players
        and not state_after.absent[turn]
    ):
        drafts.append(NoticeDraft(players[turn], NoticeType.YOUR_TURN, turn, turn_deadline))
    return drafts


def notices_append(
    game_id: UUID, drafts: Sequence[NoticeDraft], *, version: int, now: datetime
) -> None:
    """Store `drafts` for the game at `version`, each user's after their last seq, and
    wake their feeds on commit. Runs inside the append's transaction."""
    if not drafts:
        return
    seqs, last_seqs = _numbered([draft.user_id for draft in drafts])
    rows = [
        PlayerNotice(
            user_id=draft.user_id,
            seq=seq,
            type=draft.type,
            game_id=game_id,
            version=version,
            seat=draft.seat,
            turn_deadline=draft.turn_deadline,
            reason=draft.reason,
            created_at=now,
        )
        for draft, seq in zip(drafts, seqs, strict=True)
    ]
    PlayerNotice.objects.bulk_create(rows)
    _notify_players(last_seqs)


@dataclass(frozen=True)
class AppNotice:
    """A notice another app gives a player (games know nothing of that app): its `type`
    (its own, not one of `NoticeType`'s) and its members as the API sends them."""

    user_id: int
    type: str
    data: dict[str, Any]


def app_notices_write(notices: Sequence[AppNotice], *, now: datetime) -> None:
    """Store `notices`, each user's after their last seq (gapless, as a game's) in the
    caller's transaction, and wake those users' feeds on commit. The seam for another
    app: its notices exist exactly when the change its transaction commits does."""
    if not notices:
        return
    seqs, last_seqs = _numbered([notice.user_id for notice in notices])
    PlayerNotice.objects.bulk_create(
        PlayerNotice(
            user_id=notice.user_id, seq=seq, type=notice.type, data=notice.data, created_at=now
        )
        for notice, seq in zip(notices, seqs, strict=True)
    )
    _notify_players(last_seqs)


def notice_counters_lock(user_ids: Iterable[int]) -> None:
    """Lock these users' notice counters until the transaction ends, in one statement and
    ascending id order, creating the missing ones.

    Each append takes its players' counters in that order in one statement, so appends
    cannot deadlock one another. A transaction that numbers notices over several
    statements, such as another app opening many games at once (a tournament's round: a
    game per table, then its own notices), could: holding one table's players it would
    wait for the next table's, which an append may hold while it waits for the first.
    Taking every counter first, in the same order as everyone, rules that out."""
    _seqs_taken(Counter(dict.fromkeys(user_ids, 0)))


def feed_wake(key: str, seq: int) -> None:
    """On commit, wake whoever follows another app's numbered list under `key` (a
    tournament's progress): `<key>:<seq>` on the game feed's channel. `key` must not look
    like a game's id nor a player's key (`PLAYER_KEY_PREFIX`)."""
    _notify([f"{key}:{seq}"])


def _numbered(users: Sequence[int]) -> tuple[list[int], dict[int, tuple[int, int]]]:
    """A seq for each of `users` (a user once per notice they get, in order): each
    user's notices take theirs in order, up to the last one taken; and `_seqs_taken`."""
    last_seqs = _seqs_taken(Counter(users))
    seqs = {
        user: iter(range(last - count + 1, last + 1)) for user, (last, count) in last_seqs.items()
    }
    return [next(seqs[user]) for user in users], last_seqs


# One statement for every user of the append, in ascending id order (the lock order).
# Plain SQL: the ORM has no upsert that returns the row it updated.
_TAKE_SEQS = """
INSERT INTO games_noticecounter (user_id, last_seq) VALUES {values}
ON CONFLICT (user_id) DO UPDATE SET last_seq = games_noticecounter.last_seq + excluded.last_seq
RETURNING user_id, last_seq
"""


def _seqs_taken(counts: Counter[int]) -> dict[int, tuple[int, int]]:
    """Take `counts[user]` seqs for each user: user -> (their last seq now, how many)."""
    users = sorted(counts)
    if not users:
        return {}
    values = ", ".join(["(%s, %s)"] * len(users))
    params = [value for user in users for value in (user, counts[user])]
    with connection.cursor() as cursor:
        cursor.execute(_TAKE_SEQS.format(values=values), params)
        taken = cursor.fetchall()
    return {user: (last, counts[user]) for user, last in taken}


def _notify_players(last_seqs: dict[int, tuple[int, int]]) -> None:
    """Queue `player-<user>:<seq>` for each user's waiting feeds."""
    _notify([f"{PLAYER_KEY_PREFIX}{user}:{last}" for user, (last, _) in sorted(last_seqs.items())])


def _notify(payloads: list[str]) -> None:
    """Queue `payloads` on the feed's channel; PostgreSQL sends them on commit."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload",
            [NOTIFY_CHANNEL, payloads],
        )
