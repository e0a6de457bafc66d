"""An option of the store: per process, the newest state seen of recently played games.

Events are immutable and numbered without gaps, so a state at version v plus the events
after v is the current state: `load` starts from here when it can and reads only the
events after it (usually none or one) instead of a snapshot and the hand so far. Only
states of committed events go in, so a rolled-back command never leaves its state
behind. `GAME_STATE_CACHE_SIZE` (settings) sets how many games a process keeps; 0 turns
the cache off.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache
from uuid import UUID

from django.conf import settings

from games.store.records import LoadedGame


class RecentStates:
    """A least-recently-used map of game id -> newest known `LoadedGame`, thread-safe."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
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
        if self.capacity <= 0:
            return
        with self._lock:
            known = self._games.get(game_id)
            if known is None or known.version <= loaded.version:
                self._games[game_id] = loaded
            self._games.move_to_end(game_id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


@cache
def recent_states() -> RecentStates:
    """This process's cache, sized by the settings when first used."""
    return RecentStates(settings.GAME_STATE_CACHE_SIZE)
