"""Password guessing is braked, and the demo account lives only under the dev settings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from tarotclub.core import security

pytestmark = pytest.mark.django_db

LIMIT = 5


def attempt(client, username, password, *, url="/login/", **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def lock_out(client, username="member", **extra):
    """LIMIT wrong passwords; the last one is already answered with the lockout page."""
    responses = [attempt(client, username, f"wrong-{i}", **extra) for i in range(LIMIT)]
    assert [r.status_code for r in responses[:-1]] == [200] * (LIMIT - 1)
    return responses[-1]


def test_the_limit_is_the_configured_one(settings):
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True
    fifteen = dt.timedelta(minutes=15)
    assert fifteen == settings.AXES_COOLOFF_TIME


def test_wrong_passwords_lock_the_account_out_even_for_the_right_one(member):
    client = Client()
    last = lock_out(client)
    assert last.status_code == 429
    right = attempt(client, "member", "pw-member-1")
    assert right.status_code == 429
    assert not logged_in(client)
    text = right.content.decode()
    with translation.override("en"):
        assert security.lockout_message(15) in text
    assert "Too many failed logins" in text
    assert "15 minutes" in text
    # the page has the site's look: the header and the language switcher
    assert 'class="site-header"' in text and "lang-switcher" in text


@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_the_lockout_page_speaks_the_visitors_language(member, lang):
    client = Client(headers={"accept-language": lang})
    lock_out(client)
    right = attempt(client, "member", "pw-member-1")
    assert right.status_code == 429
    text = right.content.decode()
    assert f'<html lang="{lang}">' in text
    with translation.override(lang):
        assert security.lockout_message(15) in text
        assert gettext("Log in") in text  # a link back to the login page, in that language


def test_another_user_from_the_same_address_can_still_log_in(member, director):
    client = Client()
    lock_out(client, "member")
    other = attempt(client, "director", "pw-director-1")
    assert other.status_code == 302
    assert logged_in(client)


def test_the_same_user_from_another_address_can_still_log_in(member):
    lock_out(Client(REMOTE_ADDR="10.0.0.5"))
    elsewhere = Client(REMOTE_ADDR="10.0.0.6")
    assert attempt(elsewhere, "member", "pw-member-1").status_code == 302


def test_after_the_cool_off_the_right_password_works_again(member):
    from axes.models import AccessAttempt

    client = Client()
    lock_out(client)
    assert attempt(client, "member", "pw-member-1").status_code == 429
    # fifteen minutes later (the attempts are dated in the database)
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=16))
    right = attempt(client, "member", "pw-member-1")
    assert right.status_code == 302
    assert logged_in(client)


def test_a_success_resets_the_count(member):
    client = Client()
    for i in range(LIMIT - 1):
        assert attempt(client, "member", f"wrong-{i}").status_code == 200
    assert attempt(client, "member", "pw-member-1").status_code == 302
    client.post("/logout/")
    for i in range(LIMIT - 1):
        assert attempt(client, "member", f"wrong-again-{i}").status_code == 200
    assert attempt(client, "member", "pw-member-1").status_code == 302


def test_the_admin_login_is_braked_too(director):
    client = Client()
    for i in range(LIMIT - 1):
        assert attempt(client, "director", f"wrong-{i}", url="/admin/login/").status_code == 200
    assert attempt(client, "director", "wrong", url="/admin/login/").status_code == 429
    refused = attempt(client, "director", "pw-director-1", url="/admin/login/")
    assert refused.status_code == 429
    assert not logged_in(client)


def test_forged_forwarded_for_is_ignored_without_a_proxy(member, settings):
    """Without TAROTCLUB_BEHIND_PROXY, a guesser cannot pose as many clients."""
    settings.TAROTCLUB_BEHIND_PROXY = False
    client = Client()
    codes = [
        attempt(client, "member", f"wrong-{i}", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
        for i in range(LIMIT)
    ]
    assert codes[-1] == 429
    assert attempt(client, "member", "pw-member-1").status_code == 429


def test_behind_a_proxy_the_client_is_the_address_the_proxy_saw(member, settings):
    settings.TAROTCLUB_BEHIND_PROXY = True
    settings.TAROTCLUB_PROXY_COUNT = 1
    # the proxy connects from 127.0.0.1 and appends the address it saw to X-Forwarded-For;
    # whatever the client wrote before it is not believed
    phone = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7"}
    lock_out(Client(**phone))
    assert attempt(Client(**phone), "member", "pw-member-1").status_code == 429
    other = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.8"}
    assert attempt(Client(**other), "member", "pw-member-1").status_code == 302


@pytest.mark.parametrize(
    "behind, count, forwarded_for, expected",
    [
        (False, 1, "1.1.1.1", "10.0.0.1"),
        (True, 1, "1.1.1.1", "1.1.1.1"),
        (True, 1, "6.6.6.6, 2.2.2.2", "2.2.2.2"),
        (True, 2, "6.6.6.6, 3.3.3.3, 9.9.9.9", "3.3.3.3"),
        (True, 2, "4.4.4.4", "10.0.0.1"),
        (True, 1, "not-an-ip", "10.0.0.1"),
        (True, 1, None, "10.0.0.1"),
    ],
)
def test_client_ip(rf, settings, behind, count, forwarded_for, expected):
    settings.TAROTCLUB_BEHIND_PROXY = behind
    settings.TAROTCLUB_PROXY_COUNT = count
    meta = {"REMOTE_ADDR": "10.0.0.1"}
    if forwarded_for is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded_for
    request = rf.get("/", **meta)
    assert security.client_ip(request) == expected


# The demo account ---------------------------------------------------------------------------


def test_demo_club_creates_no_account_without_the_dev_setting(settings, django_user_model):
    settings.DEBUG = False
    settings.TAROTCLUB_DEMO_ACCOUNT = False
    call_command("demo_club", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert not django_user_model.objects.filter(username=security.DEMO_USER).exists()
    from tarotclub.players.models import Player

    assert Player.objects.exists()  # the demo roster and games are still there to look at


def test_demo_club_creates_the_account_under_the_dev_settings(settings, django_user_model):
    settings.TAROTCLUB_DEMO_ACCOUNT = True
    call_command("demo_club", stdout=open("/dev/null", "w"))  # noqa: SIM115
    user = django_user_model.objects.get(username=security.DEMO_USER)
    assert user.check_password(security.DEMO_PASSWORD)


def test_the_published_demo_password_never_opens_production(settings, django_user_model):
    """A database made by `make run` and then served by `make serve` (the same SQLite file)
    still holds the demo account: outside the dev settings, its published password is refused."""
    django_user_model.objects.create_user(
        username=security.DEMO_USER, password=security.DEMO_PASSWORD, is_staff=True
    )
    settings.TAROTCLUB_DEMO_ACCOUNT = False
    client = Client()
    refused = attempt(client, security.DEMO_USER, security.DEMO_PASSWORD)
    assert refused.status_code == 200 and not logged_in(client)
    settings.TAROTCLUB_DEMO_ACCOUNT = True
    assert attempt(Client(), security.DEMO_USER, security.DEMO_PASSWORD).status_code == 302


def test_a_real_user_called_demo_with_a_real_password_still_logs_in(settings, django_user_model):
    django_user_model.objects.create_user(username=security.DEMO_USER, password="a-real-Pass-9")
    settings.TAROTCLUB_DEMO_ACCOUNT = False
    assert attempt(Client(), security.DEMO_USER, "a-real-Pass-9").status_code == 302
