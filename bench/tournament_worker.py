"""A Celery worker for bench/tournament_bench.py that counts each task's SQL statements.

    python -m bench.tournament_worker <celery worker options>

The production worker, plus Celery's task signals around each task: the statements the
task's database connection runs are counted (Django's `execute_wrapper`) and added to a
Redis hash per task name, so the benchmark can say what a round costs the database.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import django
import redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
django.setup()

from celery.signals import task_postrun, task_prerun  # noqa: E402 (after setup)
from django.db import connection  # noqa: E402

from belote_project.celery import app  # noqa: E402

#: the Redis hashes the counts go to: statements and tasks by task name
STATEMENTS_KEY = "bench:tournament:statements"
TASKS_KEY = "bench:tournament:tasks"

_open: dict[str, tuple[ExitStack, list[int]]] = {}


def _counting(seen: list[int]) -> Callable[..., Any]:
    def wrapper(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        seen[0] += 1
        return execute(sql, params, many, context)

    return wrapper


@task_prerun.connect
def _start(task_id: str, **kwargs: Any) -> None:
    seen = [0]
    stack = ExitStack()
    stack.enter_context(connection.execute_wrapper(_counting(seen)))
    _open[task_id] = (stack, seen)


@task_postrun.connect
def _stop(task_id: str, task: Any, **kwargs: Any) -> None:
    stack, seen = _open.pop(task_id, (None, [0]))
    if stack is not None:
        stack.close()
    client = redis.Redis.from_url(os.environ["BENCH_COUNTS_URL"])
    client.hincrby(STATEMENTS_KEY, task.name, seen[0])
    client.hincrby(TASKS_KEY, task.name, 1)


if __name__ == "__main__":
    import sys

    app.worker_main(["worker", *sys.argv[1:]])
