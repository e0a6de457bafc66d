"""Django's stock WSGI application with static files in front.

belote_project.asgi serves every path but the live feed's with it (through a2wsgi,
behind the body limit); `runserver` uses it too (WSGI_APPLICATION). Served alone by a
WSGI server, RequestSizeGuardMiddleware refuses a too-large Content-Length before the
body is read, and Django reads no body that lacks one.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
django_application = get_wsgi_application()

from belote_project.static_files import with_static_files  # noqa: E402

application = with_static_files(django_application)
