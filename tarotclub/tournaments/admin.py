"""Tournaments, entries and tables, read-only: directors run them on the site."""

from django.contrib import admin
from django.urls import reverse

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Entry, Table, Tournament


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "date", "status", "current_round", "rounds", "ranking")
    list_filter = ("status",)
    search_fields = ("name", "place")

    def view_on_site(self, obj):
        return reverse("tournaments:manage", args=[obj.pk])


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "player", "licence", "first_round", "last_round")
    list_select_related = ("tournament", "player")


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "round", "number", "game")
    list_select_related = ("tournament", "game")
    raw_id_fields = ("game",)
