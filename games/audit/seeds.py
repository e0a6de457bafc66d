"""The seeds the service derives and an auditor derives again: each bot decision's
(docs/bots.md, "Seeds"). Pure, in the audit package, so that the verifier re-derives
every bot move offline exactly as the service made it, without importing the bots'
package into the API (it loads them only when a bot plays)."""

from __future__ import annotations

import hashlib

#: the domain tag of a bot seed's SHA-256 input (docs/bots.md, "Seeds")
BOT_SEED_TAG = b"belote/bot-seed/v1"
#: the level of the bot that plays for an absent player (docs/clocks.md)
ABSENT_SEAT_LEVEL = "basic"
#: the level of the bot that plays a turn whose time ran out (docs/clocks.md)
TIMEOUT_LEVEL = "basic"


def bot_seed(hand_seed: bytes, version: int, seat: int) -> bytes:
    """The bot's random seed for its decision at `version` in the hand of `hand_seed`.

    SHA-256 over the tag, the current hand's secret seed (32 bytes), the version (8
    bytes, big-endian) and the seat (1 byte). Nobody can predict it while the hand is
    on, since its seed is secret until then; once `hand_scored` or `hand_thrown_in`
    reveals the seed, an auditor who replays the events up to `version` can feed the
    bot the same view and this seed and must get the action that was recorded.
    """
    material = BOT_SEED_TAG + hand_seed + version.to_bytes(8, "big") + bytes([seat])
    return hashlib.sha256(material).digest()
