"""The Celery application; tasks are discovered in each installed app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")

app = Celery("belote")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
