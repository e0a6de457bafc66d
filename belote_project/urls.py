"""The project's URLs: health, admin, the OpenAPI schema and docs, and the apps' APIs."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from belote_project.session_paths import ADMIN_PATH
from belote_project.views import HealthApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", HealthApi.as_view(), name="healthz"),
    path(ADMIN_PATH.removeprefix("/"), admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the page's CSP runs no inline one.
    path("api/v1/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
]

handler400 = "belote_project.views.bad_request"
handler403 = "belote_project.views.permission_denied"
handler404 = "belote_project.views.page_not_found"
handler500 = "belote_project.views.server_error"
