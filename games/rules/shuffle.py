"""The shuffle, the deal and the first dealer, all derived from seeds.

The algorithm is written up in docs/shuffle.md so that an auditor can redo it
in another language; the test vectors there are pinned by tests/rules/test_shuffle.py.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from itertools import chain

from games.rules.cards import CARD_NAMES

SHUFFLE_DOMAIN = b"belote/shuffle/v1"
DEALER_DOMAIN = b"belote/first-dealer/v1"
_WORDS = struct.Struct(">8I")
_TWO_32 = 1 << 32
_PREFETCHED = 4
#: the 32 words of the 4 prefetched blocks, read at once
_FIRST_WORDS = struct.Struct(f">{8 * _PREFETCHED}I")


def _digest(seed: bytes, counter: int) -> bytes:
    """Block `counter` of the word stream: SHA-256(domain || seed || counter, 4 bytes)."""
    return hashlib.sha256(SHUFFLE_DOMAIN + seed + counter.to_bytes(4, "big")).digest()


def _block(seed: bytes, counter: int) -> tuple[int, ...]:
    return _WORDS.unpack(_digest(seed, counter))


def _first_words(seed: bytes) -> tuple[int, ...]:
    """The words of blocks 0 to 3 (32 words: a shuffle almost never needs more)."""
    return _FIRST_WORDS.unpack(b"".join([_digest(seed, counter) for counter in range(_PREFETCHED)]))


def _blocks_from(seed: bytes, counter: int) -> Iterator[int]:
    while True:
        yield from _block(seed, counter)
        counter += 1


def word_stream(seed: bytes) -> Iterator[int]:
    """32-bit big-endian words of SHA-256(domain || seed || counter), counter = 0, 1, ...

    The first 4 blocks are hashed up front; later blocks come lazily.
    """
    return chain(_first_words(seed), _blocks_from(seed, _PREFETCHED))


#: REJECT_FROM[n]: the largest multiple of n that fits in 32 bits; words from it up are redrawn
REJECT_FROM = tuple(_TWO_32 - _TWO_32 % n if n else 0 for n in range(33))
#: (i, i + 1, REJECT_FROM[i + 1]) for i = 31 down to 1: the steps of the shuffle
_STEPS = tuple((i, i + 1, REJECT_FROM[i + 1]) for i in range(31, 0, -1))


def fisher_yates(words: Iterator[int]) -> list[int]:
    """Shuffle the sorted deck (ids 0..31) with words drawn from `words`.

    For i = 31 down to 1: draw words until one is below REJECT_FROM[i + 1]
    (so that j is unbiased), j = word mod (i + 1), swap positions i and j.
    """
    deck = list(range(32))
    for i, span, limit in _STEPS:
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % span
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_ids(seed: bytes) -> list[int]:
    """The deck order (card ids, top first) of the hand whose seed is `seed`."""
    return fisher_yates(word_stream(seed))


def shuffled_deck(seed: bytes) -> tuple[str, ...]:
    """The 32 wire cards of `shuffled_ids(seed)`, top of the deck first."""
    return tuple(CARD_NAMES[c] for c in shuffled_ids(seed))


def seed_commitment(seed: bytes) -> str:
    """Hex SHA-256 of the seed: published at the deal, checked when the seed is revealed."""
    return hashlib.sha256(seed).hexdigest()


def first_dealer(game_seed: bytes) -> int:
    """First byte of SHA-256(domain || game seed), modulo 4 (256 is a multiple of 4)."""
    return hashlib.sha256(DEALER_DOMAIN + game_seed).digest()[0] % 4


def _first_positions(dealer: int) -> tuple[tuple[int, ...], ...]:
    """Deck positions of each seat's first five cards when `dealer` deals."""
    positions: list[tuple[int, ...]] = [(), (), (), ()]
    for offset in range(1, 5):
        seat = (dealer + offset) % 4
        three = 3 * (offset - 1)
        two = 12 + 2 * (offset - 1)
        positions[seat] = (three, three + 1, three + 2, two, two + 1)
    return tuple(positions)


#: FIRST_POSITIONS[dealer][seat]: 3 then 2 cards each from `dealer + 1` round to the dealer
FIRST_POSITIONS = tuple(_first_positions(dealer) for dealer in range(4))


def deal_first_cards(
    deck: Sequence[int], dealer: int
) -> tuple[tuple[int, int, int, int], int, tuple[int, ...]]:
    """3 then 2 cards each from `dealer + 1` round to the dealer; the 21st card
    is turned; 11 stay in the stock. Returns (four masks, turned card, stock)."""
    hands = [
        1 << deck[a] | 1 << deck[b] | 1 << deck[c] | 1 << deck[d] | 1 << deck[e]
        for a, b, c, d, e in FIRST_POSITIONS[dealer]
    ]
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
