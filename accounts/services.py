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
from accounts.tokens import new_token, token_digest
from accounts.usernames import canonical_username, validate_new_username
from belote_project.errors import InvalidCredentialsError

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
