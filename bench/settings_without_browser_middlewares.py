"""Production settings minus Django's browser middlewares, to measure what they cost the
API (bench/serving_bench.py --settings bench.settings_without_browser_middlewares)."""

from belote_project.settings import *  # noqa: F403
from belote_project.settings import MIDDLEWARE

BROWSER_ONLY = ("sessions", "csrf", "auth.middleware", "messages")
MIDDLEWARE = [path for path in MIDDLEWARE if not any(part in path for part in BROWSER_ONLY)]
# The admin's checks want them; the benchmark only calls the API.
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410"]
