"""`migrate` also declares the embedded broker's queues, once, before anything sends.

kombu's SQLAlchemy transport creates a queue's row the first time a process declares it:
it looks the name up and inserts it when missing. Two processes that declare the same new
queue at once (the worker starting while the web workers send their first tasks) can both
miss it, and the second insert fails on the unique name (celery/kombu #1187 closed the
race between threads of one process, not between processes). Declared here, by the one
process that runs `migrate` before the others start, the row is there when they look.
Brokers with a server of their own (Redis, RabbitMQ) declare queues atomically and are
left alone.
"""

from typing import Any

from django.conf import settings


def declare_embedded_queues(**_signal: Any) -> None:
    """post_migrate receiver: declare the Celery app's queues on a SQLAlchemy broker."""
    if not settings.CELERY_BROKER_URL.startswith("sqla+"):
        return
    from belote_project.celery import app  # noqa: PLC0415 (the app reads the settings)

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for queue in app.amqp.queues.values():
            queue(channel).declare()
