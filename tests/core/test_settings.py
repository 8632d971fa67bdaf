"""The production settings: a real secret key, HTTPS by default, a proxy trusted only when told.

Each configuration is loaded in a fresh interpreter, exactly as the server would load it, so the
environment variables are read the way they are in production.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tarotclub.settings.secret_key import secret_key_problem

ROOT = Path(__file__).resolve().parents[2]
STRONG = "k7Qe-2vR_pXz9LmA4sBwY1cN8dFhJ3tU6gKoE5iW0rTyM-qPaZx"  # 51 characters, many distinct

PRINT = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({n: getattr(s, n) for n in ("
    "'DEBUG', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', "
    "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_PROXY_SSL_HEADER', 'ALLOWED_HOSTS', "
    "'TAROTCLUB_BEHIND_PROXY', 'TAROTCLUB_PLAIN_HTTP', 'TAROTCLUB_DEMO_ACCOUNT', "
    "'MIDDLEWARE', 'INSTALLED_APPS')} | "
    "{'STATICFILES': s.STORAGES['staticfiles']['BACKEND']}))"
)


def production_env(tmp_path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TAROTCLUB_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tarotclub.settings.production",
        DJANGO_SECRET_KEY=STRONG,
        DJANGO_ALLOWED_HOSTS="tarot.example.org",
        TAROTCLUB_VAR_DIR=str(tmp_path),
        PYTHONPATH=str(ROOT),
    )
    env.pop("DATABASE_URL", None)
    env.update(extra)
    return env


def run(args, env, timeout=120):
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def production_settings(tmp_path, **extra) -> dict:
    done = run(["-c", PRINT], production_env(tmp_path, **extra))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "key, why",
    [
        ("", "empty"),
        ("short-but-random-Zq8", "shorter than 50"),
        ("ab" * 40, "fewer than 5 different"),
        ("django-insecure-" + "q8Zr3vN1xK" * 5, "placeholder"),
        ("dev-only-not-secret-" + "x" * 40, "placeholder"),  # the key of `make run`
        ("test-only-not-secret-" + "x" * 40, "placeholder"),  # the key of the tests
        ("changeme" + "Zq8r3vN1xKa" * 5, "placeholder"),
        ("CHANGE-ME" + "Zq8r3vN1xKa" * 5, "placeholder"),
        ("secret" + "Zq8r3vN1xKa" * 5, "placeholder"),
        ("replace-me" + "Zq8r3vN1xKa" * 5, "placeholder"),
        ("  " + "Zq8r3vN1xKa" * 5, "spaces"),
    ],
)
def test_weak_secret_keys_are_named(key, why):
    problem = secret_key_problem(key)
    assert problem is not None
    assert why in problem


def test_a_strong_key_passes():
    assert secret_key_problem(STRONG) is None
    import secrets

    assert secret_key_problem(secrets.token_urlsafe(50)) is None


@pytest.mark.parametrize(
    "key",
    ["", "dev-only-not-secret-" + "x" * 40, "x" * 60, "django-insecure-abc", "tooshort"],
)
def test_production_refuses_to_start_with_a_weak_key(tmp_path, key):
    env = production_env(tmp_path, DJANGO_SECRET_KEY=key)
    done = run(["-c", "import django; django.setup()"], env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "DJANGO_SECRET_KEY" in done.stderr
    # the message says how to make a good one
    assert "secrets.token_urlsafe" in done.stderr


def test_production_defaults_are_https_without_a_proxy(tmp_path):
    s = production_settings(tmp_path)
    assert s["DEBUG"] is False
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SECURE_HSTS_SECONDS"] >= 30 * 24 * 3600
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True
    # no proxy configured: a client's X-Forwarded-Proto is not believed
    assert s["SECURE_PROXY_SSL_HEADER"] is None
    assert s["TAROTCLUB_BEHIND_PROXY"] is False
    assert s["TAROTCLUB_DEMO_ACCOUNT"] is False
    assert s["STATICFILES"] == "tarotclub.core.staticfiles.StaticFilesStorage"  # WhiteNoise's
    assert s["MIDDLEWARE"][1] == "whitenoise.middleware.WhiteNoiseMiddleware"
    assert s["MIDDLEWARE"][2] == "django.middleware.gzip.GZipMiddleware"  # pages compressed
    for app in ("axes", "csp"):
        assert app in s["INSTALLED_APPS"]


def test_behind_a_proxy_the_forwarded_proto_is_trusted(tmp_path):
    s = production_settings(tmp_path, TAROTCLUB_BEHIND_PROXY="1")
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["TAROTCLUB_BEHIND_PROXY"] is True
    assert s["SECURE_SSL_REDIRECT"] is True


def test_plain_http_for_a_club_lan_turns_https_off(tmp_path):
    s = production_settings(tmp_path, TAROTCLUB_PLAIN_HTTP="1")
    assert s["TAROTCLUB_PLAIN_HTTP"] is True
    assert s["SECURE_SSL_REDIRECT"] is False
    assert s["SECURE_HSTS_SECONDS"] == 0
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is False
    assert s["SECURE_PROXY_SSL_HEADER"] is None


def test_check_deploy_is_clean_with_a_proper_key(tmp_path):
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env(tmp_path)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_check_deploy_on_a_plain_http_lan_warns_only_about_https(tmp_path):
    """The club laptop (`make serve`) serves plain HTTP on the room's Wi-Fi: these four
    warnings, and only these, are expected there (no HTTPS, so no HSTS, redirect or secure
    cookies)."""
    done = run(
        ["manage.py", "check", "--deploy"], production_env(tmp_path, TAROTCLUB_PLAIN_HTTP="1")
    )
    assert done.returncode == 0, done.stderr
    found = set(re.findall(r"\((security\.W\d+)\)", done.stdout + done.stderr))
    assert found == {"security.W004", "security.W008", "security.W012", "security.W016"}


def test_dev_settings_keep_the_demo_account():
    from tarotclub.settings import base, dev

    assert dev.TAROTCLUB_DEMO_ACCOUNT is True
    assert base.TAROTCLUB_DEMO_ACCOUNT is False


def test_every_static_file_a_template_names_exists():
    """Production's manifest storage fails the page (a 500) on a name it does not know; the
    tests' plain storage would not notice, so every name in the templates is looked up."""
    from django.contrib.staticfiles import finders

    texts = [p.read_text(encoding="utf-8") for p in ROOT.glob("templates/**/*.html")]
    texts += [p.read_text(encoding="utf-8") for p in ROOT.glob("tarotclub/**/templates/**/*.html")]
    names = {n for t in texts for n in re.findall(r"{% static ['\"]([^'\"]+)['\"]", t)}
    assert {"css/site.css", "js/htmx.min.js", "js/site.js", "js/steppers.js"} <= names
    for name in names:
        assert finders.find(name), name


def test_the_suite_can_run_under_the_production_settings(tmp_path):
    """tarotclub.settings.test_production (`make test-production`) is production as
    `make serve` runs it, with nothing but a random key and the test hosts filled in."""
    env = production_env(tmp_path, DJANGO_SETTINGS_MODULE="tarotclub.settings.test_production")
    for name in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        env.pop(name)
    done = run(["-c", PRINT], env)
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["STATICFILES"] == "tarotclub.core.staticfiles.StaticFilesStorage"  # WhiteNoise's
    assert s["TAROTCLUB_PLAIN_HTTP"] is True and s["DEBUG"] is False
    assert "testserver" in s["ALLOWED_HOSTS"]
