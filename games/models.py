"""Tables behind a game (see docs/storage.md).

`GameEvent` is the source of truth; `Game` columns other than the identity and
options, and `GameSnapshot` rows, are caches rebuilt from events at any time.
Only `games.store` reads or writes `GameEvent` and `GameSnapshot`.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class GameStatus(models.TextChoices):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class BotLevel(models.TextChoices):
    RANDOM = "random"
    BASIC = "basic"
    EXPERT = "expert"


class ActorKind(models.TextChoices):
    USER = "user"
    BOT = "bot"
    SYSTEM = "system"


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    options = models.JSONField()

    # Read model, kept in step with the events by games.store (projection).
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING, db_index=True
    )
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, default="waiting")
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    scores = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The turn clock (games/services/clocks.py, docs/clocks.md), written with each append:
    # when the service plays the current turn for its seat (null: nobody's clock runs),
    # and each seat's remaining time bank in milliseconds.
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    time_banks_ms = models.JSONField(default=list)
    # Commit-reveal (docs/fairness.md): the secret end of the chain of hand secrets, drawn
    # when the table is created and never shown (each hand's link is revealed as the hand
    # ends), and its published commitment. Both empty for a table from before.
    hand_secrets = models.CharField(max_length=64, default="", editable=False)
    secret_chain = models.CharField(max_length=64, default="", editable=False)
    # A duplicate board (docs/fairness.md, "Boards"): its chain end is the board's owner's,
    # and its log stays unpublished after the end until that owner releases the deal,
    # which another table may still be playing.
    deal_sealed = models.BooleanField(default=False)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"game {self.id} ({self.status}, v{self.version})"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    # NULL, not "", for a seat its player plays: docs/storage.md and the check below rely
    # on it. A player's seat with a level is one a bot plays while they are absent
    # (`seat_absent`, docs/clocks.md).
    bot_level = models.CharField(  # noqa: DJ001
        max_length=8, choices=BotLevel.choices, null=True, blank=True
    )
    joined_at = models.DateTimeField(default=timezone.now)
    #: the seat's contribution to every deal (docs/fairness.md), fixed when it sits down
    client_seed = models.CharField(max_length=64, default="", blank=True)

    class Meta:
        ordering = ("game", "seat")
        constraints = (
            models.UniqueConstraint(fields=("game", "seat"), name="games_seat_unique_seat"),
            models.UniqueConstraint(
                fields=("game", "user"),
                condition=Q(user__isnull=False),
                name="games_seat_unique_user",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="games_seat_range"),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | Q(bot_level__isnull=False),
                name="games_seat_player_or_bot",
            ),
        )

    def __str__(self) -> str:
        occupant = self.user_id if self.user_id is not None else f"bot:{self.bot_level}"
        return f"seat {self.seat} of {self.game_id}: {occupant}"


class GameEvent(models.Model):
    """One event of a game's stream; the database refuses UPDATE, DELETE and TRUNCATE."""

    id = models.BigAutoField(primary_key=True)
    # The unique (game, seq) index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    schema_version = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    actor_kind = models.CharField(max_length=8, choices=ActorKind.choices)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: on the last event of an append that starts a timed turn: that turn's deadline
    #: (docs/clocks.md), so that a client following the feed sees the clock
    turn_deadline = models.DateTimeField(null=True, blank=True)
    #: SHA-256 of the previous event's hash and this event's canonical bytes, in hex: the
    #: hash chain that makes a rewritten log evident (docs/audit.md). The database's
    #: default, empty, is for a writer of an earlier release during a rolling deploy: its
    #: events are then found as breaks of the chain, not refused.
    hash = models.CharField(max_length=64, db_default="")

    class Meta:
        ordering = ("game", "seq")
        constraints = (
            models.UniqueConstraint(fields=("game", "seq"), name="games_event_unique_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="games_event_seq_positive"),
        )

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class GameSnapshot(models.Model):
    """A rules `GameState` after event `seq` (games/store/snapshots.py); a cache only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    engine_version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("game", "seq", "engine_version"), name="games_snapshot_unique"
            ),
        )

    def __str__(self) -> str:
        return f"snapshot {self.game_id}@{self.seq} (engine {self.engine_version})"


class NoticeType(models.TextChoices):
    YOUR_TURN = "your_turn"
    GAME_STARTED = "game_started"
    SEAT_ABSENT = "seat_absent"
    GAME_FINISHED = "game_finished"
    TABLE_CLOSED = "table_closed"


class PlayerNotice(models.Model):
    """One item of a player's own feed (docs/feed.md, "Your own feed"): something a game
    asks of them or tells them (or another app, a tournament, tells them), numbered `seq`
    1, 2, 3... per user with no gap, written in the transaction of the event (or the
    other app's change) that causes it. A cache of the events in the sense
    that the events say it all; unlike the read model it is never rebuilt (a cursor
    handed to a client must keep meaning the same items)."""

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveBigIntegerField()
    #: a `NoticeType` for a game's notice, or the type another app gave its notice
    #: (games.services.notices.app_notices_write): hence no choices here
    type = models.CharField(max_length=32)
    #: the game of a game's notice; null for another app's (its `data` says what it is about)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, related_name="+")
    #: the game's version once the event that caused the notice was stored
    version = models.PositiveIntegerField(null=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=16, blank=True, default="")
    #: another app's notice: its members as the API sends them, beside seq, type, created_at
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("user", "seq"), name="games_notice_unique_seq"),
        )

    def __str__(self) -> str:
        return f"{self.user_id}#{self.seq} {self.type} {self.game_id}"


class NoticeCounter(models.Model):
    """A user's last notice seq. Its row is updated (so locked) by every transaction that
    gives the user notices, until that transaction ends: the next seq is taken only once
    the previous one is committed or rolled back, so a reader never sees seq n + 1
    before n (games/services/notices.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    last_seq = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.last_seq}"


class IdempotencyRecord(models.Model):
    """The stored response of a POST made with an `Idempotency-Key`, per user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=512)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    #: the JSON body exactly as first sent (text: a JSON column would reorder its keys)
    response_body = models.TextField()
    #: the headers a replay must repeat (Location, ETag...), name -> value
    response_headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("user", "key"), name="games_idempotency_unique_key"),
        )

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} -> {self.status_code}"
