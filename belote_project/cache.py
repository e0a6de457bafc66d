"""Django's Redis cache, with its connection pools and clients shared by the whole process.

Django keeps cache backends in an `asgiref.local.Local` that is not thread-critical: under
ASGI each request's context builds its own `caches["default"]`, and Django's Redis client
then its own connection pool, so every request opened a new TCP connection to Redis
(connect + handshake: a third of the action throttle's cost). Here the pools live in this
module, keyed by server URL and options, and so do the `redis.Redis` clients: Django's
backend also built a client per cache call, filling a table of some 150 response callbacks
each time. Pools and clients are thread-safe: each command takes a connection from the
pool and gives it back.
"""

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

# (server URL, pool class, options) -> (pool, client), for the life of the process.
_SHARED: dict[tuple[str, Any, str], tuple[Any, Any]] = {}
_SHARED_LOCK = threading.Lock()


class _SharedClients(RedisCacheClient):
    def _shared(self, write: bool) -> tuple[Any, Any]:
        # Django's own pool choice (these attributes are not in its stubs).
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        server: str = self._servers[index]  # type: ignore[attr-defined]
        pool_class: Any = self._pool_class  # type: ignore[attr-defined]
        options: dict[str, Any] = self._pool_options  # type: ignore[attr-defined]
        key = (server, pool_class, repr(sorted(options.items())))
        shared = _SHARED.get(key)
        if shared is None:
            with _SHARED_LOCK:
                shared = _SHARED.get(key)
                if shared is None:
                    pool = pool_class.from_url(server, **options)
                    client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
                    shared = _SHARED[key] = (pool, client)
        return shared

    def _get_connection_pool(self, write: bool) -> Any:
        return self._shared(write)[0]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return self._shared(write)[1]


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _SharedClients
