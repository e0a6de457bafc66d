"""The Redis cache shares one client (and its pool) across the process
(belote_project/cache.py), whichever context or thread asks."""

import contextvars
import threading

import pytest
from django.core.cache import caches
from django_redis import get_redis_connection
from django_redis.cache import RedisCache

pytestmark = pytest.mark.services


def _client_in_a_fresh_context():
    # Under ASGI each request's context builds its own caches["default"].
    def client():
        store = caches["default"]
        assert isinstance(store, RedisCache)
        return store, get_redis_connection("default")

    return contextvars.Context().run(client)


def _client_on_another_thread():
    found = []
    worker = threading.Thread(target=lambda: found.append(_client_in_a_fresh_context()))
    worker.start()
    worker.join()
    return found[0]


def test_each_context_gets_its_backend_but_all_share_one_client_and_pool():
    first_store, first = _client_in_a_fresh_context()
    second_store, second = _client_on_another_thread()

    assert first_store is not second_store
    assert first is second
    assert first.connection_pool is second.connection_pool


def test_the_shared_client_talks_to_the_configured_redis():
    store, client = _client_in_a_fresh_context()
    store.set("shared-client-probe", 42, 5)

    assert store.get("shared-client-probe") == 42
    assert client.exists(store.make_key("shared-client-probe")) == 1
