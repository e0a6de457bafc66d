"""Users (one account per canonical username) and their access tokens."""

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.usernames import canonical_username

# The UNIQUE constraints a new account's INSERT can break because its name is taken:
# ours on the canonical form, and the one PostgreSQL names (<table>_<column>_key) for
# AbstractUser's `unique=True` on the username as typed.
CANONICAL_USERNAME_UNIQUE = "accounts_user_canonical_username_unique"
USERNAME_UNIQUE_CONSTRAINTS = frozenset({CANONICAL_USERNAME_UNIQUE, "accounts_user_username_key"})


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        # What ModelBackend (login, the admin's) looks a name up by: "Alice", "ALICE" and
        # a full-width "alice" are the same account (accounts/usernames.py).
        return self.get(canonical_username=canonical_username(username or ""))


class User(AbstractUser):
    # Set from `username` on every save (accounts/usernames.py); not editable on its own.
    # An `update(username=...)` bypasses save(): rename through the model instead.
    canonical_username = models.CharField(max_length=150, editable=False)
    # When the person deleted the account (accounts.services.user_delete); the row stays,
    # under a pseudonym, for the games that name it.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: ClassVar[UserManager] = UserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["canonical_username"], name=CANONICAL_USERNAME_UNIQUE)
        ]

    def clean(self) -> None:
        # Model forms (the admin) call this: a name taken in another spelling is a field
        # error there, not an IntegrityError.
        super().clean()
        canonical = canonical_username(self.username)
        if User.objects.filter(canonical_username=canonical).exclude(pk=self.pk).exists():
            raise ValidationError(
                {"username": ValidationError(_("This username is taken."), code="username_taken")}
            )

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.canonical_username = canonical_username(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "canonical_username"}
        super().save(*args, **kwargs)


class AccessToken(models.Model):
    """One device's login. The token itself is never stored, only its SHA-256 digest."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="access_tokens")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user_id}"
