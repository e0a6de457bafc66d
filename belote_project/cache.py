"""Django's Redis cache, keeping one client per connection pool.

Django's backend builds a new `redis.Redis` for every cache call; building one fills a
table of some 150 response callbacks, which cost more CPU than the call itself (two
calls per throttled request). A client is safe to share between threads: each command
takes a connection from the shared pool.
"""

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _SharedClients(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}  # id of a pool (pools live as long as this) -> client

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own get_client, less the new client per call (these are not in its stubs).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            # Two threads may both build one here; either is fine to keep.
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self._clients[id(pool)] = client
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _SharedClients
