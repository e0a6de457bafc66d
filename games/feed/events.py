"""The feed's wire form of stored events: each event as one viewer may see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games import rules, store
from games.selectors import deadline_text


@dataclass(frozen=True)
class ViewerEvents:
    """Events after a cursor as one viewer sees them; `last_seq` is where to resume."""

    events: list[dict[str, Any]]
    last_seq: int


@dataclass(frozen=True)
class EventsAfter:
    """The stored events after a cursor and the state they follow: what any viewer's
    redaction of them needs (`visible_events`), read once for all viewers."""

    before: rules.GameState
    stream: list[store.StoredEvent]


def events_after(game_id: UUID, after_seq: int, *, limit: int | None = None) -> EventsAfter:
    """Events with `seq > after_seq` (at most `limit`) and the state at `after_seq`."""
    before = store.state_at(game_id, after_seq)
    return EventsAfter(
        before=before.state, stream=store.load_events_after(game_id, after_seq, limit=limit)
    )


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
    before: rules.GameState, stream: Sequence[store.StoredEvent], seat: int | None
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


def served_event(stored: store.StoredEvent, visible: dict[str, Any]) -> dict[str, Any]:
    """The wire form of one event for one viewer (`visible` comes from rules `redact`)."""
    data = {key: value for key, value in visible.items() if key not in {"type", "v"}}
    return {
        "seq": stored.seq,
        "type": visible["type"],
        "v": visible.get("v"),
        "actor": stored.actor_kind,
        "created_at": stored.created_at.isoformat(),
        "turn_deadline": deadline_text(stored.turn_deadline),
        "data": data,
    }
