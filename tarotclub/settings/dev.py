"""Settings for `make run` on a laptop: debug on, a fixed development key, the demo account."""

from .base import *  # noqa: F403
from .base import INSTALLED_APPS, SECRET_KEY

DEBUG = True
SECRET_KEY = SECRET_KEY or "dev-only-not-secret-" + "x" * 40
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "*"]
TAROTCLUB_DEMO_ACCOUNT = True
# runserver leaves static files to WhiteNoise, as in production.
INSTALLED_APPS = ["whitenoise.runserver_nostatic", *INSTALLED_APPS]
