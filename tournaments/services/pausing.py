"""An operator's pause, resume and re-pair (the Django admin's actions, docs/tournaments.md,
"Operators").

A paused tournament opens no round: the games being played play on and their results
are recorded, but the round their last result closes is paired and held
(`proposed_round`, no game created) instead of opened; a start (the organiser's) holds
round 1 the same way, and the beat's automatic start skips a paused tournament. Resume
opens the held round with its pairings as they are; re-pair computes them again from the
teams and results as they are now (after a withdrawal or a late entry meanwhile). Each
takes the tournament's row lock, as every write does, so a pause and a round's close,
or two resumes, are decided one after the other; asking again for what is done already
changes nothing.
"""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from tournaments.errors import (
    HeldRoundStaleError,
    NoHeldRoundError,
    RoundUnpairableError,
    TournamentNotFoundError,
    TournamentOverError,
)
from tournaments.formats import Pairing, PairingError
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import pairing, proposals
from tournaments.services.running import round_open, tournament_locked


@transaction.atomic
def tournament_pause(*, tournament_id: UUID) -> bool:
    """Pause; False if paused already."""
    tournament = _locked(tournament_id)
    if tournament.status == TournamentStatus.FINISHED:
        raise TournamentOverError()
    if tournament.paused:
        return False
    tournament.paused = True
    tournament.save(update_fields=["paused"])
    return True


@transaction.atomic
def tournament_resume(*, tournament_id: UUID) -> bool:
    """Resume, opening the held round if there is one; False if not paused. A held round
    whose pairings are no longer what the teams give (a team withdrew or entered late
    meanwhile) is refused: re-pair it first, so that no one plays a pairing nobody saw."""
    tournament = _locked(tournament_id)
    if not tournament.paused:
        return False
    number, held = tournament.proposed_round, proposals.held_pairings(tournament)
    if number is not None and _paired_now(tournament, number) != held:
        raise HeldRoundStaleError()
    tournament.paused = False
    tournament.proposed_round, tournament.proposed_pairings = None, []
    tournament.save(update_fields=["paused", "proposed_round", "proposed_pairings"])
    if number is not None:
        round_open(tournament, number, held)
    return True


@transaction.atomic
def held_round_repair(*, tournament_id: UUID) -> bool:
    """Pair the held round again from the teams and results as they are now; whether its
    pairings changed."""
    tournament = _locked(tournament_id)
    number = tournament.proposed_round
    if number is None:
        raise NoHeldRoundError()
    fresh = _paired_now(tournament, number)
    if fresh is None:
        raise RoundUnpairableError()
    changed = fresh != proposals.held_pairings(tournament)
    proposals.round_hold(tournament, number, fresh)
    return changed


def _paired_now(tournament: Tournament, number: int) -> tuple[Pairing, ...] | None:
    try:
        return pairing.pairings(tournament, number)
    except PairingError:
        return None


def _locked(tournament_id: UUID) -> Tournament:
    tournament = tournament_locked(tournament_id)
    if tournament is None:
        raise TournamentNotFoundError()
    return tournament
