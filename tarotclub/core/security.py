"""Logging in safely: who the client is, the page a locked-out guesser sees, the demo account.

django-axes counts the failed logins (settings.AXES_*); this module gives it the client's
address (trusting X-Forwarded-For only behind a configured proxy) and the lockout page.
"""

from __future__ import annotations

import functools
import ipaddress

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection
from django.shortcuts import render
from django.utils.translation import ngettext

from . import sql

# The demo club's account (`make run`): its password is printed on the screen and in the
# README, so it opens nothing outside the development settings.
DEMO_USER = "demo"
DEMO_PASSWORD = "demo-tarot"


def client_ip(request) -> str | None:
    """The address a login attempt comes from (axes' AXES_CLIENT_IP_CALLABLE).

    REMOTE_ADDR, unless the site is configured to sit behind TAROTCLUB_PROXY_COUNT proxies
    (TAROTCLUB_BEHIND_PROXY): then the address the outermost of them saw, which is the
    TAROTCLUB_PROXY_COUNT-th entry of X-Forwarded-For from the right. Entries to its left
    are written by the client and never believed.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    if not getattr(settings, "TAROTCLUB_BEHIND_PROXY", False):
        return remote
    count = max(1, int(getattr(settings, "TAROTCLUB_PROXY_COUNT", 1)))
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [h for h in hops if h]
    if len(hops) < count:
        return remote
    candidate = hops[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def cool_off_minutes(request=None) -> int:
    from axes.helpers import get_cool_off

    cool_off = get_cool_off(request)
    return max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0


def lockout_message(minutes: int) -> str:
    return ngettext(
        "Too many failed logins for this account from this device. Logging in is paused for "
        "%(minutes)s minute: wait, then try again. Forgot your password? "
        "A director can set a new one.",
        "Too many failed logins for this account from this device. Logging in is paused for "
        "%(minutes)s minutes: wait, then try again. Forgot your password? "
        "A director can set a new one.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request, original_response=None, credentials=None):
    """The page axes answers once an account is locked for this client (AXES_LOCKOUT_CALLABLE)."""
    minutes = cool_off_minutes(request)
    response = render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(minutes)},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    return response


class ClubBackend(ModelBackend):
    """Django's own backend, except that the demo account's published password only works
    under the development settings (TAROTCLUB_DEMO_ACCOUNT). A database made with `make run`
    and then served with `make serve` still holds the account: it stays shut."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if (
            user is not None
            and not getattr(settings, "TAROTCLUB_DEMO_ACCOUNT", False)
            and user.get_username() == DEMO_USER
            and password == DEMO_PASSWORD
        ):
            return None
        return user

    def get_user(self, user_id):
        """As Django's: the active user `user_id`, else None; read by one plain SELECT
        (`core.sql`), since every request of a signed-in member or director asks for it and
        the ORM compiled the query in several times the time the database took to answer."""
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
        if not isinstance(pk, int) or not low <= pk <= high:
            return super().get_user(user_id)
        with connection.cursor() as cursor:
            cursor.execute(_user_sql(model, connection.vendor), [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        user = sql.columns_of(model, "u").build(row)
        return user if self.user_can_authenticate(user) else None


@functools.cache
def _user_sql(model, vendor: str) -> str:
    columns = sql.columns_of(model, "u")
    return (
        f"SELECT {columns.sql} FROM {sql.table(model)} u"
        f" WHERE u.{sql.quote(model._meta.pk.column)} = %s"
    )
