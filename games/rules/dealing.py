"""Dealing a hand and what follows the end of one (next deal or game over)."""

from __future__ import annotations

from games.rules.events import Event, GameFinished, HandDealt, HandScored
from games.rules.fairness import NO_CONTRIBUTIONS
from games.rules.scoring import MAX_HANDS, capped_winner, game_winner
from games.rules.shuffle import deal_first_cards, seed_commitment, shuffled_ids
from games.rules.state import GameState


def deal(
    hand: int,
    dealer: int,
    seed: bytes,
    secret: bytes = b"",
    client_seeds: tuple[str, str, str, str] = NO_CONTRIBUTIONS,
) -> HandDealt:
    """The `hand_dealt` event of a fresh shuffle from the hand's seed (derived from
    `secret` and `client_seeds` by the service, docs/fairness.md)."""
    cards, turned_card, stock = deal_first_cards(shuffled_ids(seed), dealer)
    return HandDealt(
        hand,
        dealer,
        seed_commitment(seed),
        cards,
        turned_card,
        stock,
        seed.hex(),
        secret.hex(),
        client_seeds,
    )


def next_deal(state: GameState, seed: bytes, secret: bytes = b"") -> HandDealt:
    """The next hand, dealt by the next seat."""
    hand, dealer = state.hand_number + 1, (state.dealer + 1) % 4
    return deal(hand, dealer, seed, secret, state.client_seeds)


def after_scoring(
    state: GameState, scored: HandScored, seed: bytes, secret: bytes = b""
) -> tuple[Event, ...]:
    """`game_finished` if the game ends with this result, else the next deal."""
    if state.options.board:
        return (GameFinished(capped_winner(scored.game_scores), scored.game_scores),)
    winner = game_winner(state.options, scored.game_scores, scored.waiting_after)
    if winner is not None:
        return (GameFinished(winner, scored.game_scores),)
    return after_last_hand(state, scored.game_scores) or (next_deal(state, seed, secret),)


def after_thrown_in(state: GameState, seed: bytes, secret: bytes = b"") -> tuple[Event, ...]:
    """The next deal after a thrown-in hand, unless it was the last hand allowed or the
    game is a board (a passed board: nobody scores)."""
    if state.options.board:
        return (GameFinished(None, state.scores),)
    return after_last_hand(state, state.scores) or (next_deal(state, seed, secret),)


def revealed(state: GameState) -> tuple[str, str]:
    """The (seed, secret) the end of the current hand reveals: none on a board, whose
    deal is played at another table too and revealed by its owner (docs/rules.md,
    "Boards")."""
    if state.options.board:
        return "", ""
    return state.hand_seed, state.hand_secret


def after_last_hand(state: GameState, scores: tuple[int, int]) -> tuple[Event, ...]:
    """`game_finished` when the hand that just ended is hand `MAX_HANDS`, else nothing."""
    if state.hand_number < MAX_HANDS:
        return ()
    return (GameFinished(capped_winner(scores), scores),)
