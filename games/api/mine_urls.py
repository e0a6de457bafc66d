"""Routes of the caller's own endpoints: their games, and their own feed."""

from django.urls import URLPattern, URLResolver, path

from games.api.mine import MyEventsApi, MyGamesApi, MyStreamApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/games", MyGamesApi.as_view(), name="my-games"),
    path("me/events", MyEventsApi.as_view(), name="my-events"),
    path("me/stream", MyStreamApi.as_view(), name="my-stream"),
]
