"""Admin: watch tournaments (teams, rounds, results, ratings), pause and resume them and
pair a held round again; changes go through the services, so an operator's withdrawal
follows the same rules as a player's (docs/tournaments.md, "Operators")."""

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from belote_project.admin_views import ReadOnly
from belote_project.errors import ApplicationError
from tournaments import services
from tournaments.models import Board, Match, Rating, Team, Tournament, TournamentEvent


class TeamInline(ReadOnly, admin.TabularInline[Team, Tournament]):
    model = Team
    extra = 0
    fields = ("seed", "name", "captain", "captain_bot", "partner", "partner_bot", "status")
    readonly_fields = fields


Row = TypeVar("Row", Tournament, Team)


def _each(
    admin_page: admin.ModelAdmin[Any],
    request: HttpRequest,
    rows: Iterable[Row],
    change: Callable[[Row], object],
) -> None:
    """Apply the service call `change` to each row, saying what each did or why not."""
    for row in rows:
        try:
            outcome = change(row)
        except ApplicationError as error:
            admin_page.message_user(request, f"{row}: {error}", messages.WARNING)
        else:
            if isinstance(outcome, str):
                admin_page.message_user(request, f"{row}: {outcome}", messages.INFO)


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin[Tournament]):
    list_display = (
        "name",
        "format",
        "status",
        "paused",
        "current_round",
        "proposed_round",
        "total_rounds",
        "rated",
    )
    list_filter = ("status", "paused", "format", "rated")
    search_fields = ("name", "id")
    inlines = (TeamInline,)
    actions = ("pause", "resume", "repair")

    @admin.action(description="Pause: open no round until resumed (the next one waits, paired)")
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def change(tournament: Tournament) -> str:
            done = services.tournament_pause(tournament_id=tournament.pk)
            return "paused" if done else "was paused already"

        _each(self, request, queryset, change)

    @admin.action(description="Resume: open the round waiting with its pairings")
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def change(tournament: Tournament) -> str:
            done = services.tournament_resume(tournament_id=tournament.pk)
            return "resumed" if done else "was not paused"

        _each(self, request, queryset, change)

    @admin.action(description="Pair the waiting round again from the teams as they are now")
    def repair(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def change(tournament: Tournament) -> str:
            changed = services.held_round_repair(tournament_id=tournament.pk)
            return "paired again: new pairings" if changed else "paired again: the same"

        _each(self, request, queryset, change)


@admin.register(Team)
class TeamAdmin(ReadOnly, admin.ModelAdmin[Team]):
    list_display = ("name", "tournament", "seed", "status", "withdrawn_from_round")
    list_filter = ("status",)
    search_fields = ("name", "tournament__name")
    actions = ("withdraw",)

    @admin.action(description="Withdraw the selected teams (as their organiser would)")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Team]) -> None:
        def change(team: Team) -> object:
            return services.team_withdraw(
                tournament_id=team.tournament_id, team_id=team.pk, user=team.tournament.organiser
            )

        _each(self, request, queryset.select_related("tournament__organiser"), change)


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin[Match]):
    list_display = ("round", "table", "home", "away", "outcome", "home_score", "away_score")
    list_filter = ("outcome",)
    list_select_related = ("round", "home", "away")


@admin.register(Board)
class BoardAdmin(ReadOnly, admin.ModelAdmin[Board]):
    """A duplicate's boards; the secret stays out of the pages (the revealed one shows)."""

    list_display = ("match", "number", "commitment", "revealed", "first_scores", "second_scores")
    list_select_related = ("match__round",)
    exclude = ("secret",)


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnly, admin.ModelAdmin[TournamentEvent]):
    list_display = ("tournament", "seq", "type", "created_at")
    list_filter = ("type",)


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin[Rating]):
    list_display = ("user", "mu", "sigma", "games", "updated_at")
    ordering = ("-mu",)
