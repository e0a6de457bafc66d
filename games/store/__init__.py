"""The event store: the only code that reads or writes `GameEvent` and `GameSnapshot`.

- `stream`: append at an expected version, load the current state, read events;
- `projection`: the `Game` read model, derived from `rules.summary` of a state;
- `snapshots`: states kept at hands' ends, in a JSON encoding that runs no code;
- `cache`: the per-process cache of recent states (an option: `GAME_STATE_CACHE_SIZE`);
- `log`: the stored rows of a game's log, for its export and audits (docs/audit.md);
- `records`: the plain values all of them hand out.

See docs/storage.md.
"""

from games.store.log import stored_rows
from games.store.records import (
    Actor,
    Appended,
    ConcurrencyConflict,
    LoadedGame,
    Progress,
    StoredEvent,
)
from games.store.stream import (
    append,
    load,
    load_events_after,
    rebuild_read_model,
    replay_all,
    state_at,
)

__all__ = [
    "Actor",
    "Appended",
    "ConcurrencyConflict",
    "LoadedGame",
    "Progress",
    "StoredEvent",
    "append",
    "load",
    "load_events_after",
    "rebuild_read_model",
    "replay_all",
    "state_at",
    "stored_rows",
]
