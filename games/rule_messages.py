"""The words of a rule refusal in the caller's language, chosen by its stable code.

The rules package is pure (no Django, no translation): a `RuleError` carries a `code`
and an English sentence. Here, at the edge where it becomes an HTTP problem, each code
gets a translatable title and a translatable explanation. In English the detail stays
the rules' own sentence, which may name the caller's card or the suit led; in another
language it is the code's explanation, which says the same rule without naming them.
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from games import rules

# The language the rules' own sentences are written in.
RULES_LANGUAGE = "en"


class RuleText(NamedTuple):
    title: StrOrPromise
    explanation: StrOrPromise


#: one entry per code of `rules.ERROR_CODES` (tests/games/test_i18n.py checks it)
RULE_TEXTS: dict[str, RuleText] = {
    "not_your_turn": RuleText(
        _("Not your turn"), _("Another player is to bid or play: wait for your turn.")
    ),
    "wrong_phase": RuleText(
        _("Not at this stage of the game"),
        _("This action does not fit the current phase: pick one of your legal_actions."),
    ),
    "game_over": RuleText(_("The game is over"), _("The game is over: nothing more is played.")),
    "invalid_action": RuleText(
        _("Not a valid action"),
        _("The action is malformed: send one entry of your legal_actions as it is."),
    ),
    "card_not_in_hand": RuleText(
        _("That card is not in your hand"), _("You can only play a card from your hand.")
    ),
    "must_follow_suit": RuleText(
        _("You must follow suit"), _("You hold the suit led: play a card of that suit.")
    ),
    "must_trump": RuleText(
        _("You must trump"), _("You cannot follow suit and you hold trumps: play a trump.")
    ),
    "must_overtrump": RuleText(
        _("You must overtrump"),
        _("You hold a trump higher than the one winning the trick: play it."),
    ),
    "must_undertrump": RuleText(
        _("You must play a trump"),
        _("You cannot follow suit or beat the trick's trump, but you hold trumps: play one."),
    ),
    "suit_refused_in_round_2": RuleText(
        _("That suit was refused"),
        _("In the second round the turned card's suit, refused in the first, cannot be named."),
    ),
    "invalid_declaration": RuleText(
        _("Not a valid declaration"),
        _(
            "Declare one of the best sets your hand holds, once, at a table that plays "
            "declarations."
        ),
    ),
    "declaration_too_late": RuleText(
        _("Too late to declare"), _("Declarations go with your first card.")
    ),
    "belote_choice_required": RuleText(
        _("Say whether you announce belote"),
        _("This card opens your king and queen of trumps: send belote true or false with it."),
    ),
    "belote_not_allowed": RuleText(
        _("No belote choice here"),
        _(
            "Only the first card of the king and queen of trumps carries a belote choice, "
            "and only where belote is not announced for you."
        ),
    ),
    "game_already_started": RuleText(_("The game has started"), _("The game has already started.")),
    "seat_absent": RuleText(
        _("A bot plays this seat"),
        _("A bot already plays this seat: its player may take it back."),
    ),
    "seat_present": RuleText(
        _("The seat's player plays it"),
        _("Nobody has to take this seat back: its player plays it."),
    ),
    "invalid_options": RuleText(
        _("Invalid table options"),
        _("A table option is unknown, of the wrong type or out of range."),
    ),
}

#: the words of an invalid option, by `InvalidOptions.reason`
OPTION_REASONS: dict[str, StrOrPromise] = {
    "unknown_option": _("There is no option “%(option)s”."),
    "wrong_type": _("The option “%(option)s” has the wrong type."),
    "out_of_range": _(
        "The option “%(option)s” takes another value (docs/rules.md, Table options)."
    ),
}


def rule_title(error: rules.RuleError) -> StrOrPromise:
    return RULE_TEXTS[error.code].title


def rule_detail(error: rules.RuleError) -> str:
    """The rules' sentence in English, the code's explanation in any other language."""
    if get_language() == RULES_LANGUAGE:
        return error.message
    return str(RULE_TEXTS[error.code].explanation)


def option_detail(error: rules.InvalidOptions) -> str:
    """Why an option is refused: the rules' sentence in English, else by its reason."""
    if get_language() == RULES_LANGUAGE or error.reason not in OPTION_REASONS:
        return error.message
    return str(OPTION_REASONS[error.reason]) % {"option": error.field}
