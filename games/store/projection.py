"""The read model: the `Game` row's cached columns, derived from the rules' summary of a state.

They are a cache of the events (listing tables, finding bot turns, the feed's cheap
"anything new?" check) and can be rebuilt from the events at any time.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import rules
from games.store.records import Progress


def progress_of(state: rules.GameState, version: int) -> Progress:
    """The read model of a game whose state after event `version` is `state`."""
    return Progress(version=version, summary=rules.summary(state))


def columns(progress: Progress) -> dict[str, Any]:
    """The `Game` columns of `progress`, as `QuerySet.update` takes them."""
    return {
        "version": progress.version,
        "status": progress.summary.status,
        "phase": progress.summary.phase,
        "turn": progress.summary.turn,
        "scores": list(progress.summary.scores),
        "winner": progress.summary.winner,
        "updated_at": timezone.now(),
    }
