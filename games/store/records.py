"""The plain values the event store hands out: who acted, stored events, loaded states."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from games import rules
from games.audit.chain import GENESIS
from games.models import ActorKind


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
    #: the deadline of the turn this event started, if it is the one that started it
    turn_deadline: datetime | None = None
    #: this event's link of the hash chain (docs/audit.md)
    hash: str = ""


@dataclass(frozen=True)
class LoadedGame:
    """A game's state after its event `version` (0: nothing happened yet) and the hash of
    that event, the head of the chain (docs/audit.md; all zeros at version 0)."""

    state: rules.GameState
    version: int
    head_hash: str = GENESIS


@dataclass(frozen=True)
class Progress:
    """The read model of a game: the rules' public summary after its event `version`."""

    version: int
    summary: rules.Summary


@dataclass(frozen=True)
class Appended:
    """What one append stored, and where it left the game."""

    events: tuple[StoredEvent, ...]
    progress: Progress
