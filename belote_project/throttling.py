"""A scoped rate throttle that costs one Redis round trip.

DRF's `SimpleRateThrottle` reads the caller's history of request times from the cache
(one round trip and an unpickling), trims it, decides, and writes it all back pickled (a
second round trip); two requests of one caller in flight at once may both read the
same history. On the Redis cache, `ScopedRedisRateThrottle` keeps the history as a Redis
list and trims, counts and records in one Lua script: one round trip, atomic. The rule is
DRF's: at most `num_requests` in any `duration` seconds, and a refused caller is told to
wait until the oldest request in the window leaves it. Other caches (the development
fallback) get DRF's own code. The Redis client is django-redis's public
`get_redis_connection`, the key the cache's public `make_key`.
"""

from django.core.cache import caches
from django_redis import get_redis_connection
from django_redis.cache import RedisCache
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

# KEYS[1]: the history, newest first. ARGV: now, window (s), limit.
# Returns nil when the request is let through (and recorded), else the oldest time kept.
_SLIDING_WINDOW = """
local key, now = KEYS[1], tonumber(ARGV[1])
local window, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local oldest = redis.call('LINDEX', key, -1)
while oldest and tonumber(oldest) <= now - window do
    redis.call('RPOP', key)
    oldest = redis.call('LINDEX', key, -1)
end
if redis.call('LLEN', key) >= limit then
    return oldest
end
redis.call('LPUSH', key, ARGV[1])
redis.call('EXPIRE', key, window)
return nil
"""


class ScopedRedisRateThrottle(ScopedRateThrottle):
    # Not DRF's format: a pickled history left under DRF's key is not a Redis list.
    cache_format = "throttle-list_%(scope)s_%(ident)s"

    def allow_request(self, request: Request, view: APIView) -> bool:
        store = caches["default"]
        if not isinstance(store, RedisCache):
            return super().allow_request(request, view)
        # What ScopedRateThrottle.allow_request sets up before SimpleRateThrottle's.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.num_requests is None or self.duration is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        # The script runs by its digest (EVALSHA); Redis is sent its text only once.
        script = get_redis_connection("default").register_script(_SLIDING_WINDOW)
        self.now = self.timer()
        oldest = script(
            keys=[store.make_key(self.key)], args=[repr(self.now), self.duration, self.num_requests]
        )
        if oldest is None:
            return True
        self.oldest: float | None = float(oldest)
        return False

    def wait(self) -> float | None:
        oldest = getattr(self, "oldest", None)
        if oldest is None:
            return super().wait()
        # Refused: the oldest request in the window leaves it this much later.
        return float(self.duration - (self.now - oldest))
