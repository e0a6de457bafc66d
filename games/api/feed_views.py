"""A game's live feed: its events after a cursor (optionally long-polled) and an SSE stream.

Both are coroutine views served under ASGI: a client waiting for the next event holds
neither a worker thread nor a database connection while it waits (see games/feed/).
Authentication, permissions and error answers are DRF's, as on every other endpoint.
"""

from typing import Any
from uuid import UUID

from asgiref.sync import sync_to_async
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from belote_project.schema import problem_responses
from games.feed.selectors import FeedPage, FeedViewer, SignedOut, feed_viewer
from games.feed.waiting import event_stream, wait_for_page

MAX_WAIT_SECONDS = 30
DEFAULT_LIMIT = 100
MAX_LIMIT = 500

_feed_viewer = sync_to_async(feed_viewer)


async def _viewer(request: Request, game_id: UUID) -> FeedViewer:
    # IsAuthenticated (the default permission) ran before any handler.
    assert isinstance(request.user, AbstractBaseUser)
    token_id = getattr(request.auth, "pk", None)
    return await _feed_viewer(game_id=game_id, user=request.user, token_id=token_id)


async def _page(viewer: FeedViewer, *, after: int, limit: int, wait: float) -> FeedPage:
    try:
        return await wait_for_page(viewer, after=after, limit=limit, wait=wait)
    except SignedOut as gone:  # logged out (or expired) while the answer was held
        raise AuthenticationFailed(
            "The token is invalid, expired or revoked.", code="invalid_token"
        ) from gone


class AsyncApiView(APIView):
    """An APIView whose handlers are coroutines.

    DRF dispatches synchronously, so this dispatch runs DRF's request policies
    (authentication, permissions, throttles) and its exception handler in a worker
    thread and awaits the handler itself on the event loop. Only GET is served.
    """

    http_method_names = ["get"]
    renderer_classes = (JSONRenderer,)

    async def dispatch(  # type: ignore[override]
        self, request: HttpRequest, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        self.args, self.kwargs = args, kwargs
        drf_request = self.initialize_request(request, *args, **kwargs)
        self.request = drf_request
        self.headers = self.default_response_headers
        try:
            await sync_to_async(self.initial)(drf_request, *args, **kwargs)
            if request.method != "GET":
                self.http_method_not_allowed(drf_request)
            response: HttpResponseBase = await self.get(drf_request, *args, **kwargs)
        except Exception as exc:
            return await sync_to_async(self._error_response)(drf_request, exc)
        return response

    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        raise NotImplementedError

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[Any, str]:
        # Errors are problem+json whatever the client accepts (an EventSource sends
        # `Accept: text/event-stream`); successes set their own content type.
        return super().perform_content_negotiation(request, force=True)

    def _error_response(self, request: Request, exc: Exception) -> HttpResponseBase:
        response = self.finalize_response(request, self.handle_exception(exc))
        response.render()
        return response


class FeedEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="Position in the game's stream (1, 2, 3 ...).")
    type = serializers.CharField(help_text="Event type, e.g. `card_played`.")
    v = serializers.IntegerField(help_text="Schema version of this event type.")
    actor = serializers.ChoiceField(choices=("user", "bot", "system"))
    created_at = serializers.DateTimeField()
    # DRF takes declared fields off the class, so this does not shadow Serializer.data.
    data = serializers.DictField(  # type: ignore[assignment]
        help_text="The payload as this viewer may see it (another seat's cards removed)."
    )


class GameEventsApi(AsyncApiView):
    """A page of the game's events after `after`, each as the caller may see it.

    With `wait`, the answer is held until an event after `after` exists (or `wait`
    seconds pass: then `events` is empty). Resume with `after=last_seq`.
    """

    class InputSerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            min_value=0, default=0, help_text="Return events with a seq greater than this."
        )
        limit = serializers.IntegerField(
            min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT, help_text="Page size."
        )
        wait = serializers.FloatField(
            min_value=0,
            max_value=MAX_WAIT_SECONDS,
            default=0,
            help_text="Long-poll: seconds to wait for an event after `after` when there is none.",
        )

    class OutputSerializer(serializers.Serializer[Any]):
        events = FeedEventSerializer(many=True)
        last_seq = serializers.IntegerField(
            help_text="Cursor: pass it as `after` to continue (it also moves past events "
            "this viewer may not see, so a page can be empty and still advance)."
        )
        version = serializers.IntegerField(help_text="The game's latest seq.")
        next = serializers.URLField(
            allow_null=True, help_text="The following page, when more events are stored."
        )

    @extend_schema(
        operation_id="games_events_list",
        summary="A game's events after a cursor, as the caller may see them (long-poll)",
        parameters=[InputSerializer],
        responses={
            200: OutputSerializer,
            **problem_responses({400: "`after`, `limit` or `wait` is invalid (see `errors`)."}),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        query = self.InputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        viewer = await _viewer(request, kwargs["game_id"])
        page = await _page(viewer, after=after, limit=limit, wait=query.validated_data["wait"])
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


class GameStreamApi(AsyncApiView):
    """The game's events as Server-Sent Events, from `after` (or `Last-Event-ID`) on."""

    class InputSerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            min_value=0,
            default=0,
            help_text="Start after this seq (the `Last-Event-ID` header takes precedence).",
        )

    @extend_schema(
        operation_id="games_events_stream",
        summary="A game's events as Server-Sent Events, live",
        description=(
            "`text/event-stream`: one event per stored game event the caller may see, "
            "with `id:` its seq, `event:` its type and `data:` the same JSON object as "
            "an item of `events` in the events list. A comment line is sent every 15 s "
            "of silence. The stream ends after `game_finished`; a client reconnecting "
            "with `Last-Event-ID` resumes after that seq. A finished game with nothing "
            "after the cursor answers 204, which stops an EventSource from reconnecting. "
            "The stream also ends once the caller's token is revoked or expires; "
            "reconnecting then answers 401."
        ),
        parameters=[
            InputSerializer,
            OpenApiParameter(
                "Last-Event-ID",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                description="Resume after this seq (sent by EventSource on reconnect).",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR, description="The event stream."
            ),
            204: OpenApiResponse(description="The game is over and the caller has seen it all."),
            **problem_responses({400: "`after` or `Last-Event-ID` is invalid."}),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        resume_from = request.headers.get("Last-Event-ID")
        raw = {"after": resume_from} if resume_from is not None else request.query_params
        query = self.InputSerializer(data=raw)
        query.is_valid(raise_exception=True)
        after = query.validated_data["after"]
        viewer = await _viewer(request, kwargs["game_id"])
        first = await _page(viewer, after=after, limit=1, wait=0)
        if first.finished and first.version <= after:
            return HttpResponse(status=204)
        response = StreamingHttpResponse(
            event_stream(viewer, after=after), content_type="text/event-stream"
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a buffering proxy would hold events back
        return response
