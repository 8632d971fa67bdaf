from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo club (`manage.py demo_club`): sits above every app, so `core` needs none."""

    name = "tarotclub.demo"
