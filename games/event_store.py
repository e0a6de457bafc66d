"""A game's event stream: the only code that reads or writes `GameEvent` and `GameSnapshot`.

- `append` inserts new events at `expected_version + 1 ...` in one multi-row INSERT.
  A concurrent writer that got there first makes the unique `(game, seq)` index fail
  inside a savepoint: that is `ConcurrencyConflict`, never a duplicate or a gap. The
  same transaction updates the `Game` read model, stores a snapshot at hand
  boundaries and issues `pg_notify` (delivered only on commit).
- `load` reads the newest snapshot of this engine version plus the events after it.
- `load_events_after` / `viewer_events_after` serve the feed: events as stored
  (upcast by the rules package) or as one viewer may see them (rules `redact`).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import rules
from games.models import ActorKind, Game, GameEvent, GameSnapshot

NOTIFY_CHANNEL = "belote_game_events"
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
) -> list[StoredEvent]:
    """Append `events` after `expected_version`, or raise `ConcurrencyConflict`.

    `state_after` is the state with the events applied: it feeds the read model and
    the snapshot. Call inside the command's transaction; side effects belong in
    `transaction.on_commit` of the caller.
    """
    if not events:
        return []
    now = timezone.now()
    rows = [
        _row(game, seq, event, actor, now)
        for seq, event in enumerate(events, start=expected_version + 1)
    ]
    new_version = rows[-1].seq
    with transaction.atomic():
        try:
            with transaction.atomic():
                GameEvent.objects.bulk_create(rows)
        except IntegrityError as exc:
            raise ConcurrencyConflict(game.id, expected_version) from exc
        # Guards against a gap too: a caller whose expected_version is ahead of the
        # stream matches no row here.
        fields = _read_model(state_after, new_version)
        if not Game.objects.filter(pk=game.pk, version=expected_version).update(
            **fields, updated_at=now
        ):
            raise ConcurrencyConflict(game.id, expected_version)
        for name, value in fields.items():
            setattr(game, name, value)
        if any(row.type in HAND_BOUNDARIES for row in rows):
            _store_snapshot(game, new_version, state_after)
        _notify(game.id, new_version)
    return [_stored(row, event) for row, event in zip(rows, events, strict=True)]


def load(game_id: UUID) -> LoadedGame:
    """The current state: newest usable snapshot plus the events after it."""
    state, after = _latest_snapshot(game_id, up_to=None)
    tail = load_events_after(game_id, after)
    state = rules.replay([stored.event for stored in tail], state)
    return LoadedGame(state=state, version=tail[-1].seq if tail else after)


def replay_all(game_id: UUID) -> LoadedGame:
    """The state rebuilt from every event, ignoring snapshots (audits, tests)."""
    stream = load_events_after(game_id, 0)
    state = rules.replay([stored.event for stored in stream], rules.new_game())
    return LoadedGame(state=state, version=stream[-1].seq if stream else 0)


def rebuild_read_model(game_id: UUID) -> None:
    """Recompute the `Game` row's cached columns from the events alone."""
    loaded = replay_all(game_id)
    Game.objects.filter(pk=game_id).update(
        **_read_model(loaded.state, loaded.version), updated_at=timezone.now()
    )


def load_events_after(
    game_id: UUID, after_seq: int, *, limit: int | None = None
) -> list[StoredEvent]:
    """Events with `seq > after_seq` in order, upcast to the current schema."""
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after_seq).order_by("seq")
    if limit is not None:
        rows = rows[:limit]
    return [_stored(row, _event_of(row)) for row in rows]


def viewer_events_after(
    game_id: UUID, after_seq: int, *, seat: int | None, limit: int | None = None
) -> ViewerEvents:
    """Events after `after_seq` redacted for `seat` (None: a spectator).

    Events the viewer may not see at all are skipped; `last_seq` still moves past
    them so a client resumes after the last event examined.
    """
    state, base = _latest_snapshot(game_id, up_to=after_seq)
    state = rules.replay(
        [stored.event for stored in _events_between(game_id, base, after_seq)], state
    )
    stream = load_events_after(game_id, after_seq, limit=limit)
    return ViewerEvents(
        events=visible_events(state, stream, seat),
        last_seq=stream[-1].seq if stream else after_seq,
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


def _row(game: Game, seq: int, event: rules.Event, actor: Actor, now: datetime) -> GameEvent:
    stored = dict(rules.event_to_dict(event))
    event_type = stored.pop("type")
    schema_version = stored.pop("v")
    return GameEvent(
        game=game,
        seq=seq,
        type=event_type,
        schema_version=schema_version,
        payload=stored,
        actor_kind=actor.kind,
        actor_user_id=actor.user_id,
        created_at=now,
    )


def _event_of(row: GameEvent) -> rules.Event:
    return rules.event_from_dict({**row.payload, "type": row.type, "v": row.schema_version})


def _stored(row: GameEvent, event: rules.Event) -> StoredEvent:
    return StoredEvent(
        seq=row.seq, event=event, actor_kind=row.actor_kind, created_at=row.created_at
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
    for snapshot in snapshots.only("seq", "state")[:1]:
        try:
            # Only this module writes snapshots, from states it built itself.
            state = pickle.loads(bytes(snapshot.state))  # noqa: S301
        except Exception:  # a broken cache is rebuilt, never fatal
            break
        if isinstance(state, rules.GameState):
            return state, snapshot.seq
    return rules.new_game(), 0


def _store_snapshot(game: Game, seq: int, state: rules.GameState) -> None:
    GameSnapshot.objects.create(
        game=game,
        seq=seq,
        engine_version=rules.ENGINE_VERSION,
        state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
    )


def _read_model(state: rules.GameState, version: int) -> dict[str, Any]:
    public = rules.view(state, None)
    return {
        "version": version,
        "status": public["status"],
        "phase": public["phase"],
        "turn": public["turn"],
        "scores": list(public["scores"]),
        "winner": public["winner"],
    }


def _notify(game_id: UUID, version: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{game_id}:{version}"])
