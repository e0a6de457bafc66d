"""The shuffle, the deal and the first dealer, all derived from seeds.

The algorithm is written up in docs/shuffle.md so that an auditor can redo it
in another language; the test vectors there are pinned by tests/rules/test_shuffle.py.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

from games.rules.cards import CARD_NAMES

SHUFFLE_DOMAIN = b"belote/shuffle/v1"
DEALER_DOMAIN = b"belote/first-dealer/v1"
_WORDS = struct.Struct(">8I")
_TWO_32 = 1 << 32


def _draws(seed: bytes) -> list[int]:
    """Enough 32-bit words of SHA-256(domain || seed || counter) for one shuffle."""
    words: list[int] = []
    counter = 0
    while len(words) < 31:
        words.extend(_block(seed, counter))
        counter += 1
    return words


def _block(seed: bytes, counter: int) -> tuple[int, ...]:
    digest = hashlib.sha256(SHUFFLE_DOMAIN + seed + counter.to_bytes(4, "big")).digest()
    return _WORDS.unpack(digest)


def shuffled_ids(seed: bytes) -> list[int]:
    """The deck order (card ids, top first) of the hand whose seed is `seed`.

    Fisher-Yates from the sorted deck, i = 31 down to 1, swapping i with
    j = x mod (i + 1) for the next word x below the largest multiple of i + 1
    that fits in 32 bits (rejection keeps j unbiased).
    """
    deck = list(range(32))
    words = _draws(seed)
    used = 0
    counter = len(words) // 8
    for i in range(31, 0, -1):
        span = i + 1
        limit = _TWO_32 - _TWO_32 % span
        while True:
            if used == len(words):
                words.extend(_block(seed, counter))
                counter += 1
            word = words[used]
            used += 1
            if word < limit:
                break
        j = word % span
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(seed: bytes) -> tuple[str, ...]:
    """The 32 wire cards of `shuffled_ids(seed)`, top of the deck first."""
    return tuple(CARD_NAMES[c] for c in shuffled_ids(seed))


def seed_commitment(seed: bytes) -> str:
    """Hex SHA-256 of the seed: published at the deal, checked when the seed is revealed."""
    return hashlib.sha256(seed).hexdigest()


def first_dealer(game_seed: bytes) -> int:
    """First byte of SHA-256(domain || game seed), modulo 4 (256 is a multiple of 4)."""
    return hashlib.sha256(DEALER_DOMAIN + game_seed).digest()[0] % 4


def deal_first_cards(
    deck: Sequence[int], dealer: int
) -> tuple[tuple[int, int, int, int], int, tuple[int, ...]]:
    """3 then 2 cards each from `dealer + 1` round to the dealer; the 21st card
    is turned; 11 stay in the stock. Returns (four masks, turned card, stock)."""
    hands = [0, 0, 0, 0]
    position = 0
    for packet in (3, 2):
        for offset in range(1, 5):
            seat = (dealer + offset) % 4
            for card in deck[position : position + packet]:
                hands[seat] |= 1 << card
            position += packet
    return (hands[0], hands[1], hands[2], hands[3]), deck[20], tuple(deck[21:32])


def deal_rest(stock: Sequence[int], dealer: int, taker: int) -> tuple[int, int, int, int]:
    """From `dealer + 1` round to the dealer, the stock in order: the taker gets
    2 (besides the turned card), every other seat 3."""
    hands = [0, 0, 0, 0]
    position = 0
    for offset in range(1, 5):
        seat = (dealer + offset) % 4
        count = 2 if seat == taker else 3
        for card in stock[position : position + count]:
            hands[seat] |= 1 << card
        position += count
    return hands[0], hands[1], hands[2], hands[3]
