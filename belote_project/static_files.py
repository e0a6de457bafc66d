"""Static files (admin, Swagger UI) served by WhiteNoise in front of Django's WSGI handler.

Files come from STATIC_ROOT (``manage.py collectstatic``); a path under STATIC_URL
that is not a file goes on to Django, whose 404 is a problem document like any other.
"""

from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.headers import Headers

from django.conf import settings
from whitenoise import WhiteNoise

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _no_sniffing(headers: Headers, path: str, url: str) -> None:
    # Files answer outside Django's middlewares, which set this on everything else.
    headers["X-Content-Type-Options"] = "nosniff"


def with_static_files(application: WsgiApp) -> WsgiApp:
    wrapped: WsgiApp = WhiteNoise(
        application,
        root=settings.STATIC_ROOT,
        prefix=settings.STATIC_URL,
        autorefresh=settings.DEBUG,
        add_headers_function=_no_sniffing,
    )
    return wrapped
