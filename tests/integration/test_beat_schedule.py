"""The periodic tasks (belote_project/beat_schedule.py) name tasks the worker knows."""

from django.conf import settings

from belote_project.celery import app as celery_app


def test_every_periodic_task_names_a_registered_task():
    celery_app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in celery_app.tasks, name
        assert entry["schedule"] > 0, name
