"""A WSGI entry point, for tools that need one; production serves belote_project.asgi."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
django_application = get_wsgi_application()

from belote_project.static_files import with_static_files_wsgi  # noqa: E402

application = with_static_files_wsgi(django_application)
