"""The ASGI application production serves (docs/deploy.md), static files in front."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
django_application = get_asgi_application()

from belote_project.static_files import with_static_files_asgi  # noqa: E402

application = with_static_files_asgi(django_application)
