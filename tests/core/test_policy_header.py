"""The Content-Security-Policy header: django-csp's policy, built once per process (issue 12:
every answer carries it, the poll's 204 included), and still django-csp's own wherever a view
changes it or a nonce is used."""

from __future__ import annotations

from unittest import mock

import pytest
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from tarotclub.core import middleware


def _through(response: HttpResponse, path: str = "/"):
    request = RequestFactory().get(path)
    csp = middleware.ContentSecurityPolicyMiddleware(lambda r: response)
    return csp(request)


def test_every_answer_carries_the_site_policy():
    assert _through(HttpResponse(status=204))["Content-Security-Policy"] == build_policy()


def test_the_policy_is_built_once_not_for_every_answer():
    middleware.site_policy.cache_clear()
    built = mock.Mock(side_effect=build_policy)
    with (
        mock.patch("csp.middleware.build_policy", new=built),  # django-csp's own use
        mock.patch("tarotclub.core.middleware.build_policy", new=built),
    ):
        for _ in range(5):
            _through(HttpResponse())
    assert 1 <= built.call_count <= 2  # the policy and the report-only one, once each


def test_a_view_that_changes_the_policy_gets_its_own():
    response = HttpResponse()
    response._csp_update = {"img-src": ["data:"]}
    header = _through(response)["Content-Security-Policy"]
    assert "img-src 'self' data:" in header


@pytest.mark.django_db
def test_a_changed_setting_gives_the_new_policy():
    _through(HttpResponse())
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": ["'none'"]}}):
        assert _through(HttpResponse())["Content-Security-Policy"] == "default-src 'none'"
    assert _through(HttpResponse())["Content-Security-Policy"] == build_policy()


def test_a_header_already_set_and_an_exempt_answer_are_left_alone():
    response = HttpResponse()
    response["Content-Security-Policy"] = "default-src 'self' example.org"
    assert _through(response)["Content-Security-Policy"] == "default-src 'self' example.org"
    exempt = HttpResponse()
    exempt._csp_exempt = True
    assert "Content-Security-Policy" not in _through(exempt)
