"""Commit-reveal (docs/fairness.md) as the verifier checks it: each deal's secret links to
the published commitment, its contributions are the ones fixed at the start, its seed is
the documented function of both, and each hand's end reveals that secret."""

from __future__ import annotations

import hashlib

import pytest

from bench.audit_games import fair_game, forged, rows_of
from games.audit.verify import audit_rows
from games.rules import fairness
from games.rules.scoring import MAX_HANDS


@pytest.fixture(scope="module")
def game():
    return rows_of(fair_game(7))


def _index(rows, kind, nth=0):
    return [i for i, row in enumerate(rows) if row["type"] == kind][nth]


def _found(rows):
    report = audit_rows(rows)
    assert report.discrepancy is not None, "the forgery went unseen"
    return report.discrepancy


def test_the_chain_of_secrets_walks_back_to_the_commitment():
    end = bytes(range(32))
    first, second = fairness.hand_secret(end, 1), fairness.hand_secret(end, 2)
    assert fairness.step(second) == first
    assert fairness.step(first).hex() == fairness.commitment(end)
    assert fairness.hand_secret(end, MAX_HANDS) == end
    expected = hashlib.sha256(
        b"belote/hand-seed/v1"
        + first
        + b"".join(hashlib.sha256(s.encode()).digest() for s in ("a", "", "b", "c"))
        + (1).to_bytes(4, "big")
    ).digest()
    assert fairness.hand_seed(first, ("a", "", "b", "c"), 1) == expected


def test_a_commit_reveal_game_is_valid(game):
    report = audit_rows(game)
    assert report.valid, report.discrepancy
    assert report.finished
    dealt = [row["payload"] for row in game if row["type"] == "hand_dealt"]
    assert all(len(payload["secret"]) == 64 for payload in dealt)
    assert game[0]["payload"]["client_seeds"] == ["a", "", "b7", "zz"]


def test_a_secret_that_does_not_link_to_the_commitment_is_named(game):
    index = _index(game, "hand_dealt", 1)
    found = _found(forged(game, index, secret="ab" * 32))
    assert (found.seq, found.what) == (index + 1, "secret_commitment")


def test_a_commitment_that_does_not_match_the_first_secret_is_named(game):
    found = _found(forged(game, 0, secret_chain="cd" * 32))
    assert (found.seq, found.what) == (2, "secret_commitment")


def test_a_contribution_changed_after_the_commitment_is_named(game):
    index = _index(game, "hand_dealt", 2)
    found = _found(forged(game, index, client_seeds=["a", "", "b7", "changed"]))
    assert (found.seq, found.what) == (index + 1, "contribution_changed")
    assert found.found[3] == "changed"


def test_a_seed_not_derived_from_its_secret_and_contributions_is_named(game):
    index = _index(game, "hand_dealt", 1)
    found = _found(
        forged(
            game,
            index,
            seed="ef" * 32,
            seed_commitment=hashlib.sha256(bytes.fromhex("ef" * 32)).hexdigest(),
        )
    )
    assert (found.seq, found.what) == (index + 1, "hand_seed")


def test_a_game_seed_not_derived_from_the_first_secret_is_named(game):
    found = _found(forged(game, 0, game_seed="00" * 32))
    assert (found.seq, found.what) == (1, "game_seed")


def test_a_secret_revealed_otherwise_than_dealt_is_named(game):
    index = _index(game, "hand_scored")
    found = _found(forged(game, index, secret="12" * 32))
    assert (found.seq, found.what) == (index + 1, "secret_reveal")
