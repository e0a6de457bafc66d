"""Django's browser middlewares (sessions, CSRF, the session user, messages), only where a
browser session is used: the admin's pages, and the health check, whose details staff
signed in to the admin may read.

The API authenticates bearer tokens (DRF) and its views are exempt from CSRF: on its paths
these four middlewares read nothing and change nothing, yet each runs its hooks. Under
ASGI (the live feed) that costs a lot: each is a `MiddlewareMixin`, whose hooks Django runs
through `sync_to_async`, a thread hop each. With the two MiddlewareMixins that the
project's own middlewares replaced (belote_project/middleware.py), this took a feed poll
from 9.0 thread hops to 3.5, and a woken long-poll's answer from 0.93-1.25 ms of CPU to
0.56-0.72 ms (`./scripts/bench feedcost`, docs/deploy.md).

Each class here wraps Django's middleware of the same name without changing it: a request
on one of `SESSION_PATHS` goes through Django's middleware as it is; any other goes
straight on to the next one.
"""

from collections.abc import Callable
from typing import Any, ClassVar

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.contrib.auth import middleware as auth_middleware
from django.contrib.messages import middleware as messages_middleware
from django.contrib.sessions import middleware as sessions_middleware
from django.http import HttpRequest
from django.middleware import csrf
from django.utils.deprecation import MiddlewareMixin

ADMIN_PATH = "/admin/"
# Prefixes of request paths (path_info) on which a browser session counts.
SESSION_PATHS = (ADMIN_PATH, "/healthz")

Middleware = Callable[[HttpRequest], Any]


class OnSessionPaths:
    """`stock`, a Django middleware, on `SESSION_PATHS`; nothing on the other paths."""

    stock: ClassVar[type[MiddlewareMixin]]
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response
        self.on_session_paths = self.stock(get_response)
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        # In an async chain both return an awaitable, which the caller awaits.
        if request.path_info.startswith(SESSION_PATHS):
            return self.on_session_paths(request)
        return self.get_response(request)


class SessionMiddleware(OnSessionPaths):
    stock = sessions_middleware.SessionMiddleware


class CsrfViewMiddleware(OnSessionPaths):
    stock = csrf.CsrfViewMiddleware


class AuthenticationMiddleware(OnSessionPaths):
    stock = auth_middleware.AuthenticationMiddleware


class MessageMiddleware(OnSessionPaths):
    stock = messages_middleware.MessageMiddleware
