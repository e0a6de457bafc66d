"""Whether one Celery worker answers: a ping task sent to that worker's own queue, and back.

    python -m belote_project.worker_probe NODE [--timeout SECONDS]   (exit 0: it answered)

Celery's remote control (`celery inspect ping`) needs a broker with fanout exchanges,
which the embedded default's SQLAlchemy transport lacks. A task on the worker's direct
queue (`worker_direct` in the settings) works on every broker, and proves more: that
worker takes tasks from the broker, reaches the database and stores results.
"""

import argparse
import os
import sys
import uuid

import django
from celery.exceptions import CeleryError
from celery.utils import worker_direct


def worker_answers(node: str, timeout: float) -> bool:
    """True when the worker named ``node`` (name@host) ran a ping within ``timeout``."""
    from belote_project.tasks import ping  # noqa: PLC0415 (needs django.setup())

    token = uuid.uuid4().hex
    result = ping.apply_async(args=(token,), queue=worker_direct(node))
    try:
        answer = result.get(timeout=timeout, interval=0.05)
    except CeleryError:  # its TimeoutError too
        return False
    # Only a stored result can be forgotten (the file backend refuses a missing one).
    result.forget()
    return isinstance(answer, dict) and answer.get("token") == token


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("node", help="the worker's node name, name@host")
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
    django.setup()
    sys.exit(0 if worker_answers(args.node, args.timeout) else 1)


if __name__ == "__main__":
    main()
