"""Account writes: registering a user, issuing and revoking access tokens."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import USERNAME_UNIQUE_CONSTRAINTS, AccessToken, User
from accounts.signals import account_deleting
from accounts.tokens import new_token, token_digest
from accounts.usernames import canonical_username, validate_new_username
from belote_project.errors import InvalidCredentialsError, WrongPasswordError

_UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE


def _username_taken() -> ValidationError:
    return ValidationError(
        {"username": ValidationError(_("This username is taken."), code="username_taken")}
    )


def _name_taken_by_a_race(error: IntegrityError) -> bool:
    """Whether the INSERT broke a uniqueness of the username, by the driver's diagnostics
    (psycopg's SQLSTATE and constraint name). SQLite, the development fallback, runs its
    write transactions one at a time, so the check before the INSERT already decided."""
    cause = error.__cause__
    diagnostics = getattr(cause, "diag", None)
    return (
        getattr(cause, "sqlstate", None) == _UNIQUE_VIOLATION
        and getattr(diagnostics, "constraint_name", None) in USERNAME_UNIQUE_CONSTRAINTS
    )


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """Create a player account: a new name (accounts/usernames.py) under no other
    account's spelling, and a password that passes Django's validators."""
    try:
        validate_new_username(username)
    except ValidationError as error:
        raise ValidationError({"username": error.error_list}) from error
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as error:
        raise ValidationError({"password": error.error_list}) from error
    if User.objects.filter(canonical_username=canonical_username(username)).exists():
        raise _username_taken()
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as error:
        if _name_taken_by_a_race(error):  # a concurrent registration of the name won
            raise _username_taken() from error
        raise


def access_token_issue(*, user: User) -> str:
    """A new bearer token for ``user``; only its digest is kept."""
    token = new_token()
    AccessToken.objects.create(
        user=user,
        digest=token_digest(token),
        expires_at=timezone.now() + timedelta(days=settings.ACCESS_TOKEN_TTL_DAYS),
    )
    return token


def user_login(*, username: str, password: str) -> str:
    """A new token for valid credentials, else InvalidCredentialsError."""
    user = authenticate(username=username, password=password)
    if not isinstance(user, User):
        raise InvalidCredentialsError(_("Unknown username or wrong password."))
    return access_token_issue(user=user)


def access_token_revoke(*, access_token: AccessToken) -> None:
    access_token.delete()


def deleted_username(user_id: int) -> str:
    """The pseudonym a deleted account keeps: `#` is refused in a new name, and the names
    a migration gave holds `<name>#<id>` of their own id, so no other account has it."""
    return f"deleted#{user_id}"


@transaction.atomic
def user_delete(*, user: User, password: str) -> None:
    """Delete the person behind `user`, who confirms with their password.

    The row stays, since games and their events name it, but only as a pseudonym: the
    name (free for anyone to register again), the personal fields, the password and every
    token go, and the account can never sign in again. `account_deleting` lets the apps
    that hold on to the account let go of it first, in the same transaction.
    """
    # Locked: two deletions, or a deletion and a password change, do not interleave.
    locked = User.objects.select_for_update().get(pk=user.pk)
    if locked.deleted_at is not None or not locked.check_password(password):
        raise WrongPasswordError(_("That is not this account's password."))
    account_deleting.send(sender=User, user=locked)
    locked.username = deleted_username(locked.pk)
    locked.first_name = locked.last_name = locked.email = ""
    locked.set_unusable_password()
    locked.is_active = locked.is_staff = locked.is_superuser = False
    locked.last_login = None
    locked.deleted_at = timezone.now()
    locked.save()
    locked.groups.clear()
    locked.user_permissions.clear()
    AccessToken.objects.filter(user=locked).delete()
