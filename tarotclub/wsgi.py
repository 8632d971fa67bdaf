"""WSGI entry point; production uses tarotclub.settings.production."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.production")
application = get_wsgi_application()
