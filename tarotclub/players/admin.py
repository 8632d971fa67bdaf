"""The roster, read-only: players are added and renamed on the site (players.services)."""

from django.contrib import admin
from django.urls import reverse

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "nickname", "licence", "active", "guest")
    list_filter = ("active", "guest")
    search_fields = ("name", "nickname", "licence")

    def view_on_site(self, obj):
        return reverse("players:edit", args=[obj.pk])
