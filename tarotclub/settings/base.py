"""Settings shared by every environment; dev.py, test.py and production.py build on these."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("TAROTCLUB_VAR_DIR", BASE_DIR / "var"))

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS: list[str] = []

CLUB_NAME = os.environ.get("TAROTCLUB_CLUB_NAME", "Tarot Club")


def env_flag(name: str) -> bool:
    """An on/off environment variable: 1, true, yes or on (any case) mean on."""
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


# Behind a reverse proxy (nginx, Caddy, a hosting platform) that terminates HTTPS: only then
# are X-Forwarded-Proto (production.py) and X-Forwarded-For (the client address that login
# throttling counts) believed. TAROTCLUB_PROXY_COUNT proxies stand in front of the site.
TAROTCLUB_BEHIND_PROXY = env_flag("TAROTCLUB_BEHIND_PROXY")
TAROTCLUB_PROXY_COUNT = int(os.environ.get("TAROTCLUB_PROXY_COUNT", "1") or 1)
# The demo account (demo / demo-tarot, published): created and usable under dev.py only.
TAROTCLUB_DEMO_ACCOUNT = False

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_htmx",
    "django_tables2",
    "tarotclub.core",
    "tarotclub.players",
    "tarotclub.games",
    "tarotclub.tournaments",
    "tarotclub.ratings",
    "tarotclub.search",
    "tarotclub.seasons",
    "tarotclub.matches",
    # The game kinds: one package each; each line registers one kind (`games.kinds`).
    "tarotclub.kinds.tarot",
    "tarotclub.kinds.foolsfaith",
    "tarotclub.kinds.deathspot",
    "tarotclub.kinds.keys",
    "tarotclub.kinds.cuckoo",
    "tarotclub.reports",
    "tarotclub.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from the app itself, so one process is a whole deployment.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages gzip-compressed (static files: WhiteNoise serves its own compressed copies and
    # answers before this). Compression exposes a page's secrets to BREACH: an attacker who
    # sees the encrypted sizes and can make the victim's browser fetch the page many times
    # with text of theirs in it. Kept on, because (1) Django masks the form's CSRF token anew
    # for every response, so it never repeats; (2) Django's GZipMiddleware (>= 4.2) pads each
    # response with 0-100 random bytes ("Heal The Breach"); (3) the session cookie is
    # SameSite=Lax (Django's default), so another site cannot make a director's browser fetch
    # director pages in the background; (4) a table's share token is only in pages reached by
    # that token or by a director. (Over the club laptop's plain HTTP, nothing is encrypted
    # anyway, so BREACH has nothing to add.) Placed before every middleware that may read
    # or change the body.
    "django.middleware.gzip.GZipMiddleware",
    # django-csp's, with the site's policy built once (tarotclub/core/middleware.py)
    "tarotclub.core.middleware.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tarotclub.core.middleware.RejectNulMiddleware",
    # An address a button posts to, opened in the browser: the site's page, not Chromium's.
    "tarotclub.core.middleware.MethodNotAllowedPageMiddleware",
    # Last: turns a login refused for too many failures into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tarotclub.urls"
# A form refused for its CSRF token: the site's page, in the user's language.
CSRF_FAILURE_VIEW = "tarotclub.core.views.csrf_failure"

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
                "django.template.context_processors.i18n",
                "tarotclub.core.context_processors.club",
            ],
        },
    },
]

WSGI_APPLICATION = "tarotclub.wsgi.application"
ASGI_APPLICATION = "tarotclub.asgi.application"


def database_config(default_sqlite_path: Path) -> dict:
    """PostgreSQL (or any engine) from DATABASE_URL, else SQLite with WAL and foreign keys.

    Either way a server thread keeps its connection from one request to the next
    (CONN_MAX_AGE): a poll is one query, and opening a connection for it would cost more than
    the query (a round trip and authentication on PostgreSQL; on SQLite the file opened, the
    PRAGMAs below and Django's SQL functions registered again). tests/core/
    test_database_settings.py checks all of this under the production settings.
    """
    url = os.environ.get("DATABASE_URL")
    if url:
        # Checked before reuse: a connection the server dropped meanwhile (a restart, an idle
        # timeout) is replaced instead of failing the request that gets it.
        config = dj_database_url.parse(url, conn_max_age=600, conn_health_checks=True)
        if config["ENGINE"] == "django.db.backends.postgresql":
            # Django's backend, whose check before reuse costs no round trip (see there).
            config["ENGINE"] = "tarotclub.core.postgresql"
            # Parameters bound by the server, and a statement a connection has run 5 times
            # (psycopg's threshold) prepared: PostgreSQL then no longer parses and plans the
            # save's, the poll's and the pages' statements at every request. Django binds on
            # the client and prepares nothing unless asked. A pooler in transaction mode that
            # cannot keep prepared statements (PgBouncer before 1.21, or without
            # max_prepared_statements) needs TAROTCLUB_NO_PREPARED_STATEMENTS=1.
            options = config.setdefault("OPTIONS", {})
            options.setdefault("server_side_binding", True)
            prepared = None if env_flag("TAROTCLUB_NO_PREPARED_STATEMENTS") else 5
            options.setdefault("prepare_threshold", prepared)
        return config
    return {
        # Django's SQLite backend, whose writers queue in turn (tarotclub/core/sqlite3).
        "ENGINE": "tarotclub.core.sqlite3",
        "NAME": default_sqlite_path,
        "CONN_MAX_AGE": 600,
        "OPTIONS": {
            # Foreign keys are always on in Django's SQLite backend; WAL lets readers (the
            # projector, other phones) read while a deal is written, and synchronous=NORMAL
            # is safe with WAL (a power cut may lose the last commits, never corrupts).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            # BEGIN IMMEDIATE: a write transaction takes the write lock when it begins, so
            # two phones saving at once queue for it (up to `timeout` seconds) instead of one
            # failing with "database is locked" when both read and then want to write.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }


DATABASES = {"default": database_config(VAR_DIR / "tarotclub.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # First: refuses, before any password is checked, a username locked out for this client.
    "axes.backends.AxesStandaloneBackend",
    "tarotclub.core.security.ClubBackend",
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username
# from one address, that pair is refused for the cool-off, even with the right password.
# Per username and address: a room behind one NAT address is not locked out by one guesser,
# and a guesser cannot lock a player out from elsewhere. The site's and the admin's login
# are both covered (they go through django.contrib.auth.authenticate).
AXES_FAILURE_LIMIT = int(os.environ.get("TAROTCLUB_LOGIN_FAILURE_LIMIT", "5") or 5)
AXES_COOLOFF_TIME = dt.timedelta(
    minutes=int(os.environ.get("TAROTCLUB_LOGIN_COOLOFF_MINUTES", "15") or 15)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tarotclub.core.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "tarotclub.core.security.client_ip"
AXES_HTTP_RESPONSE_CODE = 429
# Successful logins are not logged with their address: the club needs no such record.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Django's database sessions, read by a plain SELECT (tarotclub/core/sessions.py).
SESSION_ENGINE = "tarotclub.core.sessions"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English with day-month dates (tarotclub/formats/en); French and Dutch keep Django's own.
FORMAT_MODULE_PATH = ["tarotclub.formats"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"

# Content-Security-Policy (django-csp): everything from the site itself, nothing inline. The
# templates carry no inline script, style or event handler; htmx is told not to inject its
# indicator <style> and not to evaluate code (the htmx-config <meta> in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Rendered fragments of the tournaments' pages (issue 12), keyed by the tournament's revision:
# a cache in each process is enough for a club (a key that moves makes an entry dead, never
# wrong, so processes need not share it); a federation's several servers may point this at a
# shared cache (Redis, Memcached). Room for a 2,000-player final: the projector's 67 screens
# in three languages, and the pages themselves.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}
