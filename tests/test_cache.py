"""The Redis cache shares its pools and clients across the process (belote_project/cache.py)."""

import contextvars
import threading

import pytest
from django.core.cache import caches

from belote_project.cache import RedisCache

pytestmark = pytest.mark.services


def _client_in_a_fresh_context():
    # Under ASGI each request's context builds its own caches["default"].
    def client():
        store = caches["default"]
        assert isinstance(store, RedisCache)
        return store, store._cache.get_client(write=True)

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
    assert first.connection_pool is first_store._cache._get_connection_pool(True)


def test_the_shared_client_talks_to_the_configured_redis():
    store, client = _client_in_a_fresh_context()
    store.set("shared-client-probe", 42, 5)

    assert client.get(store.make_key("shared-client-probe")) == b"42"
