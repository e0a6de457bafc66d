"""The project package registered as an app (its diagnostics model and tasks)."""

from django.apps import AppConfig


class DiagnosticsConfig(AppConfig):
    """The project package as an app, for its diagnostic model and tasks."""

    name = "belote_project"
    label = "diagnostics"
    verbose_name = "Diagnostics"
    default_auto_field = "django.db.models.BigAutoField"
