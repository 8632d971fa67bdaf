"""Settings for the test suite: a fast hasher, SQLite in a temp file unless DATABASE_URL is set."""

import os
import tempfile
from pathlib import Path

from .base import *  # noqa: F403
from .base import database_config

SECRET_KEY = "test-only-not-secret-" + "x" * 40
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES = {"default": database_config(Path(tempfile.gettempdir()) / "tarotclub-test.sqlite3")}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A real file, one per test process: the concurrency tests write from several threads, and
    # SQLite's in-memory test database refuses a second writer instead of waiting for it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"tarotclub-test-{os.getpid()}.sqlite3")
    }
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LANGUAGE_CODE = "en"  # tests read the English texts; each language is tested explicitly
# WhiteNoise finds static files where they are (no collectstatic needed before the tests).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
