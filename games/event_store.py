"""A game's event stream: the only code that reads or writes `GameEvent` and `GameSnapshot`.

- `append` inserts new events at `expected_version + 1 ...`, moves the `Game` read model
  on from `expected_version` (the optimistic check; on PostgreSQL that UPDATE also
  issues `pg_notify`, delivered only on commit) and stores a snapshot at hand
  boundaries, all or nothing: a lost race is `ConcurrencyConflict`, never a duplicate
  or a gap. On PostgreSQL that is one statement (`_append_in_one_statement`); elsewhere
  a transaction of a multi-row INSERT ... ON CONFLICT DO NOTHING and the guarded UPDATE
  (`_append_portably`).
- `load` reads the newest snapshot of this engine version plus the events after it, in
  one statement.
- The hot statements are written once in SQL (belote_project/rows.py converts values as
  the ORM would): compiling ORM queries per request cost more CPU than running them.
- `load_events_after` / `viewer_events_after` serve the feed: events as stored
  (upcast by the rules package) or as one viewer may see them (rules `redact`).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from belote_project.rows import ModelColumns, param, table
from games import rules
from games.models import ActorKind, Game, GameEvent, GameSnapshot
from games.recent_states import RecentStates

NOTIFY_CHANNEL = "belote_game_events"
# This process's newest states of the games it served (games/recent_states.py).
RECENT = RecentStates()
# After these a hand is over: the state is worth a snapshot.
HAND_BOUNDARIES = frozenset({"hand_scored", "hand_thrown_in"})


class ConcurrencyConflict(Exception):  # noqa: N818 (a conflict is not an error of ours)
    """Another writer appended to the stream first; reload and decide again."""

    def __init__(self, game_id: UUID, expected_version: int) -> None:
        super().__init__(f"game {game_id} moved past version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


@dataclass(frozen=True)
class Actor:
    """Who caused the events: a user, a bot seat, or the service itself."""

    kind: str
    user_id: int | None = None

    @classmethod
    def user(cls, user_id: int) -> Actor:
        return cls(ActorKind.USER, user_id)

    @classmethod
    def bot(cls) -> Actor:
        return cls(ActorKind.BOT)

    @classmethod
    def system(cls) -> Actor:
        return cls(ActorKind.SYSTEM)


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    event: rules.Event
    actor_kind: str
    created_at: datetime


@dataclass(frozen=True)
class LoadedGame:
    state: rules.GameState
    version: int


@dataclass(frozen=True)
class ViewerEvents:
    """Events after a cursor as one viewer sees them; `last_seq` is where to resume."""

    events: list[dict[str, Any]]
    last_seq: int


def append(
    game: Game,
    *,
    expected_version: int,
    events: Sequence[rules.Event],
    actor: Actor,
    state_after: rules.GameState,
    view_after: Mapping[str, Any] | None = None,
) -> list[StoredEvent]:
    """Append `events` after `expected_version`, or raise `ConcurrencyConflict`.

    `state_after` is the state with the events applied: it feeds the read model and
    the snapshot. `view_after`, if the caller has one, is `rules.view` of it for any
    seat: its public fields feed the read model without building another view. Side
    effects belong in `transaction.on_commit` of the caller.
    """
    if not events:
        return []
    now = timezone.now()
    stored = [
        StoredEvent(seq=seq, event=event, actor_kind=actor.kind, created_at=now)
        for seq, event in enumerate(events, start=expected_version + 1)
    ]
    new_version = stored[-1].seq
    wire = [rules.event_to_dict(event) for event in events]
    public = rules.view(state_after, None) if view_after is None else view_after
    appending = _Appending(
        game_id=game.id,
        expected_version=expected_version,
        wire=wire,
        actor=actor,
        now=now,
        fields=_read_model(public, new_version),
        snapshot=state_after if any(item["type"] in HAND_BOUNDARIES for item in wire) else None,
    )
    if connection.vendor == "postgresql":
        _append_in_one_statement(appending)
    else:
        _append_portably(appending)
    for name, value in {**appending.fields, "updated_at": now}.items():
        setattr(game, name, value)
    after = LoadedGame(state=state_after, version=new_version)
    # Right away in autocommit; at the caller's commit inside its transaction.
    transaction.on_commit(lambda: RECENT.remember(game.id, after))
    return stored


@dataclass(frozen=True)
class _Appending:
    """What one append writes: events after a version, the read model, maybe a snapshot."""

    game_id: UUID
    expected_version: int
    wire: Sequence[dict[str, Any]]
    actor: Actor
    now: datetime
    fields: dict[str, Any]  # the read model's columns (_read_model)
    snapshot: rules.GameState | None  # the state to keep, after a hand's end

    def conflict(self) -> ConcurrencyConflict:
        return ConcurrencyConflict(self.game_id, self.expected_version)

    def event_params(self) -> list[Any]:
        """The `_INSERTED` columns of every event, row after row."""
        params: list[Any] = []
        for seq, event in enumerate(self.wire, start=self.expected_version + 1):
            payload = {key: value for key, value in event.items() if key not in {"type", "v"}}
            kind, user_id = self.actor.kind, self.actor.user_id
            values = (
                self.game_id,
                seq,
                event["type"],
                event["v"],
                payload,
                kind,
                user_id,
                self.now,
            )
            params += _INSERTED.prepared(values)
        return params

    def notification(self) -> list[Any]:
        """`pg_notify`'s parameters: the channel, and `<game id>:<new version>`."""
        return [NOTIFY_CHANNEL, f"{self.game_id}:{self.fields['version']}"]

    def read_model_params(self) -> list[Any]:
        """The `_READ_MODEL` columns, then the row's id and its expected version."""
        values = [*(self.fields[name] for name in _READ_MODEL_FIELDS[:-1]), self.now]
        return [
            *_READ_MODEL.prepared(values),
            param(Game, "id", self.game_id),
            self.expected_version,
        ]


def _append_portably(appending: _Appending) -> None:
    """The portable append: INSERT, guarded UPDATE and snapshot in one transaction."""
    # Its own transaction (a savepoint only if the caller has one open, so that a conflict
    # leaves the caller's transaction usable); ON CONFLICT needs no inner savepoint.
    with transaction.atomic():
        if not _insert_events(appending):
            raise appending.conflict()
        # Guards against a gap too: a caller whose expected_version is ahead of the
        # stream matches no row here.
        if not _move_read_model(appending):
            raise appending.conflict()
        if appending.snapshot is not None:
            _store_snapshot(appending.game_id, appending.fields["version"], appending.snapshot)


def _append_in_one_statement(appending: _Appending) -> None:
    """The same append on PostgreSQL, as one statement: one round trip instead of four
    (BEGIN, INSERT, UPDATE, COMMIT), and atomic by itself.

    The version-guarded UPDATE of the read model runs first and the INSERTs only if it
    moved the row: a writer that lost the race finds the row moved on (it waited for the
    winner's row lock) and appends nothing. A seq taken all the same (an event past the
    read model's version) fails the whole statement on the unique index: a conflict too.
    """
    params = [*appending.read_model_params(), *appending.notification()]
    params += appending.event_params()
    if appending.snapshot is not None:
        snapshot = _pickled(appending.snapshot)
        version = appending.fields["version"]
        values = (appending.game_id, version, rules.ENGINE_VERSION, snapshot, appending.now)
        params += _SNAPSHOT.prepared(values)
    sql = _append_sql(len(appending.wire), appending.snapshot is not None)
    # A savepoint only inside a caller's transaction, which a failure must not break.
    atomic = transaction.atomic() if connection.in_atomic_block else nullcontext()
    try:
        with atomic, connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
    except IntegrityError as error:
        if _UNIQUE_SEQ not in str(error):
            raise
        raise appending.conflict() from error
    except OperationalError as error:
        # A deadlock or serialization failure rolled the statement back: nothing was
        # appended and the stream may have moved, which is what a conflict tells the
        # caller (resync, decide again). Writers of this version take the game row
        # first and cannot deadlock each other; one of an older version (events first)
        # running beside them during a rolling deploy can.
        if getattr(error.__cause__, "sqlstate", None) not in _TRANSACTION_ROLLBACKS:
            raise
        raise appending.conflict() from error
    if row is None or row[0] != len(appending.wire):
        raise appending.conflict()


def load(game_id: UUID) -> LoadedGame:
    """The current state, in one query: the events after the state this process saw last,
    else the newest usable snapshot plus the events after it."""
    read = LoadRead.of(game_id)
    sql, params = read.statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return read.result(cursor.fetchall())


@dataclass(frozen=True)
class LoadRead:
    """`load` split in two, so that its statement can share a round trip with others
    (belote_project/rows.py `read_together`): the statement, then the state from its rows."""

    game_id: UUID
    known: LoadedGame | None  # the newest state this process saw, if any

    @classmethod
    def of(cls, game_id: UUID) -> LoadRead:
        game_id = UUID(str(game_id))
        return cls(game_id=game_id, known=RECENT.get(game_id))

    def statement(self) -> tuple[str, list[Any]]:
        game = param(GameEvent, "game", self.game_id)
        if self.known is None:
            return _load_sql(), [game, rules.ENGINE_VERSION, game]
        return _events_sql(_REPLAYED), [game, self.known.version]

    def result(self, rows: Sequence[Sequence[Any]]) -> LoadedGame:
        if self.known is None:
            loaded = _snapshot_and_tail(self.game_id, rows)
        else:
            loaded = _replayed(self.known, _REPLAYED.values(rows))
        # Outside a transaction every row read was committed: safe to start from next time.
        if not connection.in_atomic_block:
            RECENT.remember(self.game_id, loaded)
        return loaded


def _snapshot_and_tail(game_id: UUID, rows: Sequence[Sequence[Any]]) -> LoadedGame:
    start = LoadedGame(state=rules.new_game(), version=0)
    if rows and rows[0][0] == _SNAPSHOT_ROW:
        snapshot_state = _unpickled(rows[0][2])
        if snapshot_state is None:  # a broken cache is rebuilt, never fatal
            return replay_all(game_id)
        start = LoadedGame(state=snapshot_state, version=rows[0][1])
        rows = rows[1:]
    return _replayed(start, _REPLAYED.values(row[3:] for row in rows))


def _replayed(start: LoadedGame, tail: list[list[Any]]) -> LoadedGame:
    """`start` with the tail's (seq, type, schema_version, payload) rows applied."""
    if not tail:
        return start
    state = rules.replay([_event_of(*values[1:]) for values in tail], start.state)
    return LoadedGame(state=state, version=tail[-1][0])


def replay_all(game_id: UUID) -> LoadedGame:
    """The state rebuilt from every event, ignoring snapshots (audits, tests)."""
    stream = load_events_after(game_id, 0)
    state = rules.replay([stored.event for stored in stream], rules.new_game())
    return LoadedGame(state=state, version=stream[-1].seq if stream else 0)


def rebuild_read_model(game_id: UUID) -> None:
    """Recompute the `Game` row's cached columns from the events alone."""
    loaded = replay_all(game_id)
    Game.objects.filter(pk=game_id).update(
        **_read_model(rules.view(loaded.state, None), loaded.version), updated_at=timezone.now()
    )


def load_events_after(
    game_id: UUID, after_seq: int, *, limit: int | None = None
) -> list[StoredEvent]:
    """Events with `seq > after_seq` in order, upcast to the current schema."""
    sql = _events_sql(_EVENT) + ("" if limit is None else " LIMIT %s")
    params = [param(GameEvent, "game", game_id), after_seq]
    with connection.cursor() as cursor:
        cursor.execute(sql, params if limit is None else [*params, limit])
        rows = _EVENT.values(cursor.fetchall())
    return [
        StoredEvent(seq=seq, event=_event_of(*wire), actor_kind=actor, created_at=created)
        for seq, *wire, actor, created in rows
    ]


@dataclass(frozen=True)
class EventsAfter:
    """The stored events after a cursor and the state they follow: what any viewer's
    redaction of them needs (`visible_events`), read once for all viewers."""

    before: rules.GameState
    stream: list[StoredEvent]


def events_after(game_id: UUID, after_seq: int, *, limit: int | None = None) -> EventsAfter:
    """Events with `seq > after_seq` (at most `limit`) and the state at `after_seq`."""
    state, base = _latest_snapshot(game_id, up_to=after_seq)
    state = rules.replay(
        [stored.event for stored in _events_between(game_id, base, after_seq)], state
    )
    return EventsAfter(before=state, stream=load_events_after(game_id, after_seq, limit=limit))


def viewer_events_after(
    game_id: UUID, after_seq: int, *, seat: int | None, limit: int | None = None
) -> ViewerEvents:
    """Events after `after_seq` redacted for `seat` (None: a spectator).

    Events the viewer may not see at all are skipped; `last_seq` still moves past
    them so a client resumes after the last event examined.
    """
    read = events_after(game_id, after_seq, limit=limit)
    return ViewerEvents(
        events=visible_events(read.before, read.stream, seat),
        last_seq=read.stream[-1].seq if read.stream else after_seq,
    )


def visible_events(
    before: rules.GameState, stream: Sequence[StoredEvent], seat: int | None
) -> list[dict[str, Any]]:
    """`stream` (which follows state `before`) as `seat` may see it, in wire form."""
    served: list[dict[str, Any]] = []
    state = before
    for stored in stream:
        state = rules.apply(state, stored.event)
        visible = rules.redact(stored.event, seat, state)
        if visible is not None:
            served.append(served_event(stored, visible))
    return served


def served_event(stored: StoredEvent, visible: dict[str, Any]) -> dict[str, Any]:
    """The wire form of one event for one viewer (`visible` comes from rules `redact`)."""
    data = {key: value for key, value in visible.items() if key not in {"type", "v"}}
    return {
        "seq": stored.seq,
        "type": visible["type"],
        "v": visible.get("v"),
        "actor": stored.actor_kind,
        "created_at": stored.created_at.isoformat(),
        "data": data,
    }


# The columns of an event a replay needs, and those the feed serves too, in this order.
_REPLAYED = ModelColumns(GameEvent, ("seq", "type", "schema_version", "payload"))
_EVENT = ModelColumns(
    GameEvent, ("seq", "type", "schema_version", "payload", "actor_kind", "created_at")
)
_INSERTED = ModelColumns(
    GameEvent,
    ("game", "seq", "type", "schema_version", "payload", "actor_kind", "actor_user", "created_at"),
)


# `load` returns the snapshot (if any) and the events after it as one list of rows:
# the snapshot's row first, marked in the first column.
_SNAPSHOT_ROW, _EVENT_ROW = 0, 1


def _event_of(event_type: str, schema_version: int, payload: dict[str, Any]) -> rules.Event:
    return rules.event_from_dict({**payload, "type": event_type, "v": schema_version})


@cache
def _events_sql(columns: ModelColumns[GameEvent]) -> str:
    return (
        f"SELECT {columns.select('e')} FROM {table(GameEvent)} e "  # noqa: S608 (no input)
        "WHERE e.game_id = %s AND e.seq > %s ORDER BY e.seq"
    )


@cache
def _load_sql() -> str:
    snapshots = table(GameSnapshot)
    return (
        f"WITH snapshot AS (SELECT seq, state FROM {snapshots} "  # noqa: S608 (no input)
        "WHERE game_id = %s AND engine_version = %s ORDER BY seq DESC LIMIT 1) "
        f"SELECT {_SNAPSHOT_ROW}, seq, state, {', '.join(['NULL'] * _REPLAYED.width)} "
        f"FROM snapshot UNION ALL SELECT {_EVENT_ROW}, NULL, NULL, {_REPLAYED.select('e')} "
        f"FROM {table(GameEvent)} e WHERE e.game_id = %s "
        "AND e.seq > COALESCE((SELECT seq FROM snapshot), 0) ORDER BY 1, 2, 4"
    )


def _events_between(game_id: UUID, after_seq: int, up_to: int) -> Iterable[StoredEvent]:
    if up_to <= after_seq:
        return []
    return load_events_after(game_id, after_seq, limit=up_to - after_seq)


def _latest_snapshot(game_id: UUID, *, up_to: int | None) -> tuple[rules.GameState, int]:
    """The newest snapshot of this engine version (at or before `up_to`), else the start."""
    snapshots = GameSnapshot.objects.filter(
        game_id=game_id, engine_version=rules.ENGINE_VERSION
    ).order_by("-seq")
    if up_to is not None:
        snapshots = snapshots.filter(seq__lte=up_to)
    for seq, pickled in snapshots.values_list("seq", "state")[:1]:
        state = _unpickled(pickled)
        if state is not None:
            return state, seq
    return rules.new_game(), 0


def _unpickled(pickled: bytes | memoryview) -> rules.GameState | None:
    """A snapshot's state, or None if the cache is broken (it is rebuilt, never fatal)."""
    try:
        # Only this module writes snapshots, from states it built itself.
        state = pickle.loads(bytes(pickled))  # noqa: S301
    except Exception:
        return None
    return state if isinstance(state, rules.GameState) else None


def _pickled(state: rules.GameState) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def _store_snapshot(game_id: UUID, seq: int, state: rules.GameState) -> None:
    GameSnapshot.objects.create(
        game_id=game_id, seq=seq, engine_version=rules.ENGINE_VERSION, state=_pickled(state)
    )


# The `Game` columns `append` keeps in step: `_read_model`'s keys, then `updated_at`.
_READ_MODEL_FIELDS = ("version", "status", "phase", "turn", "scores", "winner", "updated_at")
_READ_MODEL = ModelColumns(Game, _READ_MODEL_FIELDS)


def _read_model(public: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The `Game` columns from a view of the state (their fields are the same for all seats)."""
    return {
        "version": version,
        "status": public["status"],
        "phase": public["phase"],
        "turn": public["turn"],
        "scores": list(public["scores"]),
        "winner": public["winner"],
    }


def _insert_events(appending: _Appending) -> bool:
    """INSERT the events after `expected_version`; False if any seq was taken already.

    A concurrent writer's uncommitted row makes this wait for its outcome; if it commits,
    ON CONFLICT skips the row instead of raising, so no savepoint is needed to go on.
    """
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(appending.wire)), appending.event_params())
        return len(cursor.fetchall()) == len(appending.wire)


@cache
def _insert_sql(count: int) -> str:
    columns = ", ".join(_INSERTED.quoted())
    row = "(" + ", ".join(["%s"] * _INSERTED.width) + ")"
    return (
        f"INSERT INTO {table(GameEvent)} ({columns}) VALUES {', '.join([row] * count)} "  # noqa: S608
        "ON CONFLICT (game_id, seq) DO NOTHING RETURNING seq"
    )


def _move_read_model(appending: _Appending) -> bool:
    """Move the `Game` row from `expected_version` to the new one; False if it was not there.

    On PostgreSQL the same statement queues the notification (sent only on commit).
    """
    params = appending.read_model_params()
    if connection.vendor == "postgresql":
        params += appending.notification()
    with connection.cursor() as cursor:
        cursor.execute(_move_sql(connection.vendor), params)
        return cursor.fetchone() is not None


_SNAPSHOT = ModelColumns(GameSnapshot, ("game", "seq", "engine_version", "state", "created_at"))
# The unique index a taken seq violates (games/models.py).
_UNIQUE_SEQ = "games_event_unique_seq"
#: SQLSTATEs of a statement the server rolled back to break a cycle or a race:
#: serialization_failure, deadlock_detected
_TRANSACTION_ROLLBACKS = frozenset({"40001", "40P01"})


def _read_model_assignments() -> str:
    """`col = %s, ...` for the `_READ_MODEL` columns (`read_model_params` order)."""
    return ", ".join(f"{column} = %s" for column in _READ_MODEL.quoted())


def _typed_row(columns: ModelColumns[Any]) -> str:
    """`(CAST(%s AS type), ...)`: a row of parameters typed as `columns` (for INSERT ...
    SELECT, where PostgreSQL would otherwise read an untyped NULL or string as text)."""
    return "(" + ", ".join(f"CAST(%s AS {kind})" for kind in columns.db_types()) + ")"


@cache
def _append_sql(count: int, with_snapshot: bool) -> str:
    """_append_in_one_statement's statement for `count` events; it returns how many
    events it inserted (0 when the read model was not at the expected version)."""
    rows = ", ".join([_typed_row(_INSERTED)] * count)
    snapshot = (
        f", snapshot AS (INSERT INTO {table(GameSnapshot)} ({', '.join(_SNAPSHOT.quoted())}) "  # noqa: S608
        f"SELECT * FROM (VALUES {_typed_row(_SNAPSHOT)}) AS snapshot "
        "WHERE EXISTS (SELECT FROM moved))"
    )
    return (
        f"WITH moved AS (UPDATE {table(Game)} SET {_read_model_assignments()} "  # noqa: S608
        "WHERE id = %s AND version = %s RETURNING pg_notify(%s, %s)), "
        f"appended AS (INSERT INTO {table(GameEvent)} ({', '.join(_INSERTED.quoted())}) "
        f"SELECT * FROM (VALUES {rows}) AS event WHERE EXISTS (SELECT FROM moved) "
        f"RETURNING seq){snapshot if with_snapshot else ''} SELECT count(*) FROM appended"
    )


@cache
def _move_sql(vendor: str) -> str:
    returning = "pg_notify(%s, %s)" if vendor == "postgresql" else "1"
    return (
        f"UPDATE {table(Game)} SET {_read_model_assignments()} "  # noqa: S608 (no input)
        "WHERE id = %s AND version = %s "
        f"RETURNING {returning}"
    )
