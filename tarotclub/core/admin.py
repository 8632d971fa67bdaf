"""The Django admin is a read-only window on the club.

Every write to the club goes through the site's services: they keep a deal's score lines, the
sheet's revision and the history right, which a form saving a model directly cannot. So the
club's models are shown read-only here, to directors (staff) too; accounts stay managed here,
but are deactivated rather than deleted (the history says who did what).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .models import LogEntry


class ReadOnlyAdmin(admin.ModelAdmin):
    """Look, never write: no add, change or delete, no bulk action. Any director may look."""

    actions = None

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_staff


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "action_label", "object_repr", "content_type", "user")
    list_filter = ("action", "content_type")
    list_select_related = ("content_type", "user")
    search_fields = ("object_repr", "action")
    date_hierarchy = "at"


User = get_user_model()
_BaseUserAdmin = type(admin.site._registry[User]) if admin.site.is_registered(User) else UserAdmin
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(_BaseUserAdmin):
    """Accounts are deactivated (untick "active"), never deleted: deleting one would blank the
    "who" of every history entry it made."""

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
