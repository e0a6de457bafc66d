"""Creating a tournament and registering teams: invitations, bot teams, withdrawals.

Every change locks the tournament's row first, so that a registration and the start,
or two registrations of one player, are decided one after the other.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from belote_project.errors import FieldError
from games import rules
from games.errors import InvalidTableOptionsError
from tournaments.errors import (
    AlreadyRegisteredError,
    BotPartnerRefusedError,
    InvalidTournamentError,
    InvitationNotPendingError,
    NotInvitedError,
    NotTeamMemberError,
    NotTournamentOrganiserError,
    PlayerNotFoundError,
    RegistrationClosedError,
    TeamNotFoundError,
    TournamentNotFoundError,
    UntimedTournamentError,
    WithdrawalClosedError,
)
from tournaments.models import Format, Team, TeamStatus, Tournament, TournamentStatus

#: the most rounds a Swiss may ask for (the teams cap it further at the start)
SWISS_ROUNDS_MAX = 20
#: the most boards a duplicate pairing plays a round (each at two tables)
BOARDS_MAX = 16
#: the most teams one tournament takes (the benchmark runs 64; room beyond it)
TEAMS_MAX = 256
#: the teams still in the running: their seats count against a player's one team
ACTIVE = (TeamStatus.INVITED, TeamStatus.REGISTERED)
#: a tournament game's turn clock when the organiser sets none: a tournament never waits
#: for ever on an absent player (docs/tournaments.md, "No-shows")
DEFAULT_TURN_SECONDS = 60


@dataclass(frozen=True)
class Settings:
    """A new tournament's settings as the API validated their shapes."""

    name: str
    format: str
    options: Mapping[str, Any]
    no_show: str = "bot"
    rounds: int | None = None
    boards: int | None = None
    first_round: str = "seeded"
    rated: bool = False
    allow_bot_partners: bool = False
    registration_opens_at: datetime | None = None
    registration_closes_at: datetime | None = None


def tournament_create(*, organiser: User, settings: Settings) -> Tournament:
    """A tournament open for registration, its table options validated like a table's,
    with a turn clock always (`DEFAULT_TURN_SECONDS` unless the organiser sets one)."""
    options = _timed_options(settings.options)
    if settings.format == Format.SWISS:
        if settings.rounds is None or not 1 <= settings.rounds <= SWISS_ROUNDS_MAX:
            raise _invalid(
                "rounds",
                _("A Swiss needs from 1 to %(most)d rounds.") % {"most": SWISS_ROUNDS_MAX},
            )
    elif settings.rounds is not None:
        raise _invalid("rounds", _("Only a Swiss takes a number of rounds."))
    _check_boards(settings)
    opens = settings.registration_opens_at or timezone.now()
    closes = settings.registration_closes_at
    if closes is not None and closes <= opens:
        raise _invalid("registration_closes_at", _("Registration must close after it opens."))
    return Tournament.objects.create(
        name=settings.name,
        format=settings.format,
        organiser=organiser,
        options=options.to_dict(),
        no_show=settings.no_show,
        rounds=settings.rounds,
        boards=settings.boards,
        first_round=settings.first_round,
        rated=settings.rated,
        allow_bot_partners=settings.allow_bot_partners,
        registration_opens_at=opens,
        registration_closes_at=closes,
        draw_seed=secrets.token_hex(32),
    )


def _check_boards(settings: Settings) -> None:
    """A duplicate needs its boards per round, and plays every board out (no forfeit)."""
    if settings.format != Format.DUPLICATE:
        if settings.boards is not None:
            raise _invalid("boards", _("Only a duplicate takes a number of boards."))
        return
    if settings.boards is None or not 1 <= settings.boards <= BOARDS_MAX:
        raise _invalid(
            "boards",
            _("A duplicate needs from 1 to %(most)d boards a round.") % {"most": BOARDS_MAX},
        )
    if settings.no_show == "forfeit":
        raise _invalid("no_show", _("A duplicate plays its boards out: no_show must be bot."))


def _timed_options(given: Mapping[str, Any]) -> rules.Options:
    if "turn_seconds" in given and given["turn_seconds"] is None:
        raise UntimedTournamentError()
    try:
        return rules.Options.from_dict({"turn_seconds": DEFAULT_TURN_SECONDS, **given})
    except rules.InvalidOptions as error:
        raise InvalidTableOptionsError(error) from error


def _invalid(field: str, message: str) -> InvalidTournamentError:
    return InvalidTournamentError(message, errors=[FieldError(field, "invalid", message)])


@transaction.atomic
def team_register(
    *,
    tournament_id: UUID,
    user: User,
    name: str,
    partner_username: str | None = None,
    partner_bot: str | None = None,
) -> Team:
    """`user` registers a team with a partner who must accept (by username), or with a
    bot partner where the organiser allows it (registered at once)."""
    tournament = _locked(tournament_id)
    first_round = _entry_round(tournament)
    partner: User | None = None
    if partner_bot is not None:
        if not tournament.allow_bot_partners:
            raise BotPartnerRefusedError()
    else:
        partner = User.objects.filter(username=partner_username).first()
        if partner is None:
            raise PlayerNotFoundError()
    for player in (user, partner):
        if player is not None and _in_a_team(tournament, player):
            raise AlreadyRegisteredError()
    if partner is not None and partner.pk == user.pk:
        raise AlreadyRegisteredError(_("Your partner must be another player."))
    return Team.objects.create(
        tournament=tournament,
        name=name,
        captain=user,
        partner=partner,
        partner_bot=partner_bot,
        status=TeamStatus.INVITED if partner is not None else TeamStatus.REGISTERED,
        seed=_next_seed(tournament),
        first_round=first_round,
    )


@transaction.atomic
def bot_team_add(*, tournament_id: UUID, user: User, name: str, levels: tuple[str, str]) -> Team:
    """The organiser adds a team of two bots (practice events, tests, benchmarks)."""
    tournament = _locked(tournament_id)
    _require_organiser(tournament, user)
    first_round = _entry_round(tournament)
    return Team.objects.create(
        tournament=tournament,
        name=name,
        captain_bot=levels[0],
        partner_bot=levels[1],
        status=TeamStatus.REGISTERED,
        seed=_next_seed(tournament),
        first_round=first_round,
    )


@transaction.atomic
def invitation_answer(*, tournament_id: UUID, team_id: int, user: User, accept: bool) -> Team:
    """The invited partner accepts (the team is registered) or declines."""
    tournament = _locked(tournament_id)
    team = _team(tournament, team_id)
    if team.partner_id != user.pk:
        raise NotInvitedError()
    if team.status != TeamStatus.INVITED:
        raise InvitationNotPendingError()
    if accept:
        team.first_round = _entry_round(tournament)
        team.status = TeamStatus.REGISTERED
    else:
        team.status = TeamStatus.DECLINED
    team.save(update_fields=["status", "first_round"])
    return team


@transaction.atomic
def team_withdraw(*, tournament_id: UUID, team_id: int, user: User) -> Team:
    """A member (or the organiser) withdraws a team: before the start in every format,
    and in a Swiss between rounds too (from the next round on; the round being played
    plays on)."""
    tournament = _locked(tournament_id)
    team = _team(tournament, team_id)
    if user.pk not in (team.captain_id, team.partner_id, tournament.organiser_id):
        raise NotTeamMemberError()
    if team.status not in ACTIVE:
        raise WithdrawalClosedError(_("This team is not in the tournament any more."))
    if tournament.status == TournamentStatus.FINISHED:
        raise WithdrawalClosedError(_("The tournament is over."))
    if tournament.status == TournamentStatus.RUNNING:
        if tournament.format != Format.SWISS or tournament.current_round >= tournament.total_rounds:
            raise WithdrawalClosedError(_("Only a Swiss takes withdrawals once it has started."))
        team.withdrawn_from_round = tournament.current_round + 1
    team.status = TeamStatus.WITHDRAWN
    team.save(update_fields=["status", "withdrawn_from_round"])
    return team


def _locked(tournament_id: UUID) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFoundError()
    return tournament


def _team(tournament: Tournament, team_id: int) -> Team:
    team = Team.objects.filter(tournament=tournament, pk=team_id).first()
    if team is None:
        raise TeamNotFoundError()
    return team


def _require_organiser(tournament: Tournament, user: User) -> None:
    if tournament.organiser_id != user.pk:
        raise NotTournamentOrganiserError()


def _entry_round(tournament: Tournament, now: datetime | None = None) -> int:
    """The first round a team registering now plays, or RegistrationClosedError.

    Before the start: inside the registration window. A running Swiss takes late
    entries until half its rounds have started; they play from the next round.
    """
    now = timezone.now() if now is None else now
    if tournament.status == TournamentStatus.REGISTRATION:
        closes = tournament.registration_closes_at
        if now < tournament.registration_opens_at or (closes is not None and now >= closes):
            raise RegistrationClosedError(_("Registration is outside its window."))
        if Team.objects.filter(tournament=tournament).count() >= TEAMS_MAX:
            raise RegistrationClosedError(_("The tournament is full."))
        return 1
    late = tournament.status == TournamentStatus.RUNNING and tournament.format == Format.SWISS
    if late and 2 * tournament.current_round < tournament.total_rounds:
        return tournament.current_round + 1
    raise RegistrationClosedError(_("The tournament takes no more teams."))


def _in_a_team(tournament: Tournament, user: User) -> bool:
    return (
        Team.objects.filter(tournament=tournament, status__in=ACTIVE)
        .filter(Q(captain=user) | Q(partner=user))
        .exists()
    )


def _next_seed(tournament: Tournament) -> int:
    last = Team.objects.filter(tournament=tournament).aggregate(last=Max("seed"))["last"]
    return 1 if last is None else int(last) + 1
