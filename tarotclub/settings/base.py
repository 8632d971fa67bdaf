"""Settings shared by every environment; dev.py, test.py and production.py build on these."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("TAROTCLUB_VAR_DIR", BASE_DIR / "var"))

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS: list[str] = []

CLUB_NAME = os.environ.get("TAROTCLUB_CLUB_NAME", "Tarot Club")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "tarotclub.core",
    "tarotclub.players",
    "tarotclub.games",
    "tarotclub.tournaments",
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
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tarotclub.core.middleware.RejectNulMiddleware",
]

ROOT_URLCONF = "tarotclub.urls"

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
    """PostgreSQL (or any engine) from DATABASE_URL, else SQLite with WAL and foreign keys."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return dj_database_url.parse(url, conn_max_age=60)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": default_sqlite_path,
        "OPTIONS": {
            # Foreign keys are always on in Django's SQLite backend; WAL lets readers (the
            # projector, other phones) read while a deal is written.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
