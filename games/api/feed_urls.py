"""Routes of the live feed: a game's events by long-poll, and its SSE stream."""

from django.urls import URLPattern, URLResolver, path

from games.api.feed_views import GameEventsApi, GameStreamApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<uuid:game_id>/events", GameEventsApi.as_view(), name="game-events"),
    path("games/<uuid:game_id>/stream", GameStreamApi.as_view(), name="game-stream"),
]
