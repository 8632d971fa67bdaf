from django.contrib import admin

from .models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "nickname", "licence", "active", "guest")
    list_filter = ("active", "guest")
    search_fields = ("name", "nickname", "licence")
