from django.contrib import admin

from .models import Change, Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "kind", "created_at", "finished_at", "locked")
    list_filter = ("kind",)


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "action", "user", "at")
