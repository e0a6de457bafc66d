"""Ratings: each finished rated game moves its players' openskill ratings.

The model is openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3): each game
is two teams of two, ranked by the game's winner (a draw ranks them level). A bot seat
takes part as a newcomer's rating, the same every time, and is never updated: ratings
are for people. Ratings are a projection of the games: `RatedGame` lists the games in
the order they were taken in, and `ratings_rebuild` replays that list from the games'
own seats and results, so it gives the same numbers to the last bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from games import rules, selectors
from tournaments.models import RatedGame, Rating, RatingChange

MODEL = PlackettLuce()


def game_rate(game_id: UUID) -> RatedGame | None:
    """Take a finished game into the ratings (once: a game rated already is left)."""
    players = _players(game_id)
    if players is None or RatedGame.objects.filter(game_id=game_id).exists():
        return None
    with transaction.atomic():
        users = sorted({user for team in players[0] for user in team if user is not None})
        Rating.objects.bulk_create(
            [Rating(user_id=user, mu=MODEL.mu, sigma=MODEL.sigma) for user in users],
            ignore_conflicts=True,
        )
        # Locked before the RatedGame row is numbered: two games sharing a player take
        # their numbers in the order they update the ratings, which a rebuild replays.
        list(Rating.objects.select_for_update().filter(user_id__in=users).order_by("user_id"))
        rated = RatedGame.objects.create(game_id=game_id)
        _apply(rated, players)
    return rated


def ratings_rebuild() -> int:
    """Recompute every rating from the rated games, in their order; the games replayed."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        count = 0
        for rated in RatedGame.objects.order_by("id"):
            players = _players(rated.game_id)
            if players is not None:
                users = {user for team in players[0] for user in team if user is not None}
                Rating.objects.bulk_create(
                    [Rating(user_id=user, mu=MODEL.mu, sigma=MODEL.sigma) for user in users],
                    ignore_conflicts=True,
                )
                _apply(rated, players)
                count += 1
    return count


Teams = tuple[tuple[int | None, int | None], tuple[int | None, int | None]]


def _players(game_id: UUID) -> tuple[Teams, list[int]] | None:
    """The users of each team (None for a bot seat) and the ranks, from the game."""
    read = selectors.table_state(game_id)
    summary = rules.summary(read.loaded.state)
    if summary.status != "finished":
        return None
    seat_user = {row.seat: row.user_id for row in read.table.seats}
    teams: Teams = (
        (seat_user.get(0), seat_user.get(2)),
        (seat_user.get(1), seat_user.get(3)),
    )
    ranks = [0, 0] if summary.winner is None else [0, 1] if summary.winner == 0 else [1, 0]
    return teams, ranks


def _apply(rated: RatedGame, players: tuple[Teams, list[int]]) -> None:
    teams, ranks = players
    current = {row.user_id: row for row in Rating.objects.filter(user_id__in=_users(teams))}
    before = [[_rating_of(current, user) for user in team] for team in teams]
    after = MODEL.rate(before, ranks=list(ranks))
    now = timezone.now()
    for team, old_team, new_team in zip(teams, before, after, strict=True):
        for user, old, new in zip(team, old_team, new_team, strict=True):
            if user is None:
                continue
            row = current[user]
            RatingChange.objects.create(
                user_id=user,
                rated_game=rated,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
            )
            row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, row.games + 1, now
            row.save(update_fields=["mu", "sigma", "games", "updated_at"])


def _users(teams: Teams) -> Sequence[int]:
    return [user for team in teams for user in team if user is not None]


def _rating_of(current: dict[int, Rating], user: int | None) -> PlackettLuceRating:
    if user is None:
        return MODEL.rating()
    row = current[user]
    return MODEL.rating(mu=row.mu, sigma=row.sigma)
