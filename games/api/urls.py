"""The game endpoints' URLs (the live feed's are in feed_urls.py)."""

from django.urls import URLPattern, URLResolver, include, path

from games.api.views import (
    BotSeatApi,
    GameActApi,
    GameDetailApi,
    GameListCreateApi,
    SeatJoinApi,
    SeatLeaveApi,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("games", GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", GameDetailApi.as_view(), name="game"),
    path("games/<uuid:game_id>/seats", SeatJoinApi.as_view(), name="game-seats"),
    path("games/<uuid:game_id>/seats/<int:seat>", SeatLeaveApi.as_view(), name="game-seat"),
    path("games/<uuid:game_id>/bots", BotSeatApi.as_view(), name="game-bots"),
    path("games/<uuid:game_id>/actions", GameActApi.as_view(), name="game-actions"),
    path("", include("games.api.feed_urls")),
]
