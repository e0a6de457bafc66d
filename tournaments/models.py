"""Tables behind a tournament (docs/tournaments.md): its teams, rounds and matches, its
progress feed, and the ratings projected from rated games.

A match's result is copied from its finished game when that game ends; the game's
events stay the truth. Ratings are a projection of rated games (`RatedGame` is the
order they were taken in), rebuilt from the games by `manage.py ratings_rebuild`.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournaments.formats import Outcome


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    DUPLICATE = "duplicate"


class FirstRound(models.TextChoices):
    SEEDED = "seeded"
    RANDOM = "random"


class NoShow(models.TextChoices):
    #: the turn clocks hand an absent player's seat to a bot, who plays it out
    BOT = "bot"
    #: a team with a seat still absent when its game ends forfeits the match
    FORFEIT = "forfeit"


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


class Tournament(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    format = models.CharField(max_length=16, choices=Format.choices)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    #: the table options of every game (games' Options, clocks included), validated
    options = models.JSONField()
    no_show = models.CharField(max_length=8, choices=NoShow.choices, default=NoShow.BOT)
    #: Swiss only: the rounds to play; the other formats' count follows from the teams
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    #: duplicate only: the boards each pairing plays a round (each at two tables)
    boards = models.PositiveSmallIntegerField(null=True, blank=True)
    first_round = models.CharField(
        max_length=8, choices=FirstRound.choices, default=FirstRound.SEEDED
    )
    rated = models.BooleanField(default=False)
    allow_bot_partners = models.BooleanField(default=False)
    registration_opens_at = models.DateTimeField(default=timezone.now)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    #: the seed of a random round-one draw: the tournament's, so the draw can be replayed
    draw_seed = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    #: the round being played (0 before the start)
    current_round = models.PositiveSmallIntegerField(default=0)
    #: the rounds this tournament plays, fixed at the start
    total_rounds = models.PositiveSmallIntegerField(default=0)
    #: an operator's pause (tournaments/services/pausing.py): no round opens while it holds
    paused = models.BooleanField(default=False)
    #: while paused: the round paired but not opened (no game created), and its pairings,
    #: `[{"home": team id, "away": team id or null}, ...]`, opened as they are on resume
    proposed_round = models.PositiveSmallIntegerField(null=True, blank=True)
    proposed_pairings = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"


class TeamStatus(models.TextChoices):
    #: waiting for the invited partner to accept
    INVITED = "invited"
    REGISTERED = "registered"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"


class Team(models.Model):
    """Two players: each a user or a bot level (the captain is a user unless the
    organiser added the team)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=60)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    captain_bot = models.CharField(max_length=8, null=True, blank=True)  # noqa: DJ001
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    partner_bot = models.CharField(max_length=8, null=True, blank=True)  # noqa: DJ001
    status = models.CharField(max_length=12, choices=TeamStatus.choices)
    #: 1 is the best; registration order unless the organiser says otherwise
    seed = models.PositiveIntegerField()
    #: the first round the team plays (later than 1 for a late entry)
    first_round = models.PositiveSmallIntegerField(default=1)
    #: the first round the team no longer plays, once withdrawn
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("tournament", "seed")
        constraints = (
            models.CheckConstraint(
                condition=Q(captain__isnull=False) | Q(captain_bot__isnull=False),
                name="tournaments_team_captain_user_or_bot",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=False) | Q(partner_bot__isnull=False),
                name="tournaments_team_partner_user_or_bot",
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class RoundStatus(models.TextChoices):
    PLAYING = "playing"
    CLOSED = "closed"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=8, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )
    started_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(
                fields=("tournament", "number"), name="tournaments_round_unique_number"
            ),
        )

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


OUTCOMES = [(outcome.value, outcome.value) for outcome in Outcome]


class Match(models.Model):
    """One pairing of a round: `away` null is a bye. `outcome` null: still playing."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    #: the home team holds seats 0 and 2, the away team 1 and 3; null for a bye, and for a
    #: duplicate match, whose games are its boards'
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    outcome = models.CharField(  # noqa: DJ001
        max_length=16, choices=OUTCOMES, null=True, blank=True
    )
    home_score = models.IntegerField(default=0)
    away_score = models.IntegerField(default=0)
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "table")
        constraints = (
            models.UniqueConstraint(fields=("round", "table"), name="tournaments_match_table"),
        )

    def __str__(self) -> str:
        return f"match {self.table} of {self.round}"


class Board(models.Model):
    """A deal of a duplicate match, played at two tables with the teams' seats swapped
    (docs/tournaments.md, "Duplicate"): home at seats 0 and 2 at the first table, away
    at the second. `secret` (the end of its chain of hand secrets) never leaves the
    database; `commitment` is published before the round's pairings, and `revealed` is
    the board's secret s(1), published once both tables have finished."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    secret = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64)
    revealed = models.CharField(max_length=64, default="", blank=True)
    first_game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second_game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    #: each table's scores as its game reports them, seats 0 and 2 first; null: playing
    first_scores = models.JSONField(null=True, blank=True)
    second_scores = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ("match", "number")
        constraints = (
            models.UniqueConstraint(fields=("match", "number"), name="tournaments_board_number"),
        )

    def __str__(self) -> str:
        return f"board {self.number} of {self.match}"


class TournamentEvent(models.Model):
    """One entry of a tournament's progress feed: round started, game finished, ..."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("tournament", "seq")
        constraints = (
            models.UniqueConstraint(fields=("tournament", "seq"), name="tournaments_event_seq"),
        )

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.seq} {self.type}"


class RatedGame(models.Model):
    """A finished rated game, in the order the ratings took it in (the projection's input)."""

    id = models.BigAutoField(primary_key=True)
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"rated game {self.id}: {self.game_id}"


class Rating(models.Model):
    """A player's current rating: openskill's mu and sigma (docs/tournaments.md)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ("user", "rated_game")
        constraints = (
            models.UniqueConstraint(
                fields=("user", "rated_game"), name="tournaments_rating_change_once"
            ),
        )

    def __str__(self) -> str:
        return (
            f"{self.user_id} in {self.rated_game_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
        )
