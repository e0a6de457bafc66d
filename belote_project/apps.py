"""The project package registered as an app (its diagnostics model and tasks)."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate

from belote_project.broker_setup import declare_embedded_queues


class DiagnosticsConfig(AppConfig):
    """The project package as an app, for its diagnostic model and tasks."""

    name = "belote_project"
    label = "diagnostics"
    verbose_name = "Diagnostics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(declare_embedded_queues, sender=self)
