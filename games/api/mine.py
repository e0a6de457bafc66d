"""The caller's own endpoints: the games they sit at, and their own feed of notices
(long-poll and SSE, on the game feed's machinery: docs/feed.md, "Your own feed")."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpResponseBase, JsonResponse
from drf_spectacular.utils import (
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from belote_project.pagination import CursorPage, CursorPageQuery
from belote_project.query import query_values
from belote_project.schema import CURSOR_NOT_FOUND, invalid_request, throttled
from games.api import feed_base
from games.api.answers import player
from games.api.fields import PHASES, seat_field, team_field, team_pair
from games.feed.notices import NoticePage, PlayerViewer, notice_stream, notices_after
from games.models import GameStatus, NoticeType
from games.selectors.mine import ACTIVE, FINISHED, my_game_summary, my_games
from games.services.notices import PLAYER_KEY_PREFIX

Serializer = serializers.Serializer[Any]
#: the largest notice seq a cursor may name (ten digits, as `Last-Event-ID` takes)
MAX_NOTICE_SEQ = 9_999_999_999


@extend_schema_serializer(component_name="MyGame")
class MyGameSerializer(Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Send it as `expected_version` to act.")
    phase = serializers.ChoiceField(choices=PHASES)
    seat = seat_field(help_text="Your seat.")
    absent = serializers.BooleanField(help_text="A bot plays your seat (docs/clocks.md).")
    turn = seat_field(allow_null=True, help_text="The seat to play; null unless playing.")
    my_turn = serializers.BooleanField(help_text="The game waits for you.")
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn's clock runs out, whoever's turn it is."
    )
    scores = team_pair("Game scores.")
    winner = team_field(allow_null=True)
    created_at = serializers.DateTimeField()


def notice_seq_field() -> serializers.IntegerField:
    return serializers.IntegerField(help_text="Your feed's cursor: 1, 2, 3... with no gap.")


@extend_schema_serializer(component_name="GameNotice")
class GameNoticeSerializer(Serializer):
    """Something one of your games asks of you or tells you."""

    seq = notice_seq_field()
    type = serializers.ChoiceField(choices=NoticeType.choices)
    game_id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="The game's version when it was written.")
    seat = seat_field(allow_null=True, help_text="Your seat at that game.")
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="`your_turn`: when your clock runs out (null: untimed)."
    )
    reason = serializers.ChoiceField(
        choices=("timeout", "left", "never_filled"),
        allow_null=True,
        help_text="`seat_absent`: why a bot took your seat; `table_closed`: why it closed.",
    )
    created_at = serializers.DateTimeField()


#: notice type -> its component: a game's, and those other apps add (`notice_kind_add`)
_NOTICE_KINDS: dict[str, Serializer | type[Serializer]] = dict.fromkeys(
    NoticeType.values, GameNoticeSerializer
)


def notice_kind_add(notice_type: str, serializer: type[Serializer]) -> None:
    """Document another app's notice type in `/me/events` and `/me/stream` (the app
    writes them with `games.services.app_notices_write`): `serializer` names its members,
    `seq` and `type` (that one value) first, `created_at` last. Called from the app's
    `ready()`, before any schema is drawn."""
    if _NOTICE_KINDS.get(notice_type, serializer) is not serializer:
        raise ValueError(f"notice type {notice_type!r} is documented already")
    _NOTICE_KINDS[notice_type] = serializer


def _notices_field() -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name="PlayerNotice",
        serializers=lambda: dict(_NOTICE_KINDS),
        resource_type_field_name="type",
        many=True,
    )


MY_GAMES_PROBLEMS = {
    **invalid_request("`status`, `cursor` or `page_size` is invalid (see `errors`)."),
    **CURSOR_NOT_FOUND,
}


class MyGamesApi(APIView):
    class FilterSerializer(CursorPageQuery):
        status = serializers.ChoiceField(
            choices=(ACTIVE, FINISHED),
            default=ACTIVE,
            help_text="`active`: waiting or playing (default); `finished`: over.",
        )

    @extend_schema_serializer(component_name="MyGamePage")
    class PageSerializer(Serializer):
        next = serializers.URLField(allow_null=True, help_text="The following page's URL.")
        previous = serializers.URLField(allow_null=True, help_text="The preceding page's URL.")
        results = MyGameSerializer(many=True)

    @extend_schema(
        tags=["me"],
        operation_id="list_my_games",
        summary="The games you sit at, with whether each waits for you",
        description="Newest first, a page at a time (follow `next`).",
        parameters=[FilterSerializer],
        responses={200: PageSerializer, **MY_GAMES_PROBLEMS},
    )
    def get(self, request: Request) -> Response:
        query = self.FilterSerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        page = CursorPage()
        games = my_games(user=player(request), status=query.validated_data["status"])
        rows = page.paginate_queryset(games, request, view=self) or []
        return page.get_paginated_response([my_game_summary(row) for row in rows])


def _viewer(request: Request) -> PlayerViewer:
    assert isinstance(request.user, AbstractBaseUser)
    return PlayerViewer(user_id=request.user.pk, token_id=getattr(request.auth, "pk", None))


def _after_field(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=MAX_NOTICE_SEQ, default=0, help_text=help_text
    )


class MyEventsApi(feed_base.FeedApi):
    """A page of the caller's notices after `after` (optionally long-polled)."""

    class InputSerializer(feed_base.LongPollQuery):
        after = _after_field("Return notices with a seq greater than this.")

    @extend_schema_serializer(component_name="PlayerNoticePage")
    class OutputSerializer(Serializer):
        notices = _notices_field()
        last_seq = serializers.IntegerField(help_text="Cursor: pass it as `after` to continue.")
        next = serializers.URLField(allow_null=True, help_text="More notices: their page.")

    @extend_schema(
        tags=["me"],
        operation_id="list_my_events",
        summary="Your own feed: your turns, games started and over, seats a bot took",
        description=(
            "Your notices after `after`, oldest first: `your_turn` (in which game, at "
            "which version, until when), `game_started`, `seat_absent` (a bot took your "
            "seat), `game_finished`, `table_closed`; and the notices other parts of the "
            "service add (a tournament you play in: its `PlayerNotice` components). With "
            "`wait` and nothing after "
            "`after`, the answer waits for the next notice, or `wait` seconds and then "
            "answers none. Continue with `after=last_seq`."
        ),
        parameters=[InputSerializer],
        responses={200: OutputSerializer, **feed_base.LONG_POLL_PROBLEMS},
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        query = self.InputSerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        user_id = _viewer(request).user_id
        page = await feed_base.list_long_poll(
            request,
            f"{PLAYER_KEY_PREFIX}{user_id}",
            functools.partial(
                notices_after,
                user_id,
                query.validated_data["after"],
                query.validated_data["limit"],
            ),
            answers=lambda page: bool(page.notices),
            wait=query.validated_data["wait"],
        )
        return JsonResponse(_page_body(request, page))


def _page_body(request: Request, page: NoticePage) -> dict[str, Any]:
    following = None
    if page.has_more:
        following = replace_query_param(request.build_absolute_uri(), "after", page.last_seq)
    return {"notices": page.notices, "last_seq": page.last_seq, "next": following}


class StreamQuery(Serializer):
    after = _after_field("Start after this seq (the `Last-Event-ID` header takes precedence).")


class MyStreamApi(feed_base.FeedApi):
    """The caller's notices as Server-Sent Events, from `after` (or `Last-Event-ID`) on."""

    @extend_schema(
        summary="Your own feed as Server-Sent Events, live",
        tags=["me"],
        operation_id="stream_my_events",
        description=(
            "`text/event-stream`: one event per notice, with `id:` its seq, `event:` its "
            "type and `data:` the same JSON object as an item of `notices` in your "
            "events list. A comment line is sent every 15 s of silence. A client "
            "reconnecting with `Last-Event-ID` resumes after that seq. The stream ends "
            "once the caller's token is revoked or expires (reconnecting then answers "
            "401). It counts as one of the caller's open feeds."
        ),
        parameters=[StreamQuery, feed_base.last_event_id_parameter(MAX_NOTICE_SEQ)],
        responses={
            **feed_base.event_stream_answer("`PlayerNotice`"),
            **invalid_request("`after` or `Last-Event-ID` is invalid (see `errors`)."),
            **throttled(feed_base.TOO_MANY_FEEDS, "too_many_feeds", name="TooManyFeeds"),
        },
    )
    async def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        after, viewer = feed_base.stream_cursor(request, StreamQuery), _viewer(request)
        async with await feed_base.feed_slot(viewer.user_id) as slot:
            frames = slot.hand_over(notice_stream(viewer, after=after))
        return feed_base.event_stream_response(frames)
