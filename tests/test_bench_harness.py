"""The benchmarks' harnesses play real games through the public APIs."""

import random

import pytest
from django.urls import Resolver404, resolve

from bench import action_work, instructions_bench, rules_bench
from games import rules
from games.models import Game


def test_a_benchmark_game_records_every_event_and_counts_its_hands() -> None:
    events, hands, final = rules_bench.random_game(random.Random(5), 5)
    assert final.phase == "finished"
    assert rules.replay(events) == final
    scored = [e for e in map(rules.event_to_dict, events) if e["type"] == "hand_scored"]
    assert hands == len(scored) > 0


def test_the_instruction_count_plays_the_same_games_as_the_timed_benchmark() -> None:
    rng = random.Random(1)
    timed = sum(rules_bench.random_game(rng, number)[1] for number in (1, 2))
    assert instructions_bench.play(2, typed=False) == timed


@pytest.mark.django_db(transaction=True)
def test_the_floor_benchmark_plays_actions_with_and_without_the_http_stack() -> None:
    work = action_work.ActionWork()
    caller = action_work.AsgiCaller()
    versions = []
    for act in (work.act, work.act, lambda: work.act_over_asgi(caller), work.act):
        act()
        versions.append(Game.objects.get().version)

    assert versions == sorted(set(versions))  # each action appended events
    assert versions[0] > 0


def test_the_yardstick_endpoint_is_routed_only_by_the_benchmarks_urls() -> None:
    with pytest.raises(Resolver404):
        resolve("/api/v1/bench/insert")
    assert resolve("/api/v1/bench/insert", urlconf="bench.urls").url_name == "bench-insert"
    assert resolve("/api/v1/games", urlconf="bench.urls").url_name == "games"
