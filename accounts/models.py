from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        # Usernames are unique regardless of case, so "Alice" may log in as "alice".
        return self.get(username__iexact=username)


class User(AbstractUser):
    objects: ClassVar[UserManager] = UserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")
        ]


class AccessToken(models.Model):
    """One device's login. The token itself is never stored, only its SHA-256 digest."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="access_tokens")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user_id}"
