"""Settings for `make run` on a laptop: debug on, a fixed development key."""

from .base import *  # noqa: F403

DEBUG = True
SECRET_KEY = SECRET_KEY or "dev-only-not-secret-" + "x" * 40  # noqa: F405
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "*"]
