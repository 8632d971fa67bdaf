"""Refuse requests that carry a NUL character: no database stores it, no person types it."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _


def _has_nul(request) -> bool:
    if "\x00" in request.path:
        return True
    queries = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    for query in queries:
        for key, values in query.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                return True
    return False


class RejectNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            return render(
                request,
                "core/error.html",
                {
                    "status": 400,
                    "detail": _("The request contains a character that is not allowed."),
                },
                status=400,
            )
        return self.get_response(request)
