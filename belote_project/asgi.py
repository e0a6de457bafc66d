"""The ASGI application production serves (docs/deploy.md): static files in front, the
live feed's paths on a handler without a thread per parked client (games/feed/asgi.py),
Django for the rest."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")
django.setup(set_prefix=False)

from belote_project.static_files import with_static_files_asgi  # noqa: E402
from belote_project.sync_stack import SyncStackASGIHandler  # noqa: E402
from games.feed.asgi import with_feed_handler  # noqa: E402

# The sync API in one thread hop per request (belote_project/sync_stack.py).
django_application = SyncStackASGIHandler()
application = with_static_files_asgi(with_feed_handler(django_application))

# What is loaded by now (Django, the apps, the URL conf) lives as long as the process:
# move it out of the cyclic collector's reach. Otherwise each full collection walks it
# all and stalls the worker for ~60 ms, a pause every request in flight there waits for.
gc.freeze()
