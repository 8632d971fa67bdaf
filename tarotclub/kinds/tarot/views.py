"""The French Tarot pages that are not the shared entry screens (see tarotclub/games/views)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from .kind import _offline_script


@require_GET
def offline_text(request, language: str):
    """The sentences of the phone's own preview in `language` (kind.offline_text), as a
    script: the same for every game, kept by the browser and the service worker for a year
    under its versioned address (``?v=``), so each deal page does not carry them."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    script, version = _offline_script(language)
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    if request.GET.get("v") == version:
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:  # an old or missing version: this answer is not kept
        response["Cache-Control"] = "no-cache"
    return response
