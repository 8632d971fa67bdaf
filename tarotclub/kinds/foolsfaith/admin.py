from django.contrib import admin

from .models import Challenge, ChallengeAward


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["text", "active", "order"]
    list_editable = ["active", "order"]


@admin.register(ChallengeAward)
class ChallengeAwardAdmin(admin.ModelAdmin):
    list_display = ["game", "card", "player", "text", "awarded_by", "created_at"]
    list_select_related = ["game", "player", "awarded_by"]
    raw_id_fields = ["game"]
