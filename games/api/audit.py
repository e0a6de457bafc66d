"""Audit endpoints: a game's log as NDJSON, the verifier's report on it, and the game as
of any event (docs/audit.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from belote_project.query import query_values
from belote_project.schema import invalid_request, problem
from games import selectors
from games.api.answers import player
from games.api.audit_serializers import (
    AuditReportSerializer,
    ExportEventSerializer,
    ReplayViewSerializer,
)
from games.api.conditions import MAX_VERSION
from games.api.problems import GAME_NOT_FOUND

Serializer = serializers.Serializer[Any]
View = TypeVar("View", bound=Callable[..., Any])
NDJSON = "application/x-ndjson"
PLAIN_TEXT = "text/plain"
# Logs differ per caller's rights, and a running game's belongs to staff only.
_PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}

LOG_NOT_PUBLISHED = problem(
    409,
    "GameNotOver",
    ["game_not_over"],
    "The game is still running: its log (which holds the current hand's secret seed) is "
    "published when it ends; staff may read it at any time.",
)


def _documented(
    name: str, summary: str, description: str, answers: dict[Any, Any], query: Any = None
) -> Callable[[View], View]:
    """The OpenAPI entry of one audit operation (tag `audit`)."""
    return extend_schema(
        tags=["audit"],
        operation_id=name,
        summary=summary,
        description=description,
        parameters=[] if query is None else [query],
        responses=answers,
    )


def _query(serializer: type[Serializer], request: Request) -> dict[str, Any]:
    """The validated query parameters (400 otherwise)."""
    checked = serializer(data=query_values(request))
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class GameExportApi(APIView):
    @_documented(
        "export_game",
        "The game's log, one stored event per line (NDJSON)",
        "Every stored event in seq order from 1, one JSON object per line (the schema "
        "shows the lines as an array): its hash chains it to the one before "
        "(docs/audit.md). Feed it to `python -m games.audit.verify` to check the game "
        "offline. Published once the game has ended; staff may read it at any time.",
        {
            (200, NDJSON): OpenApiResponse(
                ExportEventSerializer(many=True), description="One event per line."
            ),
            **LOG_NOT_PUBLISHED,
            **GAME_NOT_FOUND,
        },
    )
    def get(self, request: Request, game_id: UUID) -> HttpResponse:
        rows = selectors.game_log(game_id, player(request))
        body = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
        answer = HttpResponse(body, content_type=NDJSON, headers=_PRIVATE)
        answer["Content-Disposition"] = f'attachment; filename="belote-{game_id}.ndjson"'
        return answer


class GameRecordApi(APIView):
    @_documented(
        "game_record",
        "The game as people read it: tag pairs, deals, bidding, play by trick, scores",
        "A plain-text record in the spirit of chess's PGN and bridge's PBN, written from "
        'the stored events (docs/audit.md, "A readable record"); `python -m '
        "games.audit.record` prints the same from an export. Published, like the log, "
        "once the game has ended; staff may read it at any time.",
        {
            (200, PLAIN_TEXT): OpenApiResponse(
                {"type": "string"}, description="The record, UTF-8 text."
            ),
            **LOG_NOT_PUBLISHED,
            **GAME_NOT_FOUND,
        },
    )
    def get(self, request: Request, game_id: UUID) -> HttpResponse:
        text = selectors.game_record_text(game_id, player(request))
        return HttpResponse(text, content_type=f"{PLAIN_TEXT}; charset=utf-8", headers=_PRIVATE)


@extend_schema_serializer(component_name="GameAuditQuery")
class AuditQuerySerializer(Serializer):
    bots = serializers.BooleanField(
        required=False, default=False, help_text="Also re-derive every bot move (slower)."
    )


class GameAuditApi(APIView):
    @_documented(
        "audit_game",
        "Audit the game: its chain, its deals and every move, by the rules",
        "Runs the offline verifier (docs/audit.md) on the stored log: `valid`, or the "
        "first `discrepancy` (`seq`, `what`, `expected`, `found`). Published, like the "
        "log, once the game has ended; staff may audit a running game.",
        {
            200: AuditReportSerializer,
            **invalid_request("`bots` is not a boolean (see `errors`)."),
            **LOG_NOT_PUBLISHED,
            **GAME_NOT_FOUND,
        },
        AuditQuerySerializer,
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        bots = _query(AuditQuerySerializer, request)["bots"]
        return Response(selectors.game_audit(game_id, player(request), bots=bots), headers=_PRIVATE)


@extend_schema_serializer(component_name="GameReplayQuery")
class ReplayQuerySerializer(Serializer):
    seq = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The event after which to see the game (0: before the first).",
    )


class GameReplayApi(APIView):
    @_documented(
        "replay_game",
        "The game as of event `seq`",
        "While the game runs, the view your seat had right after event `seq` (a "
        "spectator's view if you do not play): nothing you could not see then. Once it "
        "has ended, `complete` is true and `all_hands` shows every seat's cards.",
        {
            200: ReplayViewSerializer,
            **invalid_request("`seq` is missing or not a whole number from 0 (see `errors`)."),
            **problem(
                404,
                "GameOrEventNotFound",
                ["game_not_found", "event_not_found", "not_found"],
                "No such game, or `seq` is past its last event (`event_not_found`).",
            ),
        },
        ReplayQuerySerializer,
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        seq = _query(ReplayQuerySerializer, request)["seq"]
        return Response(selectors.game_replay(game_id, player(request), seq), headers=_PRIVATE)
