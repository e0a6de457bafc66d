"""Per process, the newest state seen of recently played games: a cache under `load`.

Events are immutable and numbered without gaps, so a state at version v plus the events
after v is the current state: `event_store.load` starts from here when it can and reads
only those events (usually none or one) instead of a snapshot and the hand so far.
Only states of committed events go in (see event_store), so a rolled-back command never
leaves its state behind.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING
from uuid import UUID

if TYPE_CHECKING:
    from games.event_store import LoadedGame

# Games kept per process; a state is a few kilobytes.
CAPACITY = 1024


class RecentStates:
    """A least-recently-used map of game id -> newest known `LoadedGame`, thread-safe."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._games: OrderedDict[UUID, LoadedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: UUID) -> LoadedGame | None:
        with self._lock:
            loaded = self._games.get(game_id)
            if loaded is not None:
                self._games.move_to_end(game_id)
            return loaded

    def remember(self, game_id: UUID, loaded: LoadedGame) -> None:
        """Keep `loaded` unless a newer version of the game is already known."""
        with self._lock:
            known = self._games.get(game_id)
            if known is None or known.version <= loaded.version:
                self._games[game_id] = loaded
            self._games.move_to_end(game_id)
            while len(self._games) > self._capacity:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()
