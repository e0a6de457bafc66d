"""Table options, fixed when a game is created (docs/rules.md, "Table options")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from games.rules.errors import InvalidOptions

TIE_RULES = ("litige", "inside")
CAPOT_POINTS = (252, 250)
#: the targets a new table may play to: a game to 10,000 is already twenty times the
#: usual one; a larger (or astronomically large) target would only make it endless
TARGET_MIN, TARGET_MAX = 1, 10_000
#: a turn's clock (seconds): long enough to read a hand on a phone, short enough that an
#: hour is the most a table ever waits on one turn
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 5, 3600
TIME_BANK_MAX = 3600
#: consecutive timeouts before a bot takes the seat
ABSENT_AFTER_MIN, ABSENT_AFTER_MAX = 1, 20


@dataclass(frozen=True, slots=True)
class Options:
    """The table options with their defaults (docs/rules.md, "Table options")."""

    target: int = 501
    declarations: bool = True
    auto_belote: bool = True
    overtrump_partner_on_trump_lead: bool = True
    tie_rule: str = "litige"
    capot_points: int = 252
    #: seconds a seat has for each turn; None: untimed (docs/clocks.md)
    turn_seconds: int | None = None
    #: each seat's reserve, spent as a turn overruns `turn_seconds`
    time_bank_seconds: int = 0
    #: consecutive timeouts after which a bot takes the seat
    absent_after: int = 2
    #: a game of one hand, a duplicate board (docs/rules.md, "Boards")
    board: bool = False

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Options:
        """Validate JSON-ready options for a new table and fill the defaults.

        Raises `InvalidOptions` naming the field for an unknown key, a wrong
        type or a value out of range (every number has bounds, see `RANGES`).
        """
        checked = {}
        for key, value in values.items():
            if key not in _TYPES:
                raise InvalidOptions(str(key), "unknown_option", f"unknown option {key!r}")
            checked[key] = _whole(key, value)
            _check(key, checked[key])
        return cls(**checked)

    @classmethod
    def from_record(cls, values: Mapping[str, Any]) -> Options:
        """The options a `game_started` event (or a view of it) recorded.

        Trusted, not validated again: they were valid when the game started, and a
        game must stay readable if a later release narrows a range.
        """
        return cls(**{key: values[key] for key in _TYPES if key in values})

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready."""
        return asdict(self)


_TYPES: dict[str, type] = {
    "target": int,
    "declarations": bool,
    "auto_belote": bool,
    "overtrump_partner_on_trump_lead": bool,
    "tie_rule": str,
    "capot_points": int,
    "turn_seconds": int,
    "time_bank_seconds": int,
    "absent_after": int,
    "board": bool,
}
#: the options that may also be null
_NULLABLE = frozenset({"turn_seconds"})
#: allowed values of the options that take one of a few
_CHOICES: dict[str, tuple[Any, ...]] = {"tie_rule": TIE_RULES, "capot_points": CAPOT_POINTS}
#: inclusive bounds of the options that take a number
RANGES: dict[str, tuple[int, int]] = {
    "target": (TARGET_MIN, TARGET_MAX),
    "turn_seconds": (TURN_SECONDS_MIN, TURN_SECONDS_MAX),
    "time_bank_seconds": (0, TIME_BANK_MAX),
    "absent_after": (ABSENT_AFTER_MIN, ABSENT_AFTER_MAX),
}


def _whole(key: str, value: Any) -> Any:
    """JSON does not tell 30 from 30.0 (JSON Schema's `integer` admits both): a number
    option given as a whole float is that integer."""
    if _TYPES[key] is int and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _check(key: str, value: Any) -> None:
    expected = _TYPES[key]
    if value is None and key in _NULLABLE:
        return
    # bool is an int subclass: `True` is not a target
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise InvalidOptions(key, "wrong_type", f"option {key!r} must be a {expected.__name__}")
    if key in _CHOICES and value not in _CHOICES[key]:
        allowed = list(_CHOICES[key])
        raise InvalidOptions(key, "out_of_range", f"option {key!r} must be one of {allowed}")
    if key in RANGES and isinstance(value, int):
        low, high = RANGES[key]
        # comparing, never printing: a 1,000-digit value costs no more than a small one
        if not low <= value <= high:
            raise InvalidOptions(
                key, "out_of_range", f"option {key!r} must be from {low} to {high}"
            )
