"""A game's stream of events: append at an expected version, load the current state.

`append` is all or nothing, in one transaction: the read model moves from
`expected_version` to the new version (the optimistic check: a writer that lost the race
finds the row moved on and appends nothing), the events are inserted at
`expected_version + 1 ...`, a snapshot is kept at a hand's end, and on PostgreSQL a
notification is queued (delivered on commit) for the live feed. A lost race is
`ConcurrencyConflict`, never a duplicate or a gap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from games import rules
from games.models import Game, GameEvent
from games.store import projection, snapshots
from games.store.cache import recent_states
from games.store.records import Actor, Appended, ConcurrencyConflict, LoadedGame, StoredEvent

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
    last = expected_version + len(events)
    stored = tuple(
        StoredEvent(
            seq=seq,
            event=event,
            actor_kind=actor.kind,
            created_at=now,
            turn_deadline=turn_deadline if seq == last else None,
        )
        for seq, event in enumerate(events, start=expected_version + 1)
    )
    version = expected_version + len(stored)
    progress = projection.progress_of(state_after, version)
    if not stored:
        return Appended(events=(), progress=progress)
    after = LoadedGame(state=state_after, version=version)
    try:
        # A savepoint only inside a caller's transaction, which a conflict leaves usable.
        with transaction.atomic():
            moved = Game.objects.filter(pk=game_id, version=expected_version).update(
                **projection.columns(progress), **(read_model or {})
            )
            if not moved:  # another writer got there first (or the caller is ahead)
                raise ConcurrencyConflict(game_id, expected_version)
            rows = GameEvent.objects.bulk_create(_rows(game_id, stored, actor))
            if any(row.type in HAND_BOUNDARIES for row in rows):
                snapshots.store(game_id, after, now)
            _notify(game_id, version)
    except (IntegrityError, OperationalError) as error:
        if not _is_lost_race(error):
            raise
        raise ConcurrencyConflict(game_id, expected_version) from error
    # At once in autocommit; at the caller's commit inside its transaction.
    transaction.on_commit(lambda: recent_states().remember(game_id, after))
    return Appended(events=stored, progress=progress)


def _rows(game_id: UUID, stored: Sequence[StoredEvent], actor: Actor) -> list[GameEvent]:
    rows = []
    for item in stored:
        wire = rules.event_to_dict(item.event)
        rows.append(
            GameEvent(
                game_id=game_id,
                seq=item.seq,
                type=wire.pop("type"),
                schema_version=wire.pop("v"),
                payload=wire,
                actor_kind=actor.kind,
                actor_user_id=actor.user_id,
                created_at=item.created_at,
                turn_deadline=item.turn_deadline,
            )
        )
    return rows


def _notify(game_id: UUID, version: int) -> None:
    """Queue `<game id>:<version>` for the live feed; PostgreSQL sends it on commit."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{game_id}:{version}"])


def _is_lost_race(error: Exception) -> bool:
    """Whether the database refused the append because another writer moved the stream:
    a seq taken (the read model lagged behind the events), or a statement it rolled
    back to break a deadlock. Read from the driver's diagnostics, not the message."""
    cause = error.__cause__
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate in _ROLLED_BACK:
        return True
    diagnostics = getattr(cause, "diag", None)
    constraint = getattr(diagnostics, "constraint_name", None)
    return sqlstate == _UNIQUE_VIOLATION and constraint == UNIQUE_SEQ_CONSTRAINT


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


def load_events_after(
    game_id: UUID, after_seq: int, *, limit: int | None = None
) -> list[StoredEvent]:
    """Events with `seq > after_seq` in order, upcast to the current schema."""
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after_seq).order_by("seq")
    columns = rows.values_list(
        "seq", "type", "schema_version", "payload", "actor_kind", "created_at", "turn_deadline"
    )
    if limit is not None:
        columns = columns[:limit]
    return [
        StoredEvent(
            seq=seq,
            event=_event_of(kind, v, payload),
            actor_kind=actor,
            created_at=at,
            turn_deadline=deadline,
        )
        for seq, kind, v, payload, actor, at, deadline in columns
    ]


_START = LoadedGame(state=rules.new_game(), version=0)


def _replayed(start: LoadedGame, tail: Sequence[StoredEvent]) -> LoadedGame:
    if not tail:
        return start
    state = rules.replay([stored.event for stored in tail], start.state)
    return LoadedGame(state=state, version=tail[-1].seq)


def _event_of(event_type: str, schema_version: int, payload: dict[str, Any]) -> rules.Event:
    return rules.event_from_dict({**payload, "type": event_type, "v": schema_version})
