from django.urls import URLPattern, URLResolver, path

from games.api.feed_views import GameEventsApi, GameStreamApi
from games.bench_views import bench_urlpatterns

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<uuid:game_id>/events", GameEventsApi.as_view(), name="game-events"),
    path("games/<uuid:game_id>/stream", GameStreamApi.as_view(), name="game-stream"),
    # Empty unless BELOTE_BENCH_ENDPOINTS is on (the load benchmark's server only).
    *bench_urlpatterns(),
]
