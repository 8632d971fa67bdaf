"""WSGI entry point; production uses tarotclub.settings.production.

Each worker of the server (granian, `make serve`) imports this module when it boots, before
it takes any request: the URLconf (hence every view module) is imported here too, so that
the first phone served by a new worker does not wait for it (some 250 ms; issue 12,
bench/coldstart.py).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.production")
application = get_wsgi_application()


def warm_up() -> None:
    """What a worker's first request would otherwise do once: import the URLconf."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view module


warm_up()
