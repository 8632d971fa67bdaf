from django.contrib import admin

from .models import Deal


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "taker", "contract", "bouts", "points_half", "version")
