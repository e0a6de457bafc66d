"""A hub's latest events with the state after each, each seat's wire form of them, and
the read that brings the window up to the game's version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games import rules, store
from games.feed.events import served_event
from games.feed.selectors import GameHeading, game_heading

# Events a hub keeps (about two hands); followers further behind read the store.
WINDOW_EVENTS = 128


class Window:
    """The hub's latest events (seqs `start + 1 .. end`) with the state after each, and
    each seat's wire form of them, computed when a follower of that seat first asks."""

    def __init__(self, start: int, before: rules.GameState) -> None:
        self.start = start
        self._before = before
        self._events: list[store.StoredEvent] = []
        self._states: list[rules.GameState] = []
        self._served: dict[int | None, list[dict[str, Any] | None]] = {}

    @property
    def end(self) -> int:
        return self.start + len(self._events)

    def extend(self, events: list[store.StoredEvent]) -> None:
        state = self._states[-1] if self._states else self._before
        for stored in events:
            state = rules.apply(state, stored.event)
            self._events.append(stored)
            self._states.append(state)
        dropped = len(self._events) - WINDOW_EVENTS
        if dropped > 0:
            self._before = self._states[dropped - 1]
            self.start += dropped
            del self._events[:dropped], self._states[:dropped]
            for served in self._served.values():
                del served[:dropped]

    def page(self, seat: int | None, after: int, up_to: int) -> list[dict[str, Any]]:
        """The events `after < seq <= up_to` as `seat` sees them (`start <= after`)."""
        served = self._served.setdefault(seat, [])
        wanted = up_to - self.start
        for index in range(len(served), wanted):
            stored = self._events[index]
            visible = rules.redact(stored.event, seat, self._states[index])
            served.append(None if visible is None else served_event(stored, visible))
        return [event for event in served[after - self.start : wanted] if event is not None]


@dataclass(frozen=True)
class Fetched:
    heading: GameHeading
    events: list[store.StoredEvent]
    restart: rules.GameState | None  # a new window at heading.version, from this state


def fetch(game_id: UUID, known: int | None) -> Fetched:
    """The game's heading, then the events after `known` (the window's end) up to its
    version; when too many are missing (or none are known) the state at the version."""
    heading = game_heading(game_id)
    missing = heading.version - (known if known is not None else 0)
    if known is None or missing > WINDOW_EVENTS:
        return Fetched(heading, [], store.state_at(game_id, heading.version).state)
    events = store.load_events_after(game_id, known, limit=missing) if missing > 0 else []
    return Fetched(heading, events, None)
