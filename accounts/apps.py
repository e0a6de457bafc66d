"""The accounts app: users, bearer tokens and the API that issues them."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the OpenAPI description of the bearer scheme.
        from accounts import schema  # noqa: F401, PLC0415
