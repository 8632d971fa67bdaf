"""ASGI entry point; production uses tarotclub.settings.production."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.production")
application = get_asgi_application()
