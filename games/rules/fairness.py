"""Commit-reveal fairness: hand secrets, client seeds and the seeds derived from them.

The service draws one secret, the end of a hash chain, when a table is created:

    s(MAX_HANDS) = the drawn 32 bytes,  s(k) = step(s(k + 1)),  commitment = step(s(1))
    step(x) = SHA-256("belote/hand-secret/v1" || x)

It publishes the commitment at once, before anyone sits down, and reveals s(k) when
hand k ends (anyone checks step(s(k)) against the commitment, or against s(k - 1)).
Each seat contributes a client seed, and every random outcome of hand k is drawn from

    hand_seed(k) = SHA-256("belote/hand-seed/v1" || s(k) || c0 || c1 || c2 || c3 || k)

with c_i = SHA-256(UTF-8 of seat i's client seed) and k as 4 bytes big-endian; hand 0
is the game seed, which draws the first dealer. docs/fairness.md says why and how to
check it. The one function a game's deals come from is `hand_seed`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from games.rules.scoring import MAX_HANDS

SECRET_TAG = b"belote/hand-secret/v1"
HAND_SEED_TAG = b"belote/hand-seed/v1"
BOT_CLIENT_SEED_TAG = b"belote/bot-client-seed/v1"
#: the longest client seed a seat may contribute (characters, printable ASCII)
CLIENT_SEED_MAX = 64
NO_CONTRIBUTIONS = ("", "", "", "")


def step(secret: bytes) -> bytes:
    """One link of the chain of hand secrets, walked from the end towards hand 1."""
    return hashlib.sha256(SECRET_TAG + secret).digest()


def hand_secret(chain_end: bytes, hand: int) -> bytes:
    """s(hand): `MAX_HANDS - hand` steps from the drawn end of the chain."""
    if not 1 <= hand <= MAX_HANDS:
        raise ValueError(f"hands are 1 to {MAX_HANDS}")
    secret = chain_end
    for _ in range(MAX_HANDS - hand):
        secret = step(secret)
    return secret


def commitment(chain_end: bytes) -> str:
    """The published commitment to every hand secret: step(s(1)), in hex."""
    return step(hand_secret(chain_end, 1)).hex()


def contribution(client_seed: str) -> bytes:
    """The 32 bytes a seat's client seed adds to every seed: SHA-256 of its UTF-8."""
    return hashlib.sha256(client_seed.encode()).digest()


def hand_seed(secret: bytes, client_seeds: Sequence[str], hand: int) -> bytes:
    """The seed of hand `hand` (0: the game seed) from its secret and the four seats'
    client seeds. Every deal of a game comes from here (docs/fairness.md)."""
    if len(client_seeds) != 4:
        raise ValueError("one client seed per seat")
    mixed = b"".join(contribution(seed) for seed in client_seeds)
    return hashlib.sha256(HAND_SEED_TAG + secret + mixed + hand.to_bytes(4, "big")).digest()


def bot_client_seed(published: str, seat: int) -> str:
    """A bot's client seed: fixed by the table's commitment and its seat, so that the
    service, which runs the bot, has no choice of it left once the commitment is out."""
    material = BOT_CLIENT_SEED_TAG + published.encode() + bytes([seat])
    return hashlib.sha256(material).hexdigest()
