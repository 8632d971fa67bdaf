"""Games, records and their history: read-only (writes go through the services)."""

from django.contrib import admin
from django.urls import reverse

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Change, Game, Record, Seat


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "created_at", "finished_at", "locked", "revision")
    list_filter = ("kind", "locked")
    search_fields = ("name",)

    def view_on_site(self, obj):
        return reverse("games:sheet", args=[obj.token])


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "position", "player")
    list_select_related = ("game", "player")
    raw_id_fields = ("game",)


@admin.register(Record)
class RecordAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "version", "updated_at")
    list_select_related = ("game",)
    raw_id_fields = ("game",)


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "action", "user", "at")
    list_filter = ("action",)
    list_select_related = ("game", "user")
    raw_id_fields = ("game",)
