"""Challenges and the cards given, read-only: the club's list is edited on the site."""

from django.contrib import admin
from django.urls import reverse

from tarotclub.core.admin import ReadOnlyAdmin

from .models import Challenge, ChallengeAward


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["text", "active", "order"]

    def view_on_site(self, obj):
        return reverse("foolsfaith:challenge_edit", args=[obj.pk])


@admin.register(ChallengeAward)
class ChallengeAwardAdmin(ReadOnlyAdmin):
    list_display = ["game", "card", "player", "text", "awarded_by", "created_at"]
    list_select_related = ["game", "player", "awarded_by"]
    raw_id_fields = ["game"]
