"""The commit-reveal checks of each deal (docs/fairness.md, "Verifying").

At every `hand_dealt` of a game that committed to its hand secrets (`secret_chain` in
`game_started`), the hand's secret must link to the commitment (hand 1) or to the
previous hand's secret, the contributions must be those fixed when the game started,
and the hand's seed (the first hand's: the game seed too) must be the function of them
that docs/fairness.md gives. The deal itself is then checked against that seed by the
replay. A game from before commit-reveal has nothing to check here.
"""

from __future__ import annotations

from games import rules
from games.audit.report import Discrepancy
from games.rules import fairness
from games.rules.events import GameStarted, HandDealt


def _bytes(text: str) -> bytes | None:
    try:
        value = bytes.fromhex(text)
    except ValueError:
        return None
    return value if len(value) == 32 else None


def dealt_fairly(before: rules.GameState, dealt: HandDealt, seq: int) -> Discrepancy | None:
    """The first commit-reveal check the deal at `seq` fails (`before`: the state before
    it), or None."""
    if not before.secret_chain:
        return None
    secret = _bytes(dealt.secret)
    if secret is None:
        return Discrepancy(seq, "secret_commitment", "a 32-byte secret in hex", dealt.secret)
    linked = before.secret_chain if dealt.hand == 1 else before.hand_secret
    if fairness.step(secret).hex() != linked:
        return Discrepancy(seq, "secret_commitment", linked, fairness.step(secret).hex())
    if dealt.client_seeds != before.client_seeds:
        return Discrepancy(
            seq, "contribution_changed", list(before.client_seeds), list(dealt.client_seeds)
        )
    seed = fairness.hand_seed(secret, dealt.client_seeds, dealt.hand).hex()
    if dealt.seed != seed:
        return Discrepancy(seq, "hand_seed", seed, dealt.seed)
    return None


def started_fairly(started: GameStarted, first: HandDealt, seq: int) -> Discrepancy | None:
    """Whether the game seed at `seq` (it draws the first dealer) is hand 0's seed of the
    first hand's secret and the contributions; checked again with that deal."""
    secret = _bytes(first.secret)
    if not started.secret_chain or secret is None:
        return None
    game_seed = fairness.hand_seed(secret, started.client_seeds, 0).hex()
    if started.game_seed != game_seed:
        return Discrepancy(seq, "game_seed", game_seed, started.game_seed)
    return None
