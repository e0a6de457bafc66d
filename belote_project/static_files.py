"""Static files (admin, Swagger UI) served by WhiteNoise in front of Django's WSGI handler.

Files come from STATIC_ROOT (``manage.py collectstatic``); a path under STATIC_URL
that is not a file goes on to Django, whose 404 is a problem document like any other.
"""

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from whitenoise import WhiteNoise

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def with_static_files(application: WsgiApp) -> WsgiApp:
    wrapped: WsgiApp = WhiteNoise(
        application,
        root=settings.STATIC_ROOT,
        prefix=settings.STATIC_URL,
        autorefresh=settings.DEBUG,
    )
    return wrapped
