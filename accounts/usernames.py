"""The one rule for usernames: which are allowed, and when two are the same name.

Two usernames are the same name when their `canonical_username` is equal: NFKC (so the
long s U+017F is `s`, a full-width R U+FF32 is `R`), then Unicode case folding (so the
sharp s U+00DF is `ss`: wider than `lower()`), then NFKC again (folding can undo a
normal form): Unicode's
"identifier caseless match" (UAX #31, NFKC_Casefold without removing ignorables).
Registration, login, the admin and the login throttle all compare names through it, and
the database keeps it in `User.canonical_username` under a UNIQUE constraint, so no two
accounts share a name and no look-alike spelling gets an allowance of its own.

Letters that merely look alike but are different letters (a Latin `i` and the Turkish
dotless i U+0131, a Latin `a` and a Cyrillic U+0430) stay different names.
"""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 32

# Letters, digits and . @ + - _ (Django's UnicodeUsernameValidator's set): so no control
# character, space, lone surrogate or unassigned code point.
_ALLOWED = re.compile(r"[\w.@+-]+\Z")


def canonical_username(username: str) -> str:
    """The form that two spellings of one name share (see the module's docstring)."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return unicodedata.normalize("NFKC", folded)


def validate_username_to_look_up(username: str) -> None:
    """ValidationError `username_invalid` if `username` holds a control, format, private
    use or unassigned character or a lone surrogate: no account has one (and a surrogate
    cannot even be sent to the database). Names renamed by a migration hold a `#`."""
    if any(unicodedata.category(char).startswith("C") for char in username):
        raise ValidationError(_("A username holds no control character."), code="username_invalid")


def validate_new_username(username: str) -> None:
    """ValidationError unless `username` may name a new account: allowed characters, not
    only digits (it would read as an id), and 3 to 32 characters in every form kept."""
    if not _ALLOWED.match(unicodedata.normalize("NFKC", username)):
        raise ValidationError(_("Use only letters, digits and . @ + - _."), code="username_invalid")
    canonical = canonical_username(username)
    if canonical.isnumeric():
        raise ValidationError(_("A username needs a letter or a sign."), code="username_numeric")
    lengths = {len(unicodedata.normalize("NFKC", username)), len(canonical)}
    if max(lengths) > USERNAME_MAX_LENGTH or min(lengths) < USERNAME_MIN_LENGTH:
        raise ValidationError(
            _("A username has %(min)d to %(max)d characters once normalised.")
            % {"min": USERNAME_MIN_LENGTH, "max": USERNAME_MAX_LENGTH},
            code="username_length",
        )
