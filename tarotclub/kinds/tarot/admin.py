"""French Tarot's deals and score lines: read-only (writes go through the tarot services)."""

from django.contrib import admin

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Deal, DealLine


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "taker", "contract", "bouts", "points_half", "version")
    list_select_related = ("game", "taker")
    raw_id_fields = ("game",)


@admin.register(DealLine)
class DealLineAdmin(ReadOnlyAdmin):
    list_display = ("deal", "player", "score")
    list_select_related = ("deal__game", "player")
    raw_id_fields = ("deal",)
