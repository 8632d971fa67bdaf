"""The season's standings on paper (served by `reports.views.pdf`, like every printout)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tarotclub.reports.exports import filename
from tarotclub.reports.printouts import Printout

from .models import Season


class SeasonStandingsPrintout(Printout):
    identifier = "season_standings"
    template = "seasons/standings_pdf.html"

    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        self.season = get_object_or_404(Season, pk=kwargs["pk"])

    def context(self) -> dict:
        from .views import standings_context

        season = self.season
        return {
            **standings_context(season),
            "event": season.name,
            "event_date": None,
            "event_place": "",
            "doc_title": _("Season standings"),
        }

    def name(self) -> str:
        return filename("season", self.season.name, self.season.start, "pdf")
