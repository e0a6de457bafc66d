"""The audit benchmark's harness (bench/audit_bench.py) measures what it says it does."""

from __future__ import annotations

import pytest

from bench.audit_bench import verifier_median_ms
from bench.audit_store import audit_games_rate, chain_cost


def test_the_verifier_timing_audits_whole_valid_games():
    median, events = verifier_median_ms(games=2, rounds=1)
    assert median > 0
    assert events > 100


@pytest.mark.services
@pytest.mark.django_db
def test_the_chain_cost_times_real_appends_and_their_chain_work():
    cost = chain_cost(8)
    assert 0 < cost.head_read_ms + cost.hashing_ms < cost.append_ms
    assert 0 < cost.share < 1
    assert cost.column_bytes < cost.row_bytes


@pytest.mark.services
@pytest.mark.django_db
def test_the_throughput_run_audits_every_stored_game_and_finds_them_valid():
    rate, summary = audit_games_rate(4)
    assert rate > 0
    assert summary.startswith("audited 4 games")
    assert summary.endswith("4 valid, 0 invalid")
