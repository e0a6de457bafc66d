"""The notices a tournament's progress gives its players in `/me/events`, for the schema
(tournaments/services/notices.py writes them; games' `notice_kind_add` documents them)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.fields import seat_field
from games.api.mine import notice_kind_add, notice_seq_field
from tournaments.api.serializers import OUTCOMES
from tournaments.services.progress import GAME_FINISHED, NOTICES, ROUND_STARTED, TOURNAMENT_FINISHED

Serializer = serializers.Serializer[Any]


def _notice(
    kind: str, doc: str, **members: serializers.Field[Any, Any, Any, Any]
) -> type[Serializer]:
    notice_type = NOTICES[kind][0]
    fields = {
        "__doc__": doc,
        "seq": notice_seq_field(),
        "type": serializers.ChoiceField(choices=(notice_type,)),
        "tournament_id": serializers.UUIDField(),
        "round": serializers.IntegerField(min_value=1),
        **members,
        "team": serializers.IntegerField(help_text="Your team."),
        "created_at": serializers.DateTimeField(),
    }
    name = "".join(part.title() for part in notice_type.split("_"))
    cls = type(f"{name}NoticeSerializer", (Serializer,), fields)
    return extend_schema_serializer(component_name=f"{name}Notice")(cls)


def _game(help_text: str) -> serializers.UUIDField:
    return serializers.UUIDField(allow_null=True, help_text=help_text)


NOTICE_SERIALIZERS = {
    ROUND_STARTED: _notice(
        ROUND_STARTED,
        "A round of your tournament started: your table, and the game you are seated at.",
        table=serializers.IntegerField(min_value=1),
        game_id=_game(
            "Your game (follow it at /games/{id}); null: your team has the bye, or the "
            "round is a duplicate's, whose board tables each reach you as `game_started`."
        ),
        seat=seat_field(allow_null=True, help_text="Your seat there; null with no game."),
    ),
    GAME_FINISHED: _notice(
        GAME_FINISHED,
        "Your tournament game's result was recorded (the match's outcome, forfeits included).",
        table=serializers.IntegerField(min_value=1),
        game_id=_game("The game."),
        outcome=serializers.ChoiceField(choices=OUTCOMES),
        home_score=serializers.IntegerField(),
        away_score=serializers.IntegerField(),
    ),
    TOURNAMENT_FINISHED: _notice(
        TOURNAMENT_FINISHED,
        "Your tournament is over.",
        winner=serializers.IntegerField(allow_null=True, help_text="The winning team."),
    ),
}


def notices_documented() -> None:
    """Add the tournament's notices to `/me/events`' schema (from the app's `ready`)."""
    for kind, serializer in NOTICE_SERIALIZERS.items():
        notice_kind_add(NOTICES[kind][0], serializer)
