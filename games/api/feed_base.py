"""What the feeds share: the base view, the feed slots, the long-poll's query, the
long-poll of a numbered list, the stream's cursor and answer, and their places in the
schema.

A game's feed (feed_views.py), the caller's own feed (mine.py) and another app's list
(a tournament's progress) are the same kind of endpoint: coroutine views under ASGI, a
wait that holds one of the caller's feed slots, a stream resumed with `Last-Event-ID`,
errors as problem+json whatever is accepted.
"""

import contextlib
import functools
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any, TypeVar

from adrf.views import APIView as AsyncAPIView
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from belote_project.query import query_values
from belote_project.schema import invalid_request, throttled
from games.feed.leases import FeedSlot, TooManyFeeds, feed_slot_take
from games.feed.lists import wait_for_list
from games.feed.selectors import SignedOut

MAX_WAIT_SECONDS = 30
# A seq as a client echoes it in Last-Event-ID: ASCII digits, no more than a version has.
_SEQ = re.compile(r"[0-9]{1,10}")
DEFAULT_LIMIT = 100
MAX_LIMIT = 500

Page = TypeVar("Page")

TOO_MANY_FEEDS = (
    "`too_many_feeds`: the caller already holds as many streams and held long-polls as it "
    "may (`MAX_OPEN_FEEDS_PER_USER`); close one. `Retry-After`: the longest the slot of a "
    "feed that vanished unannounced stays taken."
)


async def feed_slot(user_id: int) -> FeedSlot:
    """One of the user's feed slots, or 429 `too_many_feeds`."""
    try:
        return await feed_slot_take(user_id)
    except TooManyFeeds as full:
        detail = gettext("At most %(limit)d feeds may be open at once; close one first.")
        raise Throttled(
            wait=full.retry_after, detail=detail % {"limit": full.limit}, code="too_many_feeds"
        ) from full


@contextlib.asynccontextmanager
async def feed_slot_held(user_id: int) -> AsyncIterator[None]:
    async with await feed_slot(user_id):
        yield


@contextlib.contextmanager
def still_signed_in() -> Iterator[None]:
    try:
        yield
    except SignedOut as gone:  # logged out (or expired) while the answer was held
        raise AuthenticationFailed(
            gettext("The token is invalid, expired or revoked."), code="invalid_token"
        ) from gone


async def list_long_poll(
    request: Request,
    key: str,
    read: Callable[[], Page],
    *,
    answers: Callable[[Page], bool],
    wait: float,
) -> Page:
    """A long-poll of a numbered list announced under `key` (the caller's notices, or
    another app's list, such as a tournament's progress, announced with
    `games.services.feed_wake`): `read()` (sync, run off the event loop), then with
    `wait` > 0 again on each wakeup until a page `answers`. A poll that waits holds one
    of the caller's feed slots (429 `too_many_feeds`) and answers 401 once the token
    stops being valid; anything `read` raises answers as it would anywhere."""
    assert isinstance(request.user, AbstractBaseUser)  # the view's permission says so
    user_id: int = request.user.pk
    with still_signed_in():
        return await wait_for_list(
            key,
            read,
            answers=answers,
            wait=wait,
            token_id=getattr(request.auth, "pk", None),
            hold=functools.partial(feed_slot_held, user_id),
        )


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


class LongPollQuery(serializers.Serializer[Any]):
    """A long-poll's page size and wait; each feed adds its own `after`."""

    limit = serializers.IntegerField(
        min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT, help_text="Page size."
    )
    wait = serializers.FloatField(
        min_value=0,
        max_value=MAX_WAIT_SECONDS,
        default=0,
        help_text="Long-poll: seconds to wait for something after `after` when there is "
        "nothing. A poll that waits counts as one of the caller's open feeds.",
    )


#: what any long-poll may be refused with, beside what its resource adds
LONG_POLL_PROBLEMS = {
    **invalid_request("`after`, `limit` or `wait` is invalid (see `errors`)."),
    **throttled(TOO_MANY_FEEDS, "too_many_feeds", name="TooManyFeeds"),
}


def last_event_id_parameter(maximum: int) -> OpenApiParameter:
    """The `Last-Event-ID` header of a stream, for the schema."""
    return OpenApiParameter(
        "Last-Event-ID",
        {"type": "integer", "minimum": 0, "maximum": maximum},
        OpenApiParameter.HEADER,
        description="Resume after this seq (sent by EventSource on reconnect); "
        "it takes precedence over `after`.",
    )


def event_stream_answer(component: str) -> dict[tuple[int, str], OpenApiResponse]:
    """A stream's 200 for the schema: per item, `id:`, `event:` and `data:` `component`."""
    return {
        (200, "text/event-stream"): OpenApiResponse(
            {"type": "string"},
            description="The event stream: per item, `id:` its seq, `event:` its type "
            f"and `data:` the {component} as JSON.",
        )
    }


def stream_cursor(request: Request, query: type[serializers.Serializer[Any]]) -> int:
    """Where a stream starts: `Last-Event-ID` if sent, else the `after` of the query
    (validated by `query`); a 400 naming the header unless it is ASCII digits."""
    resume_from = request.headers.get("Last-Event-ID")
    if resume_from is not None and not _SEQ.fullmatch(resume_from):
        raise serializers.ValidationError(
            {"Last-Event-ID": [gettext("Send the `id` of the last event received (ASCII digits).")]}
        )
    checked = query(data=query_values(request))
    checked.is_valid(raise_exception=True)
    if resume_from is not None:
        checked = query(data={"after": resume_from})
        checked.is_valid(raise_exception=True)
    after: int = checked.validated_data["after"]
    return after


def no_content() -> HttpResponse:
    response = HttpResponse(status=204)
    del response["Content-Type"]  # no body, so no type (Django sets text/html by default)
    return response


def event_stream_response(frames: Any) -> StreamingHttpResponse:
    """`frames` as a `text/event-stream` answer that no cache or proxy holds back."""
    response = StreamingHttpResponse(frames, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a buffering proxy would hold events back
    return response
