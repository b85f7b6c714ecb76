"""Settings for Tourney, read from the environment through strict helpers.

Every setting has a development default so `make run` works on a laptop with nothing but
Python: SQLite under var/, kombu's filesystem broker under var/, a local-memory cache. Point
DATABASE_URL / CELERY_BROKER_URL / REDIS_URL at PostgreSQL and Redis for a card room.
"""

from __future__ import annotations

import math
import os
import secrets
import zoneinfo
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TOURNEY_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1 or 0)")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [part.strip() for part in raw.split(",") if part.strip()]


def env_number(name: str, default: float, *, whole: bool = False, minimum: float = 0) -> float:
    """A number (``whole``: an integer) of at least ``minimum``; unset or empty: ``default``."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    kind = "a whole number" if whole else "a number"
    try:
        value = int(raw.strip()) if whole else float(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not {kind}") from None
    if not math.isfinite(value) or value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r}: {kind} of at least {minimum} is needed")
    return value


def env_url(name: str, default: str, schemes: tuple[str, ...], sep: str = "") -> str:
    """A URL of one of ``schemes`` (with ``sep``: several, joined by it), checked at start so a
    typo stops the app here instead of failing later in a worker or at the first cache read."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    value = raw.strip()
    for part in value.split(sep) if sep else [value]:
        if sep and not part.strip():
            continue  # "a,b," : an empty item
        try:
            url = urlsplit(part.strip())
            url.port  # noqa: B018  (raises ValueError for a port that is not a number)
        except ValueError:
            url = None
        host_needed = url is not None and url.scheme not in ("unix", "filesystem", "memory")
        if (
            url is None
            or url.scheme not in schemes
            or "://" not in part
            or (host_needed and not url.hostname)
        ):
            wanted = ", ".join(f"{scheme}://" for scheme in schemes)
            raise ImproperlyConfigured(f"{name}={raw!r} is not a URL ({wanted})")
    return value


# `make run` is a home game's production (TOURNEY_HOME_GAME=1): no debug pages, the secret
# key generated once into var/, plain HTTP on the laptop's network (no TLS to redirect to),
# any host name the players' phones use. A card room sets DJANGO_DEBUG=0 and the rest itself.
HOME_GAME = env_bool("TOURNEY_HOME_GAME", False)
DEBUG = env_bool("DJANGO_DEBUG", not HOME_GAME)


def _secret_key() -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        if len(key) < 32:
            raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 32 characters")
        return key
    if not DEBUG and not HOME_GAME:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0: refusing to start without one"
        )
    # Development and a home game: one key generated once into var/ (readable by its owner
    # only), so sessions survive restarts.
    # Published whole with a hard link, so processes starting together on a fresh var/ (the
    # web server, the worker and beat; parallel test processes) never read a half-written key
    # and all keep the first one.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        draft = VAR_DIR / f"secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        draft.write_text(secrets.token_urlsafe(50))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else ["*"] if HOME_GAME else [],
)
env_url("DJANGO_CSRF_TRUSTED_ORIGINS", "", ("https", "http"), sep=",")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# Where phones reach the app (scheme and host, e.g. https://poker.example.org): the QR codes
# of the seat cards and the display point there. Unset: the address the request came in on
# (a desk laptop serving on localhost would print codes no phone can open).
PUBLIC_BASE_URL = env_url("PUBLIC_BASE_URL", "", ("https", "http")).rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "ninja",
    "tourney.apps.TourneyConfig",
    "tables.apps.TablesConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # docs/api.md's error shape for every /api/ error, then no NUL past the edge
    # (tourney/middleware.py)
    "tourney.middleware.ApiErrorShapeMiddleware",
    "tourney.middleware.RejectNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the language: the browser's or the chosen one, a URL's ?lang=, English for the API
    # (tourney/middleware.py)
    "django.middleware.locale.LocaleMiddleware",
    "tourney.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # a write sent twice (an API Idempotency-Key, a form's nonce) is done once; after the
    # CSRF check, so that a request it refuses stores no key (tourney/middleware.py)
    "tourney.middleware.IdempotencyMiddleware",
    # the card room's time zone on a tournament's screens (tourney/middleware.py)
    "tourney.middleware.TournamentZoneMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content Security Policy (django-csp): scripts only from our static files (htmx is served
# locally, never from a CDN) or carrying the response's nonce; styles likewise; no
# 'unsafe-inline' for either. Templates write nonce="{{ request.csp_nonce }}" on a <script>
# or <style> element of their own.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "tourney.urls"
WSGI_APPLICATION = "tourney.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
try:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=60)
except Exception as exc:  # dj-database-url raises several types for a bad URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # A file (not :memory:) so a Celery worker in another process can open the test database.
    _db.setdefault("OPTIONS", {})["timeout"] = 20
    # One file per test run, so two runs side by side never share a test database.
    _db["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
    _db["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # WAL: readers never wait for the writer (web, worker and beat share the file), and a
    # commit needs no fsync of the whole database.
    _db["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    _db["CONN_MAX_AGE"] = 0
if _db["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_SERVER_SIDE_BINDING", True
):
    # Parameters bound by the server, and a statement prepared once it has run
    # DATABASE_PREPARE_THRESHOLD times on a connection (Django turns psycopg's preparing off
    # unless it is given): the server parses and plans a write's statements once, and the
    # client sends values instead of quoting them into the text. 15 % faster on the
    # 10,000-entry simulation, 19 % at 3,000 (docs/performance.md). Behind PgBouncer in
    # transaction mode older than 1.21, set DATABASE_SERVER_SIDE_BINDING=0.
    _db.setdefault("OPTIONS", {})["server_side_binding"] = True
    _prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "2").strip()
    if _prepare:  # empty: bound by the server, never prepared
        _db["OPTIONS"]["prepare_threshold"] = env_number(
            "DATABASE_PREPARE_THRESHOLD", 2, whole=True
        )
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_url("REDIS_URL", "", ("redis", "rediss", "unix"), sep=",")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tourney",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
# The shipped languages (locale/<code>/LC_MESSAGES, tools/i18n.py). The director's screens
# follow the browser's language or the one chosen in the page footer; the public screens
# (display, phone page, lobby) the tournament's ``language`` unless the URL says ``?lang=``.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]


def _machine_zone() -> str:
    """The machine's own zone (/etc/localtime, $TZ): a card room's server runs on its clock,
    and "today" at the desk is the room's day, not UTC's (issue 31). UTC if none is set."""
    try:
        import tzlocal

        name = tzlocal.get_localzone_name() or "UTC"
        zoneinfo.ZoneInfo(name)
        return name
    except Exception:  # noqa: BLE001 — no zone configured or an unknown one: UTC
        return "UTC"


TIME_ZONE = os.environ.get("TIME_ZONE", "").strip() or _machine_zone()
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (ValueError, zoneinfo.ZoneInfoNotFoundError):
    raise ImproperlyConfigured(
        f"TIME_ZONE={TIME_ZONE!r} is not a time zone (e.g. Europe/Paris)"
    ) from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Uploaded files (players' photos, issue 27): under var/, served only to signed-in staff by
# the players' screens (never as public static files).
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True
# The web app manifest (home-screen icons, templates/_icons.html): its own type, which
# WhiteNoise does not know (it would answer application/octet-stream).
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

# Celery: an embedded broker by default (kombu's filesystem transport: no server needed, ETA
# tasks fire on time); CELERY_BROKER_URL=redis://127.0.0.1:6379/0 in a card room.
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL",
    "filesystem://",
    ("filesystem", "redis", "rediss", "sentinel", "amqp", "amqps", "pyamqp", "memory"),
    sep=";",  # kombu's fail-over list
)
if CELERY_BROKER_URL == "filesystem://":
    _broker_dir = VAR_DIR / "broker"
    _broker_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(_broker_dir / "control"),
        "polling_interval": 0.1,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CLOCK_SWEEP_SECONDS = env_number("CLOCK_SWEEP_SECONDS", 5.0, minimum=0.1)
# Status feeds (issue 29): the shortest heartbeat a director may set, and how often the
# worker looks for feeds with something to send.
STATUS_FEED_MIN_SECONDS = env_number("STATUS_FEED_MIN_SECONDS", 30, whole=True, minimum=30)
STATUS_FEED_SWEEP_SECONDS = env_number("STATUS_FEED_SWEEP_SECONDS", 2.0, minimum=0.5)
# Upkeep of the hot tables where the PostgreSQL server's autovacuum is off
# (tourney/services/maintenance.py).
VACUUM_SECONDS = env_number("VACUUM_SECONDS", 300.0, minimum=1)
# How often beat forgets the idempotency keys and form nonces past their 24 hours
# (tourney/core/idempotency.py).
IDEMPOTENCY_EXPIRE_SECONDS = env_number("IDEMPOTENCY_EXPIRE_SECONDS", 3600.0, minimum=1)

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", not HOME_GAME)
    if env_bool("DJANGO_BEHIND_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not HOME_GAME)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env_number(
        "DJANGO_HSTS_SECONDS", 0 if HOME_GAME else 31536000, whole=True
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not HOME_GAME)

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
if LOG_LEVEL not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not DEBUG, INFO, WARNING or ERROR")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
