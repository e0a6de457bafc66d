"""A game's stream of events: append at an expected version, load the current state.

`append` is all or nothing, in one transaction: the read model moves from
`expected_version` to the new version (the optimistic check: a writer that lost the race
finds the row moved on and appends nothing), the events are inserted at
`expected_version + 1 ...`, a snapshot is kept at a hand's end, and on PostgreSQL a
notification is queued (delivered on commit) for the live feed. A lost race is
`ConcurrencyConflict`, never a duplicate or a gap.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from games import rules
from games.audit import chain
from games.audit.chain import GENESIS
from games.models import Game, GameEvent
from games.store import projection, snapshots
from games.store.cache import recent_states
from games.store.records import Actor, Appended, ConcurrencyConflict, LoadedGame, StoredEvent
from games.store.sql import datetime_column, json_column, uuid_param

NOTIFY_CHANNEL = "belote_game_events"
# After these a hand is over: the state is worth a snapshot.
HAND_BOUNDARIES = frozenset({"hand_scored", "hand_thrown_in"})
# The unique index a taken seq violates (games/models.py).
UNIQUE_SEQ_CONSTRAINT = "games_event_unique_seq"
#: SQLSTATEs of a statement the server rolled back to break a cycle or a race
#: (serialization_failure, deadlock_detected): nothing was appended, the stream moved.
_ROLLED_BACK = frozenset({"40001", "40P01"})
_UNIQUE_VIOLATION = "23505"


def append(
    game_id: UUID,
    *,
    expected_version: int,
    events: Sequence[rules.Event],
    actor: Actor,
    state_after: rules.GameState,
    now: datetime | None = None,
    read_model: Mapping[str, Any] | None = None,
    turn_deadline: datetime | None = None,
) -> Appended:
    """Append `events` after `expected_version`, or raise `ConcurrencyConflict`.

    `state_after` is the state with the events applied: it feeds the read model and the
    snapshot. `now` stamps the events (default: the current time); `read_model` holds
    `Game` columns the caller derives beside the rules' summary (the turn clock), written
    by the same conditional update; `turn_deadline` is stamped on the last event, the one
    that starts the turn it times. Side effects belong in `transaction.on_commit` of the
    caller.
    """
    now = timezone.now() if now is None else now
    version = expected_version + len(events)
    progress = projection.progress_of(state_after, version)
    if not events:
        return Appended(events=(), progress=progress)
    try:
        # A savepoint only inside a caller's transaction, which a conflict leaves usable.
        with transaction.atomic():
            moved = Game.objects.filter(pk=game_id, version=expected_version).update(
                **projection.columns(progress), **(read_model or {})
            )
            if not moved:  # another writer got there first (or the caller is ahead)
                raise ConcurrencyConflict(game_id, expected_version)
            # The row is locked now: the head cannot move under us.
            rows = _chained(
                game_id, events, expected_version, actor=actor, now=now, deadline=turn_deadline
            )
            _insert(game_id, rows, expected_version)
            if HAND_BOUNDARIES & {row.type for row in rows}:
                snapshots.store(game_id, LoadedGame(state_after, version), now)
            _notify(game_id, version)
    except OperationalError as error:
        if _sqlstate(error) not in _ROLLED_BACK:
            raise
        raise ConcurrencyConflict(game_id, expected_version) from error
    stored = tuple(
        StoredEvent(
            seq=row.seq,
            event=event,
            actor_kind=actor.kind,
            created_at=now,
            turn_deadline=row.turn_deadline,
            hash=row.hash,
        )
        for row, event in zip(rows, events, strict=True)
    )
    after = LoadedGame(state=state_after, version=version, head_hash=stored[-1].hash)
    # At once in autocommit; at the caller's commit inside its transaction.
    transaction.on_commit(lambda: recent_states().remember(game_id, after))
    return Appended(events=stored, progress=progress)


_HEAD_AT = "SELECT hash FROM games_gameevent WHERE game_id = %s AND seq = %s"


def _chained(
    game_id: UUID,
    events: Sequence[rules.Event],
    expected_version: int,
    *,
    actor: Actor,
    now: datetime,
    deadline: datetime | None,
) -> list[GameEvent]:
    """The rows of `events`, each with its link of the hash chain: the one place a hash
    is computed. The previous link is read back from the stored event at
    `expected_version`, so the chain follows what is stored, not what a caller holds."""
    previous = GENESIS
    if expected_version:
        with connection.cursor() as cursor:
            cursor.execute(_HEAD_AT, [uuid_param(game_id), expected_version])
            found = cursor.fetchone()
        if found is None:  # the read model is ahead of the events: a lost race
            raise ConcurrencyConflict(game_id, expected_version)
        previous = found[0]
    last = expected_version + len(events)
    rows = []
    for seq, event in enumerate(events, start=expected_version + 1):
        wire = rules.event_to_dict(event)
        kind, schema_version = wire.pop("type"), wire.pop("v")
        previous = chain.link(previous, seq, kind, schema_version, wire)
        rows.append(
            GameEvent(
                game_id=game_id,
                seq=seq,
                type=kind,
                schema_version=schema_version,
                payload=wire,
                actor_kind=actor.kind,
                actor_user_id=actor.user_id,
                created_at=now,
                turn_deadline=deadline if seq == last else None,
                hash=previous,
            )
        )
    return rows


def _insert(game_id: UUID, rows: Sequence[GameEvent], expected_version: int) -> None:
    """INSERT the rows. A seq already taken (the read model lagged behind the events) is
    a lost race: `ConcurrencyConflict`.

    The ORM's, not plain SQL like the reads: as SQL, the guarded UPDATE and this INSERT
    saved 0.5-1.2 ms of CPU per action (timed in one process against these ORM calls,
    alternately), 4-9% of an action through the whole stack (13.7 ms there): under the
    10% that pays for leaving the ORM (docs/deploy.md)."""
    try:
        GameEvent.objects.bulk_create(rows)
    except IntegrityError as error:
        if not _seq_taken(error):
            raise
        raise ConcurrencyConflict(game_id, expected_version) from error


def _notify(game_id: UUID, version: int) -> None:
    """Queue `<game id>:<version>` for the live feed; PostgreSQL sends it on commit."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{game_id}:{version}"])


def _sqlstate(error: Exception) -> str | None:
    """The SQLSTATE psycopg read from the server's answer (None on SQLite)."""
    return getattr(error.__cause__, "sqlstate", None)


def _seq_taken(error: IntegrityError) -> bool:
    """Whether the events INSERT broke the unique (game, seq) index, by the driver's
    diagnostics, not the message: psycopg's SQLSTATE and constraint name; SQLite's
    extended result code, which names no constraint but can only be that index here
    (the events' id is SQLite's rowid, a primary key violation has a code of its own)."""
    cause = error.__cause__
    if isinstance(cause, sqlite3.IntegrityError):
        return cause.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_UNIQUE
    constraint = getattr(getattr(cause, "diag", None), "constraint_name", None)
    return _sqlstate(error) == _UNIQUE_VIOLATION and constraint == UNIQUE_SEQ_CONSTRAINT


def load(game_id: UUID) -> LoadedGame:
    """The current state: the newest state this process saw (else the newest snapshot, else
    the start) with the events after it applied."""
    game_id = UUID(str(game_id))
    start = recent_states().get(game_id) or snapshots.latest(game_id) or _START
    loaded = _replayed(start, load_events_after(game_id, start.version))
    # Outside a transaction every row read was committed: safe to start from next time.
    if not connection.in_atomic_block:
        recent_states().remember(game_id, loaded)
    return loaded


def state_at(game_id: UUID, seq: int) -> LoadedGame:
    """The state after event `seq` (the newest snapshot at or before it, then the rest)."""
    start = snapshots.latest(game_id, up_to=seq) or _START
    between = load_events_after(game_id, start.version, limit=seq - start.version)
    return _replayed(start, between)


def replay_all(game_id: UUID) -> LoadedGame:
    """The state rebuilt from every event, ignoring snapshots and caches (audits, tests)."""
    return _replayed(_START, load_events_after(game_id, 0))


def rebuild_read_model(game_id: UUID) -> Appended:
    """Recompute the `Game` row's cached columns from the events alone."""
    loaded = replay_all(game_id)
    progress = projection.progress_of(loaded.state, loaded.version)
    Game.objects.filter(pk=game_id).update(**projection.columns(progress))
    return Appended(events=(), progress=progress)


# Plain SQL, not the ORM: this read runs on every view and action, and compiling the
# queryset cost more CPU than running it (games/store/sql.py, docs/deploy.md).
_EVENTS_AFTER = """
SELECT seq, type, schema_version, payload, actor_kind, created_at, turn_deadline, hash
FROM games_gameevent
WHERE game_id = %s AND seq > %s
ORDER BY seq
"""


def load_events_after(
    game_id: UUID, after_seq: int, *, limit: int | None = None
) -> list[StoredEvent]:
    """Events with `seq > after_seq` in order, upcast to the current schema."""
    query, params = _EVENTS_AFTER, [uuid_param(game_id), after_seq]
    if limit is not None:
        query, params = f"{query} LIMIT %s", [*params, limit]
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        rows = cursor.fetchall()
    return [
        StoredEvent(
            seq=seq,
            event=_event_of(kind, v, json_column(payload)),
            actor_kind=actor,
            created_at=datetime_column(at),
            turn_deadline=None if deadline is None else datetime_column(deadline),
            hash=link,
        )
        for seq, kind, v, payload, actor, at, deadline, link in rows
    ]


_START = LoadedGame(state=rules.new_game(), version=0)


def _replayed(start: LoadedGame, tail: Sequence[StoredEvent]) -> LoadedGame:
    if not tail:
        return start
    state = rules.replay([stored.event for stored in tail], start.state)
    return LoadedGame(state=state, version=tail[-1].seq, head_hash=tail[-1].hash)


def _event_of(event_type: str, schema_version: int, payload: dict[str, Any]) -> rules.Event:
    return rules.event_from_dict({**payload, "type": event_type, "v": schema_version})
