"""The production settings as `make serve` runs them (plain HTTP), for the test suite.

`make test-production` runs the suite with these: the same middleware, CSP, login throttling,
cookies and WhiteNoise's manifest storage as the club laptop (so a page naming an unknown
static file fails here as it would there). Only what the tests need differs: a random key
and the test hosts when none are given, a fast password hasher, English texts.
"""

import os
import secrets
import tempfile
from pathlib import Path

os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("TAROTCLUB_PLAIN_HTTP", "1")

from .base import database_config  # noqa: E402
from .production import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES = {"default": database_config(Path(tempfile.gettempdir()) / "tarotclub-test.sqlite3")}
LANGUAGE_CODE = "en"  # the tests read the English texts, as with tarotclub.settings.test
