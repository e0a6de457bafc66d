"""Routes of the accounts API: register, sign in for a token, sign out, who am I."""

from django.urls import URLPattern, path

from accounts.api.views import LogoutApi, MeApi, MeDeletionApi, RegisterApi, TokenApi

urlpatterns: list[URLPattern] = [
    path("auth/register", RegisterApi.as_view(), name="auth-register"),
    path("auth/token", TokenApi.as_view(), name="auth-token"),
    path("auth/logout", LogoutApi.as_view(), name="auth-logout"),
    path("me", MeApi.as_view(), name="me"),
    path("me/deletion", MeDeletionApi.as_view(), name="me-deletion"),
]
