"""The roster, read-only: players are added and renamed on the site (players.services)."""

from django.contrib import admin
from django.urls import reverse

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Player
from .selectors import players_matching


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    """Read-only: players are added and changed on the roster pages, through the services,
    which clean the names, refuse look-alikes and keep the history."""

    list_display = ("name", "nickname", "licence", "active", "guest")
    list_filter = ("active", "guest")
    search_fields = ("name", "nickname", "licence")

    def get_search_results(self, request, queryset, search_term):
        """Without case, accents or hidden characters, as on the roster page."""
        if not search_term.strip():
            return queryset, False
        by_licence = queryset.filter(licence__iexact=search_term.strip())
        return players_matching(search_term, queryset) | by_licence, False

    def view_on_site(self, obj):
        return reverse("players:edit", args=[obj.pk])
