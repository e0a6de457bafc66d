"""Rule violations as typed values with stable codes."""

from __future__ import annotations

#: every code `RuleError.code` can take (stable: clients switch on them)
ERROR_CODES = frozenset(
    {
        "not_your_turn",
        "wrong_phase",
        "game_over",
        "invalid_action",
        "card_not_in_hand",
        "must_follow_suit",
        "must_trump",
        "must_overtrump",
        "must_undertrump",
        "suit_refused_in_round_2",
        "invalid_declaration",
        "declaration_too_late",
        "belote_choice_required",
        "belote_not_allowed",
        "game_already_started",
        "invalid_options",
        "seat_absent",
        "seat_present",
    }
)


class RuleError(Exception):
    """A command that breaks a rule: `code` is stable, `message` is for humans.

    The message may speak of the acting seat's own hand but never of another
    seat's hidden cards.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


class InvalidOptions(RuleError):  # noqa: N818 (the contract's name)
    """Table options that cannot be used: `field` names the option at fault.

    `code` is `invalid_options`; `reason` says why: `unknown_option`,
    `wrong_type` or `out_of_range`.
    """

    def __init__(self, field: str, reason: str, message: str) -> None:
        super().__init__("invalid_options", message)
        self.field = field
        self.reason = reason
