"""Where the feed's reads run: the loop's thread pool, in no request's context.

A read that many followers wait for must not belong to the one that started it: it runs
as a task with a fresh context (`detached`), so a request that ends does not cancel it,
and on the loop's thread pool (`in_pool_thread`), never on a thread the feed's requests
share (games/api/asgi.py), giving its database connection back when it is done.
"""

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import connection

Result = TypeVar("Result")


def _released(read: Callable[..., Result]) -> Callable[..., Result]:
    """`read`, then its thread's database connection closed (a pooled one goes back)."""

    def read_and_release(*args: Any, **kwargs: Any) -> Result:
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return read_and_release


def in_pool_thread(read: Callable[..., Result]) -> Callable[..., Coroutine[Any, Any, Result]]:
    """`read` as a coroutine run on the loop's thread pool, releasing its connection."""
    return sync_to_async(_released(read), thread_sensitive=False)


def detached(
    loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, Result]
) -> asyncio.Task[Result]:
    """A task that belongs to no request: it outlives whichever follower started it."""
    return loop.create_task(work, context=contextvars.Context())
