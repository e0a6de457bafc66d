"""Scoring a hand and ending the game (docs/rules.md, "Scoring", "End of the game")."""

from __future__ import annotations

from typing import NamedTuple

from games.rules.cards import CARD_POINTS_TOTAL
from games.rules.options import Options

BELOTE_POINTS = 20
#: the last hand a game may deal, thrown-in hands included: a bound of the service
#: (docs/rules.md, "End of the game"), not a rule of play, so that no game, whatever
#: its options and whoever plays it, runs forever (a game to the largest target needs
#: some 250 played hands)
MAX_HANDS = 1000
MADE = "made"
INSIDE = "inside"
LITIGE = "litige"


class HandResult(NamedTuple):
    """Everything `hand_scored` reports but the identity of the hand."""

    card_points: tuple[int, int]
    totals: tuple[int, int]
    outcome: str
    scores: tuple[int, int]
    waiting_after: int
    waiting_to: int | None
    deltas: tuple[int, int]


def _pair(team: int, mine: int, theirs: int) -> tuple[int, int]:
    return (mine, theirs) if team == 0 else (theirs, mine)


def score_hand(
    options: Options,
    *,
    taker_team: int,
    trick_points: tuple[int, int],
    tricks_won: tuple[int, int],
    counted_team: int | None,
    counted_points: int,
    belote_team: int | None,
    waiting_before: int,
) -> HandResult:
    """Score a played hand from its tricks, counted declarations and belote."""
    capot_team = 0 if tricks_won[1] == 0 else 1 if tricks_won[0] == 0 else None
    card_points = trick_points
    if capot_team is not None:
        card_points = _pair(capot_team, options.capot_points, 0)
    belote = [BELOTE_POINTS if belote_team == team else 0 for team in (0, 1)]
    totals = tuple(
        card_points[team] + belote[team] + (counted_points if counted_team == team else 0)
        for team in (0, 1)
    )
    defenders = 1 - taker_team
    takers_total, defenders_total = totals[taker_team], totals[defenders]
    tie = takers_total == defenders_total
    waiting_after = waiting_before
    if (
        tricks_won[taker_team] == 0
        or takers_total < defenders_total
        or (tie and options.tie_rule == INSIDE)
    ):
        outcome = INSIDE
        base = options.capot_points if capot_team == defenders else CARD_POINTS_TOTAL
        scores = _pair(taker_team, belote[taker_team], base + counted_points + belote[defenders])
    elif tie and options.board:
        # a board has no next hand to win the disputed points: each side keeps its own
        outcome = LITIGE
        scores = (totals[0], totals[1])
    elif tie:
        outcome = LITIGE
        scores = _pair(taker_team, belote[taker_team], defenders_total)
        waiting_after += takers_total - belote[taker_team]
    else:
        outcome = MADE
        scores = (totals[0], totals[1])
    waiting_to = None
    deltas = scores
    if outcome != LITIGE and waiting_before:
        waiting_to = 0 if scores[0] > scores[1] else 1
        deltas = _pair(waiting_to, scores[waiting_to] + waiting_before, scores[1 - waiting_to])
        waiting_after = 0
    return HandResult(
        card_points, (totals[0], totals[1]), outcome, scores, waiting_after, waiting_to, deltas
    )


def game_winner(options: Options, scores: tuple[int, int], waiting: int) -> int | None:
    """The winning team once nothing waits, a side reached the target and the
    scores differ; None while the game goes on."""
    if waiting or scores[0] == scores[1] or max(scores) < options.target:
        return None
    return 0 if scores[0] > scores[1] else 1


def capped_winner(scores: tuple[int, int]) -> int | None:
    """The winning team of a game stopped by `MAX_HANDS`: the higher score, or
    None (a draw) when the scores are equal; points still waiting go to nobody."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1
