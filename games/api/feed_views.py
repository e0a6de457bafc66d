"""A game's live feed: its events after a cursor (optionally long-polled) and an SSE stream.

Both are coroutine views served under ASGI: a client waiting for the next event holds
neither a worker thread nor a database connection while it waits (see games/feed/).
Authentication, permissions and error answers are DRF's, as on every other endpoint.
"""

import contextlib
import functools
import re
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any
from uuid import UUID

from adrf.views import APIView as AsyncAPIView
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.http import HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from belote_project.query import query_values
from belote_project.schema import invalid_request, throttled
from games.api.conditions import MAX_VERSION
from games.api.event_serializers import events_field
from games.api.problems import GAME_NOT_FOUND
from games.feed.leases import FeedSlot, TooManyFeeds, feed_slot_take
from games.feed.selectors import FeedPage, FeedViewer, SignedOut
from games.feed.waiting import event_stream, wait_for_page

MAX_WAIT_SECONDS = 30
# A seq as a client echoes it in Last-Event-ID: ASCII digits, no more than a version has.
_SEQ = re.compile(r"[0-9]{1,10}")
DEFAULT_LIMIT = 100
MAX_LIMIT = 500

TOO_MANY_FEEDS = (
    "`too_many_feeds`: the caller already holds as many streams and held long-polls as it "
    "may (`MAX_OPEN_FEEDS_PER_USER`); close one. `Retry-After`: the longest the slot of a "
    "feed that vanished unannounced stays taken."
)


def _viewer(request: Request, game_id: UUID) -> FeedViewer:
    # IsAuthenticated (the default permission) ran before any handler.
    assert isinstance(request.user, AbstractBaseUser)
    token_id = getattr(request.auth, "pk", None)
    return FeedViewer(game_id=game_id, user_id=request.user.pk, token_id=token_id)


async def _slot(viewer: FeedViewer) -> FeedSlot:
    try:
        return await feed_slot_take(viewer.user_id)
    except TooManyFeeds as full:
        detail = gettext("At most %(limit)d feeds may be open at once; close one first.")
        raise Throttled(
            wait=full.retry_after, detail=detail % {"limit": full.limit}, code="too_many_feeds"
        ) from full


@contextlib.asynccontextmanager
async def _slot_held(viewer: FeedViewer) -> AsyncIterator[None]:
    async with await _slot(viewer):
        yield


@contextlib.contextmanager
def _still_signed_in() -> Iterator[None]:
    try:
        yield
    except SignedOut as gone:  # logged out (or expired) while the answer was held
        raise AuthenticationFailed(
            gettext("The token is invalid, expired or revoked."), code="invalid_token"
        ) from gone


class ProblemsWhateverIsAccepted(BaseContentNegotiation):
    """The feed's successes set their own content type (a JSON page, an event stream);
    its errors are problem+json whatever the client accepts (an EventSource sends
    `Accept: text/event-stream`), so the first renderer is always chosen."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


# adrf's APIView (untyped) awaits coroutine handlers after DRF's authentication,
# permissions and throttles, and answers errors through the one exception handler.
class FeedApi(AsyncAPIView):  # type: ignore[misc]
    """Only GET, answered by a coroutine `get`."""

    http_method_names = ("get",)
    renderer_classes = (JSONRenderer,)
    content_negotiation_class = ProblemsWhateverIsAccepted

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """DRF's checks, then the token query's database connection back to the pool:
        the thread they ran on serves other feed requests, and this one may now wait
        for seconds (otherwise it goes back when a request on that thread starts or ends)."""
        try:
            super().initial(request, *args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()


class GameEventsApi(FeedApi):
    """A page of the game's events after `after`, each as the caller may see it.

    With `wait`, the answer is held until an event after `after` exists (or `wait`
    seconds pass: then `events` is empty). Resume with `after=last_seq`.
    """

    class InputSerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            min_value=0,
            max_value=MAX_VERSION,
            default=0,
            help_text="Return events with a seq greater than this.",
        )
        limit = serializers.IntegerField(
            min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT, help_text="Page size."
        )
        wait = serializers.FloatField(
            min_value=0,
            max_value=MAX_WAIT_SECONDS,
            default=0,
            help_text="Long-poll: seconds to wait for an event after `after` when there is "
            "none. A poll that waits counts as one of the caller's open feeds.",
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
        responses={
            200: OutputSerializer,
            **invalid_request("`after`, `limit` or `wait` is invalid (see `errors`)."),
            **GAME_NOT_FOUND,
            **throttled(TOO_MANY_FEEDS, "too_many_feeds", name="TooManyFeeds"),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        query = self.InputSerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        wait = query.validated_data["wait"]
        viewer = _viewer(request, kwargs["game_id"])
        # Only a poll that is held takes one of the caller's feed slots, before it waits:
        # one that its first read answers (the follower was behind) costs the cache nothing.
        hold = functools.partial(_slot_held, viewer)
        with _still_signed_in():
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


def _no_content() -> HttpResponse:
    response = HttpResponse(status=204)
    del response["Content-Type"]  # no body, so no type (Django sets text/html by default)
    return response


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
        parameters=[
            InputSerializer,
            OpenApiParameter(
                "Last-Event-ID",
                {"type": "integer", "minimum": 0, "maximum": MAX_VERSION},
                OpenApiParameter.HEADER,
                description="Resume after this seq (sent by EventSource on reconnect); "
                "it takes precedence over `after`.",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                {"type": "string"},
                description="The event stream: per event, `id:` its seq, `event:` its type "
                "and `data:` the `Event` as JSON.",
            ),
            204: OpenApiResponse(description="The game is over and you have seen it all."),
            **invalid_request("`after` or `Last-Event-ID` is invalid (see `errors`)."),
            **GAME_NOT_FOUND,
            **throttled(TOO_MANY_FEEDS, "too_many_feeds", name="TooManyFeeds"),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        resume_from = request.headers.get("Last-Event-ID")
        if resume_from is not None and not _SEQ.fullmatch(resume_from):
            raise serializers.ValidationError(
                {
                    "Last-Event-ID": [
                        gettext("Send the `id` of the last event received (ASCII digits).")
                    ]
                }
            )
        query = self.InputSerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        if resume_from is not None:
            query = self.InputSerializer(data={"after": resume_from})
        query.is_valid(raise_exception=True)
        after = query.validated_data["after"]
        viewer = _viewer(request, kwargs["game_id"])
        async with await _slot(viewer) as slot:
            with _still_signed_in():
                first = await wait_for_page(viewer, after=after, limit=1, wait=0)
            if first.finished and first.version <= after:
                return _no_content()
            # The stream serves the seat found now; it ends if the viewer's seat changes.
            frames = slot.hand_over(event_stream(viewer, after=after, seat=first.seat))
        response = StreamingHttpResponse(frames, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a buffering proxy would hold events back
        return response
