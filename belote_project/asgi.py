"""The ASGI application production serves (docs/deploy.md), built from stock parts.

In order: the body limit (belote_project/request_size.py), before anything reads a
body; the live feed's paths on Django's ASGI handler, where a parked client costs a
coroutine (games/api/asgi.py); every other path on Django's WSGI handler with static
files in front (belote_project/wsgi.py), run by a2wsgi on its pool of threads: one
thread hop per request and Django's middleware chain in sync mode.
"""

import gc
import os
import re

from a2wsgi import WSGIMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_project.settings")

from belote_project.request_size import AsgiApp, limit_request_body
from belote_project.wsgi import application as wsgi_application
from games.api.asgi import FEED_PATH, with_feed_handler

# Sync requests served at once per process: as many as the database pool's
# connections (DB_POOL_MAX_SIZE, 10), the most that could make progress together.
SYNC_THREADS = 10

sync_application: AsgiApp = WSGIMiddleware(wsgi_application, workers=SYNC_THREADS)  # type: ignore[arg-type,assignment]
# The paths whose requests may wait: the games' feeds and a tournament's progress
# (tournaments/api/urls.py), which long-polls on the same machinery.
FEED_PATHS = re.compile(rf"{FEED_PATH.pattern}|/tournaments/[0-9a-fA-F-]{{32,36}}/progress\Z")
application = limit_request_body(with_feed_handler(sync_application, FEED_PATHS))

# What is loaded by now (Django, the apps, the URL conf) lives as long as the process:
# move it out of the cyclic collector's reach. Otherwise each full collection walks it
# all and stalls the worker for ~60 ms, a pause every request in flight there waits for.
gc.freeze()
