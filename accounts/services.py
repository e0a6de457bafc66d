from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import AccessToken, User
from accounts.tokens import new_token, token_digest
from belote_project.errors import InvalidCredentialsError


def _username_taken() -> ValidationError:
    return ValidationError(
        {"username": ValidationError("This username is taken.", code="username_taken")}
    )


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """Create a player account; the password must pass Django's validators."""
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as error:
        raise ValidationError({"password": error.error_list}) from error
    if User.objects.filter(username__iexact=username).exists():
        raise _username_taken()
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as error:  # a concurrent registration won the race
        raise _username_taken() from error


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
        raise InvalidCredentialsError("Unknown username or wrong password.")
    return access_token_issue(user=user)


def access_token_revoke(*, access_token: AccessToken) -> None:
    access_token.delete()
