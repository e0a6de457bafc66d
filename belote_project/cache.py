"""django-redis's connection factory, with one Redis client per server for the process.

Django keeps cache backends in an `asgiref.local.Local` that is not thread-critical: under
ASGI each request's context builds its own `caches["default"]`. django-redis already
keeps its connection pools for the whole process (so no request opens a new TCP
connection), but its factory builds a new `redis.Redis` client for each backend, so for
each request: some 0.4 ms of CPU filling a table of ~150 response callbacks. This
factory (django-redis's `CONNECTION_FACTORY` option) hands out one client per pool
instead; a client is thread-safe, each command borrowing a connection from the pool.
"""

from typing import Any

from django_redis.pool import ConnectionFactory
from redis import Redis

# server URL (django-redis keys its pools by it) -> the client of that pool
_CLIENTS: dict[str, Redis] = {}


class SharedClientConnectionFactory(ConnectionFactory):
    def get_connection(self, params: dict[str, Any]) -> Redis:
        client = _CLIENTS.get(params["url"])
        if client is None:
            # Two threads may both build one here; the first stored is kept.
            client = _CLIENTS.setdefault(params["url"], super().get_connection(params))
        return client
