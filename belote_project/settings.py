"""Settings, read from the environment (see README "Configuration").

With nothing set the service runs self-contained: DEBUG on, a SQLite file and a
Celery broker in a second SQLite file under var/. Set DATABASE_URL / CELERY_BROKER_URL / REDIS_URL
to use PostgreSQL and Redis. With DEBUG off a real SECRET_KEY is mandatory.
"""

from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from sqlalchemy.pool import NullPool

from belote_project.beat_schedule import BEAT_SCHEDULE
from belote_project.broker_engine import PLUGIN_NAME as BROKER_ENGINE_PLUGIN
from belote_project.env import env_bool, env_int, env_list, env_str
from belote_project.openapi_settings import OPENAPI_SETTINGS

# Lets annotations like admin.ModelAdmin[AccessToken] work at run time as well.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("BELOTE_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=True)

# The key a development checkout runs with; production refuses it (and any weak key).
DEVELOPMENT_SECRET_KEY = "insecure-development-key-never-use-in-production"  # noqa: S105
SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_SECRET_KEY)


def _secret_key_is_weak(key: str) -> bool:
    return (
        key == DEVELOPMENT_SECRET_KEY
        or key.startswith(("django-insecure", "insecure", "change-me", "changeme"))
        or len(key) < 32
        or len(set(key)) < 8
    )


if not DEBUG and _secret_key_is_weak(SECRET_KEY):
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is unset or weak: set SECRET_KEY to 32+ random characters"
        " (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "belote_project.apps.DiagnosticsConfig",
    "accounts",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    # Outermost: the security headers every answer carries, whoever produced it.
    "belote_project.middleware.ContentSecurityPolicyMiddleware",
    # Before anything that may answer, so that every answer is in the client's language.
    "belote_project.middleware.LanguageMiddleware",
    # Next, so that every error answer, whoever produced it, leaves as problem+json.
    "belote_project.middleware.ProblemResponseMiddleware",
    "belote_project.middleware.RequestSizeGuardMiddleware",
    # What CommonMiddleware still did with APPEND_SLASH off (and no PREPEND_WWW, no
    # DISALLOWED_USER_AGENTS): the Host check and the Content-Length of answers.
    "belote_project.middleware.HostAndLengthMiddleware",
    # Django's, its hooks called in line rather than each through a thread hop.
    "belote_project.middleware.SecurityMiddleware",
    # Sessions, CSRF, the session user and messages serve the admin's pages (and staff on
    # /healthz): Django's own middlewares, run on those paths and skipped on the API's,
    # where under ASGI each hook cost a thread hop (belote_project/session_paths.py).
    "belote_project.session_paths.SessionMiddleware",
    "belote_project.session_paths.CsrfViewMiddleware",
    "belote_project.session_paths.AuthenticationMiddleware",
    "belote_project.session_paths.MessageMiddleware",
]

# The admin's checks look for those four middlewares by class; they are there, each inside
# its session-paths-only wrapper (tests/test_middleware.py signs in to the admin through it).
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410"]

ROOT_URLCONF = "belote_project.urls"
WSGI_APPLICATION = "belote_project.wsgi.application"
# API paths have no trailing slash; redirecting a POST to add one would lose its body.
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

# --- Database -------------------------------------------------------------------------
# Served under ASGI (docs/deploy.md), every request runs its sync code in a new thread, so
# persistent per-thread connections would never be reused: CONN_MAX_AGE stays 0 and
# PostgreSQL connections come from psycopg's pool instead (DB_POOL_MAX_SIZE=0: no pool).
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'belote.sqlite3'}"), conn_max_age=0
    )
}
_db_pool_max_size = env_int("DB_POOL_MAX_SIZE", 10)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and _db_pool_max_size:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": _db_pool_max_size,
        "timeout": env_int("DB_POOL_TIMEOUT", 10),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the worker write concurrently: WAL plus IMMEDIATE transactions
    # make them wait for each other instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Redis, cache and Celery ----------------------------------------------------------
_EMBEDDED_BROKER_URL = f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", _EMBEDDED_BROKER_URL)
_broker_is_redis = CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
REDIS_URL = env_str("REDIS_URL", CELERY_BROKER_URL if _broker_is_redis else "")

# Throttle counters must be shared by every web process, so never a per-process cache.
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"CONNECTION_FACTORY": "belote_project.cache.SharedClientConnectionFactory"},
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    )
}
CACHES["default"]["KEY_PREFIX"] = env_str("CACHE_KEY_PREFIX", "belote")

if CELERY_BROKER_URL == _EMBEDDED_BROKER_URL:
    # kombu's SQLAlchemy transport on a SQLite file of its own, not the filesystem one:
    # that one's producer creates a message file before it writes it and its consumer
    # reads without a lock, so a worker could read an empty file and die (celery/kombu
    # #1551); here a message is a row, committed whole or not at all. The transport looks
    # for messages once a second by default, and each bot move waits for that look: 20
    # looks a second bring a bot's answer under 0.2 s (./scripts/bench embedded).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "polling_interval": 0.05,
        # The rest go to sqlalchemy.create_engine. The plugin takes polling_interval off
        # and turns on WAL (belote_project/broker_engine.py); the web workers, beat and
        # the worker write at once, so a writer waits up to 20 s for the lock.
        "plugins": [BROKER_ENGINE_PLUGIN],
        "connect_args": {"timeout": 20},
        # A connection per transaction: none is carried across the worker's forks.
        "poolclass": NullPool,
    }
    _results_dir = VAR_DIR / "celery" / "results"
    _results_dir.mkdir(parents=True, exist_ok=True)
    _default_result_backend = f"file://{_results_dir}"
else:
    _default_result_backend = CELERY_BROKER_URL if _broker_is_redis else "rpc://"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _default_result_backend)
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "belote")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks are idempotent (they carry the version they were scheduled at), so a task lost
# with its worker is redelivered rather than dropped.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each worker also takes tasks from a queue of its own (<node>.dq2): how ./scripts/run asks
# one worker whether it is up, on any broker (belote_project/worker_probe.py).
CELERY_WORKER_DIRECT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TIMEZONE = "UTC"
# Periodic tasks: belote_project/beat_schedule.py.
CELERY_BEAT_SCHEDULE = BEAT_SCHEDULE
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(VAR_DIR / "celerybeat-schedule")
)

# --- HTTP -----------------------------------------------------------------------------
# Messages (problem titles and details) follow Accept-Language; codes never change.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
# The catalogues: belote_project/locale/<lang>/LC_MESSAGES/django.po, compiled to the
# django.mo beside it (committed; docs/api.md, "Languages", says how to recompile).
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start when it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Bodies above this are refused with 413 before anything reads them.
MAX_REQUEST_BODY_BYTES = env_int("MAX_REQUEST_BODY_BYTES", 256 * 1024)
# Games whose newest state each process keeps in memory (games/store/cache.py); 0: none.
GAME_STATE_CACHE_SIZE = env_int("GAME_STATE_CACHE_SIZE", 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

if env_bool("HTTPS", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Health checks probe the process over plain HTTP from inside its container.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 3600)

# --- REST API -------------------------------------------------------------------------
ACCESS_TOKEN_TTL_DAYS = env_int("ACCESS_TOKEN_TTL_DAYS", 90)
# A table nobody has sat down at for this long is closed (games/services/stale_tables.py).
WAITING_TABLE_HOURS = env_int("WAITING_TABLE_HOURS", 24)
# Streams plus held long-polls one user may have open at once, across all processes
# (counted in the cache: games/feed/leases.py); one more gets 429 too_many_feeds.
MAX_OPEN_FEEDS_PER_USER = env_int("MAX_OPEN_FEEDS_PER_USER", 8)

_renderers = ["rest_framework.renderers.JSONRenderer"]
if DEBUG:
    _renderers.append("rest_framework.renderers.BrowsableAPIRenderer")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": _renderers,
    "DEFAULT_PARSER_CLASSES": ["belote_project.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "belote_project.pagination.CursorPage",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "register": env_str("THROTTLE_REGISTER", "20/hour"),
        "game_create": env_str("THROTTLE_GAME_CREATE", "30/hour"),
        # creating a tournament and adding bot teams: each bot team is games played
        "tournament_create": env_str("THROTTLE_TOURNAMENT_CREATE", "300/hour"),
        "game_actions": env_str("THROTTLE_GAME_ACTIONS", "240/min"),
    },
    # 0: the client address is REMOTE_ADDR; X-Forwarded-For is trusted only behind
    # that many proxies (an untrusted header would let a client dodge throttles).
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "EXCEPTION_HANDLER": "belote_project.exception_handler.problem_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "belote_project.schema.ProblemAutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# drf-spectacular: the OpenAPI document (docs/schema.md)
SPECTACULAR_SETTINGS = OPENAPI_SETTINGS

# --- Logging --------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
