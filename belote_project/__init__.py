"""The project package; importing it loads the Celery app, so that shared tasks bind to it."""

from belote_project.celery import app as celery_app

__all__ = ["celery_app"]
