"""The site's middleware: requests whose data cannot be read refused; the policy header.

Refuse, with a translated 400 page, requests whose form data cannot be read as a person's:

- a NUL character anywhere in the path or the data: no database stores it, no person types it;
- a NUL character in a cookie: PostgreSQL refuses the session lookup of such a session cookie
  (a 500 on every page); the cookie is ignored and deleted in the answer;
- a body declared in a charset other than UTF-8 (or its subset ASCII), or a charset name that
  does not exist: the site's forms are UTF-8, and Django refuses other charsets by raising;
- a body Django cannot parse: a multipart body with a missing or bad boundary, more fields
  than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``, a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

Django raises for the last two the first time ``request.POST`` (or ``request.GET``) is read.
Read anywhere else, that exception becomes a 500 with ``DEBUG`` on (the debug page reads
``request.POST`` again) and an untranslated page otherwise. Here the data is read once, up
front, and every such request gets the same translated answer before any view runs.
"""

from __future__ import annotations

import codecs
import functools
from importlib import import_module

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.core.signals import setting_changed
from django.http import QueryDict
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

#: The charsets a form body may declare: UTF-8 and its subset, ASCII (codec names).
READABLE_CHARSETS = frozenset({"utf-8", "ascii"})

#: What reading a body or a query string raises when it cannot be read.
UNREADABLE = (
    BadRequest,
    SuspiciousOperation,  # TooManyFieldsSent, TooManyFilesSent, RequestDataTooBig
    MultiPartParserError,
    UnicodeDecodeError,
    LookupError,
    ValueError,
)


def _has_nul(request) -> bool:
    if "\x00" in request.path:
        return True
    queries = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    for query in queries:
        for key, values in query.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                return True
    return False


def _declared_charset_is_readable(request) -> bool:
    """No charset declared, or one that names UTF-8 or ASCII ("UTF8", "us-ascii"...)."""
    charset = request.content_params.get("charset") if request.content_params else None
    if charset is None:
        return True
    try:
        name = codecs.lookup(charset.strip()).name
    except (LookupError, ValueError):
        return False
    return name in READABLE_CHARSETS


def _forget_data(request) -> None:
    """After a failed read: empty data, so nothing that renders the page reads it again."""
    request.GET = QueryDict()
    request._post, request._files = QueryDict(), MultiValueDict()


def drop_nul_cookies(request) -> list[str]:
    """Forget the cookies holding a NUL (and a session read from one); return their names."""
    bad = [k for k, v in request.COOKIES.items() if "\x00" in k or "\x00" in v]
    if bad:
        request.COOKIES = {k: v for k, v in request.COOKIES.items() if k not in bad}
        if settings.SESSION_COOKIE_NAME in bad and hasattr(request, "session"):
            request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    return bad


def problem(request) -> str | None:
    """Why the request's data cannot be read (a translated sentence), or None."""
    if request.method == "POST" and not _declared_charset_is_readable(request):
        _forget_data(request)
        return _("The form was sent in a text encoding the site does not read (only UTF-8).")
    if request.encoding not in (None, "utf-8"):
        # "UTF8", "ascii": the same bytes, read as UTF-8. A GET's Content-Type says nothing
        # about its query string, which Django would otherwise decode in that charset.
        request.encoding = "utf-8"
    try:
        nul = _has_nul(request)
    except UNREADABLE:
        _forget_data(request)
        return _(
            "The form data could not be read: it is malformed or too large. "
            "Reload the page and try again."
        )
    if nul:
        return _("The request contains a character that is not allowed.")
    return None


class RejectNulMiddleware:
    """Answer 400, with a sentence in the user's language, when `problem` finds one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        bad_cookies = drop_nul_cookies(request)
        detail = problem(request)
        if bad_cookies and not detail:
            detail = _("The request contains a character that is not allowed.")
        if detail:
            response = render(
                request, "core/error.html", {"status": 400, "detail": detail}, status=400
            )
            for name in bad_cookies:
                response.delete_cookie(name)
            return response
        return self.get_response(request)


class MethodNotAllowedPageMiddleware:
    """A 405 answered with the site's page in the user's language, not the browser's own error
    in English: Django's `require_POST` sends an empty body, and Chromium then shows "This page
    isn't working". It happens when an address a button posts to is opened in the browser: a
    bookmark, a reload of it, a link shared, or a form posted where it should not be. The
    status and the Allow header stay; nothing was done (the view never ran)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        opened = request.method in ("GET", "HEAD")
        page = render(request, "core/error.html", {"status": 405, "opened": opened}, status=405)
        if "Allow" in response:
            page["Allow"] = response["Allow"]
        return page


# --- the Content-Security-Policy header ------------------------------------------------------

#: What a view sets on its answer to change the policy (django-csp's decorators).
POLICY_CHANGES = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)


@functools.cache
def site_policy(report_only: bool = False) -> str:
    """The header of settings.CONTENT_SECURITY_POLICY (or its report-only one), as django-csp
    builds it: the same for every answer no view changes, so built once per process."""
    return build_policy(report_only=report_only)


def _policy_setting_changed(*, setting: str, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        site_policy.cache_clear()


setting_changed.connect(_policy_setting_changed)


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, but the site's policy is not built again for every answer
    (issue 12: some 5 % of a poll's time on the server, twice over for the report-only header).

    An answer a view changed the policy of (django-csp's decorators), or whose page used a
    nonce, gets django-csp's own treatment; every other gets the same header as django-csp
    would give it (tests/core/test_policy_header.py), with its exemptions and excluded
    prefixes.
    """

    def process_response(self, request, response):
        changed = any(getattr(response, name, None) is not None for name in POLICY_CHANGES)
        if changed or getattr(request, "_csp_nonce", None) is not None or settings.DEBUG:
            return super().process_response(request, response)
        for report_only, header, exempt, name in (
            (False, HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
        ):
            policy = site_policy(report_only)
            if not policy or header in response or getattr(response, exempt, False):
                continue
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # as django-csp: a nonce asked for after the header is written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
