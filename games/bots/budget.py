"""How much work the expert may do for one decision."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """The expert's effort per decision.

    The counts fix the work, so the same view and seed always give the same
    action. `deadline` (a `time.monotonic()` instant) is only a safety cap:
    once it passes, the expert decides from the samples done so far (at least
    one), and only then may the choice depend on the machine's speed.
    """

    samples: int = 64
    bid_samples: int = 48
    exact_tricks: int = 3
    deadline: float | None = None

    def expired(self) -> bool:
        """Whether the safety deadline has passed."""
        return self.deadline is not None and time.monotonic() >= self.deadline


DEFAULT_BUDGET = Budget()
