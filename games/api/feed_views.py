"""A game's live feed: its events after a cursor (optionally long-polled) and an SSE stream.

Both are coroutine views served under ASGI: a client waiting for the next event holds
neither a worker thread nor a database connection while it waits (see games/feed/).
Authentication, permissions and error answers are DRF's, as on every other endpoint;
what they share with the caller's own feed is in feed_base.py.
"""

import functools
from typing import Any
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpResponseBase, JsonResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from belote_project.query import validated_query
from belote_project.schema import invalid_request, throttled
from games.api.conditions import MAX_VERSION
from games.api.event_serializers import events_field
from games.api.feed_base import (
    LONG_POLL_PROBLEMS,
    TOO_MANY_FEEDS,
    FeedApi,
    LongPollQuery,
    event_stream_answer,
    event_stream_response,
    feed_slot,
    feed_slot_held,
    last_event_id_parameter,
    no_content,
    still_signed_in,
    stream_cursor,
)
from games.api.problems import GAME_NOT_FOUND
from games.feed.selectors import FeedPage, FeedViewer
from games.feed.waiting import event_stream, wait_for_page


def _viewer(request: Request, game_id: UUID) -> FeedViewer:
    # IsAuthenticated (the default permission) ran before any handler.
    assert isinstance(request.user, AbstractBaseUser)
    token_id = getattr(request.auth, "pk", None)
    return FeedViewer(game_id=game_id, user_id=request.user.pk, token_id=token_id)


class GameEventsApi(FeedApi):
    """A page of the game's events after `after`, each as the caller may see it.

    With `wait`, the answer is held until an event after `after` exists (or `wait`
    seconds pass: then `events` is empty). Resume with `after=last_seq`.
    """

    class InputSerializer(LongPollQuery):
        after = serializers.IntegerField(
            min_value=0,
            max_value=MAX_VERSION,
            default=0,
            help_text="Return events with a seq greater than this.",
        )

    @extend_schema_serializer(component_name="GameEventsOutput")
    class OutputSerializer(serializers.Serializer[Any]):
        events = events_field("The events after `after`, as you may see them.")
        last_seq = serializers.IntegerField(
            help_text="Cursor: pass it as `after` to continue (it also moves past events "
            "this viewer may not see, so a page can be empty and still advance)."
        )
        version = serializers.IntegerField(help_text="The game's latest seq.")
        next = serializers.URLField(
            allow_null=True, help_text="The following page, when more events are stored."
        )

    @extend_schema(
        tags=["feed"],
        operation_id="list_events",
        summary="A game's events after a cursor, as you may see them (long-poll)",
        description=(
            "Events after `after`, each as you may see it (other seats' cards removed). "
            "With `wait`, the answer is held until there is one (or `wait` seconds pass: "
            "`events` is then empty). Continue with `after=last_seq`."
        ),
        parameters=[InputSerializer],
        responses={200: OutputSerializer, **LONG_POLL_PROBLEMS, **GAME_NOT_FOUND},
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return await events_answer(request, _viewer(request, kwargs["game_id"]))


async def events_answer(request: Request, viewer: FeedViewer) -> HttpResponseBase:
    """`GameEventsApi`'s answer to `viewer`, who is authenticated (the view, and the
    feed's hot path: feed_hot.py)."""
    query = validated_query(GameEventsApi.InputSerializer, request)
    after, limit, wait = query["after"], query["limit"], query["wait"]
    # Only a poll that is held takes one of the caller's feed slots, before it waits:
    # one that its first read answers (the follower was behind) costs the cache nothing.
    hold = functools.partial(feed_slot_held, viewer.user_id)
    with still_signed_in():
        page = await wait_for_page(viewer, after=after, limit=limit, wait=wait, hold=hold)
    return JsonResponse(_page_body(request, page))


def _page_body(request: Request, page: FeedPage) -> dict[str, Any]:
    following = None
    if page.has_more:
        following = replace_query_param(request.build_absolute_uri(), "after", page.last_seq)
    return {
        "events": page.events,
        "last_seq": page.last_seq,
        "version": page.version,
        "next": following,
    }


class GameStreamApi(FeedApi):
    """The game's events as Server-Sent Events, from `after` (or `Last-Event-ID`) on."""

    class InputSerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            min_value=0,
            max_value=MAX_VERSION,
            default=0,
            help_text="Start after this seq (the `Last-Event-ID` header takes precedence).",
        )

    @extend_schema(
        tags=["feed"],
        operation_id="stream_events",
        summary="A game's events as Server-Sent Events, live",
        description=(
            "`text/event-stream`: one event per stored game event the caller may see, "
            "with `id:` its seq, `event:` its type and `data:` the same JSON object as "
            "an item of `events` in the events list. A comment line is sent every 15 s "
            "of silence. The stream ends after `game_finished`; a client reconnecting "
            "with `Last-Event-ID` resumes after that seq. A finished game with nothing "
            "after the cursor answers 204, which stops an EventSource from reconnecting. "
            "The stream also ends once the caller's token is revoked or expires "
            "(reconnecting then answers 401), and when the caller's seat changes (it "
            "sat down, left or moved while the table filled): reconnecting is then "
            "served for the seat it holds. It counts as one of the caller's open feeds."
        ),
        parameters=[InputSerializer, last_event_id_parameter(MAX_VERSION)],
        responses={
            **event_stream_answer("`Event`"),
            204: OpenApiResponse(description="The game is over and you have seen it all."),
            **invalid_request("`after` or `Last-Event-ID` is invalid (see `errors`)."),
            **GAME_NOT_FOUND,
            **throttled(TOO_MANY_FEEDS, "too_many_feeds", name="TooManyFeeds"),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return await stream_answer(request, _viewer(request, kwargs["game_id"]))


async def stream_answer(request: Request, viewer: FeedViewer) -> HttpResponseBase:
    """`GameStreamApi`'s answer to `viewer`, who is authenticated (the view, and the
    feed's hot path: feed_hot.py)."""
    after = stream_cursor(request, GameStreamApi.InputSerializer)
    async with await feed_slot(viewer.user_id) as slot:
        with still_signed_in():
            first = await wait_for_page(viewer, after=after, limit=1, wait=0)
        if first.finished and first.version <= after:
            return no_content()
        # The stream serves the seat found now; it ends if the viewer's seat changes.
        frames = slot.hand_over(event_stream(viewer, after=after, seat=first.seat))
    return event_stream_response(frames)
