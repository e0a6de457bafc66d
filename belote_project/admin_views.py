"""Admin helpers the apps share: pages that show and never edit."""

from typing import Any

from django.http import HttpRequest


class ReadOnly:
    """Mixed into a ModelAdmin or an inline: no add, change or delete (the records are
    immutable events, caches rebuilt from them, or changed only through the services)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
