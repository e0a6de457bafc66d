"""The ratings as the API shows them: the leaderboard and one player's history."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from accounts.models import User
from tournaments.models import Rating, RatingChange

#: above this sigma a rating is provisional (a newcomer starts at 25/3, about 8.33; a
#: few games bring it under)
PROVISIONAL_SIGMA = 6.0


def _ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma, the value the player is very likely above."""
    return mu - 3 * sigma


def rating_line(rating: Rating) -> dict[str, Any]:
    return {
        "username": rating.user.username,
        "rating": _ordinal(rating.mu, rating.sigma),
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "provisional": rating.sigma > PROVISIONAL_SIGMA,
    }


def rating_of(user: User) -> dict[str, Any] | None:
    """The player's rating line, None before their first rated game."""
    rating = Rating.objects.select_related("user").filter(user=user).first()
    return None if rating is None else rating_line(rating)


def leaderboard(limit: int) -> list[dict[str, Any]]:
    """The best ratings first; provisional ones are listed too, flagged."""
    rows = (
        Rating.objects.select_related("user")
        .annotate(shown=F("mu") - 3 * F("sigma"))
        .order_by("-shown", "user_id")
    )
    return [rating_line(row) for row in rows[:limit]]


def rating_history(user: User) -> list[dict[str, Any]]:
    changes = RatingChange.objects.filter(user=user).select_related("rated_game")
    return [
        {
            "game_id": str(change.rated_game.game_id),
            "at": change.rated_game.recorded_at,
            "mu_before": change.mu_before,
            "sigma_before": change.sigma_before,
            "mu_after": change.mu_after,
            "sigma_after": change.sigma_after,
            "rating_after": _ordinal(change.mu_after, change.sigma_after),
        }
        for change in changes.order_by("rated_game_id")
    ]
