"""The game endpoints' URLs (the live feed's are in feed_urls.py, the caller's own in
mine_urls.py)."""

from django.urls import URLPattern, URLResolver, include, path, register_converter

from games.api.audit import GameAuditApi, GameExportApi, GameRecordApi, GameReplayApi
from games.api.presence import SeatLeaveRunningApi, SeatReturnApi
from games.api.tables import BotSeatApi, GameListCreateApi, SeatJoinApi, SeatLeaveApi
from games.api.views import GameActApi, GameDetailApi
from games.services.tables import SEATS


class SeatNumberConverter:
    """A seat number in a path: only the table's seats (0-3) route; any other number,
    however long, is no seat at all (404) before a view or a query runs."""

    regex = f"[{SEATS.start}-{SEATS.stop - 1}]"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SeatNumberConverter, "seat")

urlpatterns: list[URLPattern | URLResolver] = [
    path("games", GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", GameDetailApi.as_view(), name="game"),
    path("games/<uuid:game_id>/seats", SeatJoinApi.as_view(), name="game-seats"),
    path("games/<uuid:game_id>/seats/<seat:seat>", SeatLeaveApi.as_view(), name="game-seat"),
    path(
        "games/<uuid:game_id>/seats/<seat:seat>/leave",
        SeatLeaveRunningApi.as_view(),
        name="game-seat-leave",
    ),
    path(
        "games/<uuid:game_id>/seats/<seat:seat>/return",
        SeatReturnApi.as_view(),
        name="game-seat-return",
    ),
    path("games/<uuid:game_id>/bots", BotSeatApi.as_view(), name="game-bots"),
    path("games/<uuid:game_id>/actions", GameActApi.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/export", GameExportApi.as_view(), name="game-export"),
    path("games/<uuid:game_id>/audit", GameAuditApi.as_view(), name="game-audit"),
    path("games/<uuid:game_id>/record", GameRecordApi.as_view(), name="game-record"),
    path("games/<uuid:game_id>/replay", GameReplayApi.as_view(), name="game-replay"),
    path("", include("games.api.feed_urls")),
    path("", include("games.api.mine_urls")),
]
