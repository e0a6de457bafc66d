"""The documented shuffle (docs/shuffle.md): fixed vectors and an independent re-implementation."""

from __future__ import annotations

import hashlib
import re
from itertools import chain
from pathlib import Path

import pytest

from games import rules
from games.rules import shuffle
from games.rules.shuffle import fisher_yates

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"

VECTORS = [
    (
        "00" * 32,
        "QH JH AS QS JD AD QC KH 9S 8H 8D JC 9H TC KD KC "
        "AH 8C TH QD TD KS 9C 8S 7H TS JS 9D 7S 7D AC 7C",
        1,
    ),
    (
        bytes(range(32)).hex(),
        "8S QH JS 9D 8D JD AS 9S 9H QD AC AH AD QS 8H 7H "
        "TH JH TC QC 7S 7D JC 7C TD KC KH KD TS 9C KS 8C",
        3,
    ),
    (
        "ff" * 32,
        "TH QC AH JD 9H AS 8D TS 7C AD KH 9D 9C KC KS 8S "
        "QD 8C 9S 8H KD TD JS 7H AC QS JC 7S 7D JH TC QH",
        1,
    ),
    (
        "62656c6f7465",
        "KD QS AC 8H 7S 9H 8S TD 9C KC TH TC 8C AH JD 8D "
        "QC AS JH 7H TS KS 9S JS QH QD KH 7C JC 7D AD 9D",
        1,
    ),
]


def reference_deck(seed: bytes) -> list[str]:
    """docs/shuffle.md read literally, written apart from the engine's code."""
    deck = sorted(rank + suit for rank in "789TJQKA" for suit in "SHDC")
    words: list[int] = []
    counter = 0
    for i in range(31, 0, -1):
        n = i + 1
        while True:
            if not words:
                block = hashlib.sha256(b"belote/shuffle/v1" + seed + counter.to_bytes(4, "big"))
                digest = block.digest()
                words = [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]
                counter += 1
            x = words.pop(0)
            if x < 2**32 - (2**32 % n):
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize(("seed_hex", "deck", "dealer"), VECTORS)
def test_shuffle_vectors(seed_hex: str, deck: str, dealer: int) -> None:
    seed = bytes.fromhex(seed_hex)
    assert list(rules.shuffled_deck(seed)) == deck.split()
    assert rules.first_dealer(seed) == dealer


@pytest.mark.parametrize(("seed_hex", "deck", "dealer"), VECTORS)
def test_the_doc_lists_the_same_vectors(seed_hex: str, deck: str, dealer: int) -> None:
    text = DOC.read_text()
    assert f"`{deck}` | {dealer} |" in text


def test_the_engine_matches_a_literal_reading_of_the_doc() -> None:
    for n in range(200):
        seed = hashlib.sha256(n.to_bytes(2, "big")).digest()[: 1 + n % 32]
        assert list(rules.shuffled_deck(seed)) == reference_deck(seed)


def test_words_at_or_above_the_limit_are_redrawn() -> None:
    # The second draw is for n = 31, whose limit is 2^32 - (2^32 mod 31) = 2^32 - 4.
    zeros = [0] * 40
    with_rejections = fisher_yates(iter([0, 2**32 - 1, 2**32 - 4, 5, *zeros]))
    assert with_rejections == fisher_yates(iter([0, 5, *zeros]))
    just_below = fisher_yates(iter([0, 2**32 - 5, *zeros]))  # accepted: j = (2^32 - 5) mod 31
    assert just_below[30] == (2**32 - 5) % 31


def test_a_rejected_word_in_the_prefetched_blocks_is_redrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No known seed draws a rejected word (odds below 2^-26 a shuffle): plant one.
    first = [1000 + 7 * n for n in range(32)]
    first[3] = 2**32 - 1  # the draw for n = 29: rejected, the next word is used instead
    monkeypatch.setattr(shuffle, "_first_words", lambda seed: tuple(first))
    deck = shuffle.shuffled_ids(b"seed")
    assert deck == fisher_yates(chain(first, shuffle._blocks_from(b"seed", 4)))
    assert deck == fisher_yates(iter(first[:3] + first[4:]))
    assert sorted(deck) == list(range(32))


def test_commitment_is_the_sha256_of_the_seed() -> None:
    seed = bytes(32)
    assert rules.seed_commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert re.fullmatch("[0-9a-f]{64}", rules.seed_commitment(seed))


def test_every_shuffle_is_a_permutation() -> None:
    for n in range(50):
        deck = rules.shuffled_deck(n.to_bytes(4, "big"))
        assert sorted(deck) == sorted(rules.CARD_NAMES)
