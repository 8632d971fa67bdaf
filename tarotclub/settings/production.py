"""Production: every secret from the environment; refuses to start without them.

HTTPS is the default: the redirect, HSTS and secure cookies. A club laptop serving the room's
Wi-Fi over plain HTTP (`make serve`) says so with TAROTCLUB_PLAIN_HTTP=1. Behind a reverse
proxy that terminates HTTPS, TAROTCLUB_BEHIND_PROXY=1 makes its X-Forwarded-Proto and
X-Forwarded-For believed; without it they are ignored, since any client can send them.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import TAROTCLUB_BEHIND_PROXY, env_flag
from .secret_key import HOW_TO_MAKE_ONE, secret_key_problem


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"Set the environment variable {name} for production.")
    return value


def _secret_key() -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "")
    problem = secret_key_problem(key)
    if problem:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is not fit for production: {problem}. "
            f"Make a random one of at least 50 characters with: {HOW_TO_MAKE_ONE}."
        )
    return key


DEBUG = False
SECRET_KEY = _secret_key()
ALLOWED_HOSTS = [h.strip() for h in _required("DJANGO_ALLOWED_HOSTS").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

TAROTCLUB_PLAIN_HTTP = env_flag("TAROTCLUB_PLAIN_HTTP")
HTTPS = not TAROTCLUB_PLAIN_HTTP

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TAROTCLUB_BEHIND_PROXY else None
SECURE_SSL_REDIRECT = HTTPS
# HSTS: a year by default, for this host only (subdomains may be other sites of the club's
# domain, served otherwise): TAROTCLUB_HSTS_INCLUDE_SUBDOMAINS=1 and TAROTCLUB_HSTS_PRELOAD=1
# when every subdomain is HTTPS too.
SECURE_HSTS_SECONDS = int(os.environ.get("TAROTCLUB_HSTS_SECONDS", "31536000") or 0) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("TAROTCLUB_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("TAROTCLUB_HSTS_PRELOAD")
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # a table's link (its token) never leaves the site
X_FRAME_OPTIONS = "DENY"

# The deliberate defaults above, which `check --deploy` would otherwise warn about:
# subdomains are left out of HSTS (W005) and so the site is not preloaded (W021).
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
    *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
]

# Static files: hashed names, compressed, served by WhiteNoise with far-future caching.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "tarotclub.core.staticfiles.StaticFilesStorage"},
}
