"""Re-deriving bot moves (opt-in: the expert's search makes it slow).

Each move a bot made, and each move the service played for a seat whose time ran out,
came from `games.bots.choose_action` on the seat's view at that point, with the seed
`games.audit.seeds.bot_seed` derives from the hand's seed, the version and the seat
(docs/bots.md, "Seeds"). The verifier replays to the move, asks the same bot, and must
get the move recorded. The bots' package is as pure as the rules: no Django either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games import rules
from games.audit.replay import MoveCheck, ReplayError
from games.audit.report import Discrepancy
from games.audit.seeds import TIMEOUT_LEVEL, bot_seed
from games.rules.wire import action_to_dict

BOT = "bot"


def bot_moves_check(rows: Iterable[Mapping[str, Any]]) -> MoveCheck:
    """A `replay_log` move check that re-derives the moves of the bots of `rows` (the
    exported lines: `actor_kind` and, on a bot's line, its `bot_level`)."""
    from games.bots import choose_action  # noqa: PLC0415 (loaded only when asked for)

    movers = {row.get("seq"): (row.get("actor_kind"), row.get("bot_level")) for row in rows}

    def check(
        state: rules.GameState, seq: int, seat: int, action: rules.Action, timed: bool
    ) -> None:
        kind, level = movers.get(seq, (None, None))
        if timed:
            level = TIMEOUT_LEVEL
        elif kind != BOT:
            return
        if not isinstance(level, str):
            raise ReplayError(Discrepancy(seq, "bot_move", "the bot's level", level))
        seed = bot_seed(bytes.fromhex(state.hand_seed), seq - 1, seat)
        try:
            chosen = choose_action(rules.view(state, seat), seed, level)
        except ValueError as error:
            raise ReplayError(Discrepancy(seq, "bot_move", "a bot level", level)) from error
        played = action_to_dict(action)
        if chosen != played:
            raise ReplayError(Discrepancy(seq, "bot_move", chosen, played))

    return check
