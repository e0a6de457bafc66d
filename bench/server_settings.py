"""Settings of the benchmark's server: production's, with the yardstick endpoint routed."""

from belote_project.settings import *  # noqa: F403 (the same settings, one change)

ROOT_URLCONF = "bench.urls"
