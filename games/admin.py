"""Admin: games and their streams, read-only (events are immutable; the rest are caches)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from belote_project.admin_views import ReadOnly
from games.models import Game, GameEvent, Seat


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin[Any]):
    pass


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("seat", "user", "bot_level", "joined_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "status", "phase", "version", "scores", "winner", "created_at")
    list_filter = ("status",)
    search_fields = ("id",)
    inlines = (SeatInline,)


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "type", "schema_version", "actor_kind", "created_at")
    list_filter = ("type", "actor_kind")
    search_fields = ("game__id",)
    ordering = ("game", "seq")
    list_select_related = ("game",)
