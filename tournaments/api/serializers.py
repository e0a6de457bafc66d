"""The tournament API's bodies: what it answers (typed for the schema) and what it takes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.request_bodies import OptionsField, OptionsSerializer
from tournaments.formats import Outcome
from tournaments.models import (
    FirstRound,
    Format,
    NoShow,
    RoundStatus,
    TeamStatus,
    TournamentStatus,
)
from tournaments.services.boards import BOARD_REVEALED, BOARDS_COMMITTED
from tournaments.services.progress import GAME_FINISHED, ROUND_STARTED, TOURNAMENT_FINISHED
from tournaments.services.registration import BOARDS_MAX, SWISS_ROUNDS_MAX

Serializer = serializers.Serializer[Any]
#: as games' BotLevel (labels too: the schema names one enum for one set of choices)
BOT_LEVELS = [("random", "Random"), ("basic", "Basic"), ("expert", "Expert")]
MEMBER_KINDS = ("user", "bot")
OUTCOMES = [outcome.value for outcome in Outcome]


class _Text(serializers.CharField):
    """A string, and only a string: DRF's CharField would turn a number into one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class MemberSerializer(Serializer):
    kind = serializers.ChoiceField(choices=MEMBER_KINDS)
    username = serializers.CharField(allow_null=True, help_text="The player; null for a bot.")
    bot_level = serializers.ChoiceField(choices=BOT_LEVELS, allow_null=True)


class TeamSerializer(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(help_text="1 is the best; registration order.")
    status = serializers.ChoiceField(choices=TeamStatus.choices)
    players = MemberSerializer(many=True, help_text="The captain, then the partner.")
    first_round = serializers.IntegerField(help_text="The first round it plays (late entry).")
    withdrawn_from_round = serializers.IntegerField(
        allow_null=True, help_text="The first round it no longer plays, once withdrawn."
    )


class TournamentSerializer(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.choices)
    organiser = serializers.CharField(help_text="The organiser's username.")
    options = OptionsSerializer(help_text="The table options of every game.")
    no_show = serializers.ChoiceField(choices=NoShow.choices)
    rounds = serializers.IntegerField(allow_null=True, help_text="Swiss: the rounds asked for.")
    boards = serializers.IntegerField(
        allow_null=True, help_text="Duplicate: the boards each pairing plays a round."
    )
    first_round = serializers.ChoiceField(choices=FirstRound.choices)
    rated = serializers.BooleanField()
    allow_bot_partners = serializers.BooleanField()
    registration_opens_at = serializers.DateTimeField()
    registration_closes_at = serializers.DateTimeField(allow_null=True)
    status = serializers.ChoiceField(choices=TournamentStatus.choices)
    current_round = serializers.IntegerField(help_text="0 before the start.")
    total_rounds = serializers.IntegerField(help_text="Fixed at the start; 0 before.")
    paused = serializers.BooleanField(
        help_text="An operator paused it: no round opens (nor does it start by itself) "
        "until they resume it; games being played go on."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    teams = TeamSerializer(many=True)


def _format_count(most: int, help_text: str) -> serializers.IntegerField:
    """A count only one format takes: 1 to `most`, or absent (the service decides)."""
    return serializers.IntegerField(
        min_value=1, max_value=most, required=False, allow_null=True, help_text=help_text
    )


@extend_schema_serializer(component_name="TournamentCreateInput")
class TournamentCreateSerializer(Serializer):
    name = _Text(min_length=1, max_length=100)
    format = serializers.ChoiceField(choices=Format.choices)
    options = OptionsField(required=False, default=dict)
    no_show = serializers.ChoiceField(choices=NoShow.choices, default=NoShow.BOT)
    rounds = _format_count(
        SWISS_ROUNDS_MAX,
        "Swiss only (required there); the other formats' count follows the teams.",
    )
    boards = _format_count(
        BOARDS_MAX, "Duplicate only (required there): the boards each pairing plays a round."
    )
    first_round = serializers.ChoiceField(choices=FirstRound.choices, default=FirstRound.SEEDED)
    rated = serializers.BooleanField(default=False)
    allow_bot_partners = serializers.BooleanField(default=False)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)


@extend_schema_serializer(component_name="TeamRegisterInput")
class TeamRegisterSerializer(Serializer):
    name = _Text(min_length=1, max_length=60)
    partner = _Text(
        min_length=1,
        max_length=150,
        required=False,
        help_text="Your partner's username: they accept the invitation to register the team.",
    )
    partner_bot = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="A bot partner, where allowed."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("partner" in attrs) == ("partner_bot" in attrs):
            raise serializers.ValidationError("Give either `partner` or `partner_bot`.")
        return attrs


@extend_schema_serializer(component_name="BotTeamInput")
class BotTeamSerializer(Serializer):
    name = _Text(min_length=1, max_length=60)
    levels = serializers.ListField(
        child=serializers.ChoiceField(choices=BOT_LEVELS), min_length=2, max_length=2
    )


class StandingSerializer(Serializer):
    rank = serializers.IntegerField()
    team = TeamSerializer()
    played = serializers.IntegerField()
    match_points = serializers.IntegerField(help_text="2 a win or bye, 1 a draw, 0 a loss.")
    point_difference = serializers.IntegerField()
    head_to_head = serializers.IntegerField(
        help_text="Match points won against the teams level on points and difference."
    )
    buchholz = serializers.IntegerField(help_text="Swiss: the opponents' match points.")
    sonneborn_berger = serializers.IntegerField(
        help_text="Swiss: each opponent's match points times the 2/1/0 the match gave."
    )


class BoardSerializer(Serializer):
    board = serializers.IntegerField()
    commitment = serializers.CharField(
        help_text="SHA-256 commitment to the board's secret, published before the pairings."
    )
    secret = serializers.CharField(
        allow_null=True,
        help_text="The board's secret s(1), once both tables have finished (docs/fairness.md).",
    )
    first_game_id = serializers.UUIDField(
        allow_null=True, help_text="The table where the home team holds seats 0 and 2."
    )
    second_game_id = serializers.UUIDField(
        allow_null=True, help_text="The table where the away team does; dealt after the first."
    )
    first_scores = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The first table's scores, seats 0 and 2 first; null while it plays.",
    )
    second_scores = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The second table's scores, seats 0 and 2 first; null while it plays.",
    )


class MatchSerializer(Serializer):
    table = serializers.IntegerField()
    home = serializers.IntegerField(help_text="The team at seats 0 and 2.")
    away = serializers.IntegerField(allow_null=True, help_text="Seats 1 and 3; null: a bye.")
    game_id = serializers.UUIDField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=OUTCOMES, allow_null=True, help_text="Null while the game is played."
    )
    home_score = serializers.IntegerField(help_text="Game points; a duplicate's: IMPs.")
    away_score = serializers.IntegerField(help_text="Game points; a duplicate's: IMPs.")
    boards = BoardSerializer(many=True, help_text="A duplicate match's boards; else empty.")


class RoundSerializer(Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    started_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    matches = MatchSerializer(many=True)


class PairingSerializer(Serializer):
    table = serializers.IntegerField()
    home = serializers.IntegerField()
    away = serializers.IntegerField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True)


class CommittedBoardSerializer(Serializer):
    table = serializers.IntegerField()
    board = serializers.IntegerField()
    commitment = serializers.CharField()


class ProgressPayloadSerializer(Serializer):
    """The members an entry has depend on its `type` (docs/tournaments.md, "Feed")."""

    round = serializers.IntegerField()
    pairings = PairingSerializer(many=True, required=False, help_text="round_started")
    table = serializers.IntegerField(
        required=False, help_text="game_finished, boards_committed, board_revealed"
    )
    board = serializers.IntegerField(
        required=False, help_text="A duplicate's game_finished and board_revealed: the board."
    )
    boards = CommittedBoardSerializer(
        many=True, required=False, help_text="boards_committed: before the round's pairings"
    )
    commitment = serializers.CharField(required=False, help_text="board_revealed")
    secret = serializers.CharField(
        required=False, help_text="board_revealed: the board's secret s(1)"
    )
    game_id = serializers.UUIDField(required=False, help_text="game_finished")
    outcome = serializers.ChoiceField(choices=OUTCOMES, required=False, help_text="game_finished")
    home_score = serializers.IntegerField(required=False, help_text="game_finished")
    away_score = serializers.IntegerField(required=False, help_text="game_finished")
    winner = serializers.IntegerField(
        required=False, allow_null=True, help_text="tournament_finished: the first team."
    )


class ProgressSerializer(Serializer):
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(
        choices=(
            BOARDS_COMMITTED,
            ROUND_STARTED,
            GAME_FINISHED,
            BOARD_REVEALED,
            TOURNAMENT_FINISHED,
        )
    )
    created_at = serializers.DateTimeField()
    payload = ProgressPayloadSerializer()


class RatingSerializer(Serializer):
    username = serializers.CharField()
    rating = serializers.FloatField(help_text="mu - 3 sigma: what is shown and ranked.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField(help_text="The uncertainty.")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Still uncertain: sigma above 6.")


class RatingChangeSerializer(Serializer):
    game_id = serializers.UUIDField()
    at = serializers.DateTimeField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    rating_after = serializers.FloatField()
