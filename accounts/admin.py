"""The Django admin for users and their access tokens."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import AccessToken, User

admin.site.register(User, UserAdmin)


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin[AccessToken]):
    list_display = ("id", "user", "created_at", "expires_at")
    list_select_related = ("user",)
    readonly_fields = ("user", "digest", "created_at")
    search_fields = ("user__username",)
