"""Static files (admin, Swagger UI) served by WhiteNoise in front of Django.

WhiteNoise wraps the application instead of sitting in the middleware stack: its
middleware is sync-only, and one sync middleware would make every async view hold a
thread under ASGI. Files come from STATIC_ROOT (``manage.py collectstatic``).
"""

import json
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.headers import Headers

from asgiref.wsgi import WsgiToAsgi
from django.conf import settings
from whitenoise import WhiteNoise

from belote_project.problems import PROBLEM_CONTENT_TYPE, problem_body

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
AsgiApp = Callable[[dict[str, Any], Any, Any], Any]


def _not_found(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    body = problem_body(status=404, detail="No such static file.", instance=environ["PATH_INFO"])
    start_response("404 Not Found", [("Content-Type", PROBLEM_CONTENT_TYPE)])
    return [json.dumps(body).encode()]


def _no_sniffing(headers: Headers, path: str, url: str) -> None:
    # Files answer outside Django's middlewares, which set this on everything else.
    headers["X-Content-Type-Options"] = "nosniff"


def with_static_files_wsgi(application: WsgiApp) -> WsgiApp:
    wrapped: WsgiApp = WhiteNoise(
        application,
        root=settings.STATIC_ROOT,
        prefix=settings.STATIC_URL,
        autorefresh=settings.DEBUG,
        add_headers_function=_no_sniffing,
    )
    return wrapped


def with_static_files_asgi(application: AsgiApp) -> AsgiApp:
    static = WsgiToAsgi(with_static_files_wsgi(_not_found))  # type: ignore[no-untyped-call]

    async def route(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(settings.STATIC_URL):
            await static(scope, receive, send)
        else:
            await application(scope, receive, send)

    return route
