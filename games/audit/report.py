"""What an audit answers: valid, or the first discrepancy (seq, what, expected, found)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Discrepancy:
    """The first place the log is not what it should be.

    `what` names the check that failed (docs/audit.md, "What the verifier checks"):
    `line`, `seq`, `chain`, `receipt`, `event`, `illegal_action`, `unexpected_event`,
    `missing_event`, `seed_commitment`, `deal`, `seed_reveal`, `hand_score`, `result`,
    `bot_move`; with commit-reveal (docs/fairness.md) `game_seed`, `secret_commitment`,
    `contribution_changed`, `hand_seed`, `secret_reveal`.
    """

    seq: int
    what: str
    expected: Any
    found: Any


@dataclass(frozen=True)
class Report:
    """The verifier's verdict on one log."""

    valid: bool
    events: int
    #: the hash of the last event (the chain's head), all zeros for an empty log
    head_hash: str
    #: whether the log reaches the end of the game
    finished: bool
    hands: int
    #: the names of the checks that ran, in order
    checks: tuple[str, ...] = ()
    discrepancy: Discrepancy | None = None
    #: the final scores, once the game is over
    scores: tuple[int, int] | None = None
    winner: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as the audit endpoint and `verify --json` print it."""
        data = asdict(self)
        data["checks"] = list(self.checks)
        data["scores"] = None if self.scores is None else list(self.scores)
        return data
