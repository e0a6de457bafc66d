"""The benchmarks' harnesses play real games through the public APIs."""

import asyncio
import random
from dataclasses import replace

import pytest
from django.db import connection
from django.urls import Resolver404, resolve

from bench import action_work, instructions_bench, rules_bench
from bench.ceiling_table import CREATE_CEILING_TABLE
from bench.load_bench import run_all, user_counts, users_from
from bench.load_feed import TurnTracker
from bench.load_phase import PhaseSpec, Timing
from bench.load_users import tokens_for
from games import rules
from games.models import Game
from tests.live_server import live_server


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


def test_the_load_players_turn_tracker_names_the_engines_turn_after_every_append() -> None:
    seeds = rules_bench.SEEDS
    for game in range(3):
        chooser, tracker = random.Random(game), TurnTracker()
        start = rules.StartGame(seeds[game], seeds[game + 100])
        state, batch, step = rules.new_game(), rules.decide(rules.new_game(), start), 0
        while True:
            for event in batch:
                state = rules.apply(state, event)
                wire = rules.event_to_dict(event)
                tracker.see({"type": wire["type"], "data": wire})
            if state.phase == "finished":
                break
            assert tracker.turn == state.turn
            action = rules.parse_action(chooser.choice(rules.legal_actions(state, state.turn)))
            step += 1
            batch = rules.decide(state, rules.PlayerAction(state.turn, action, seeds[step % 997]))
        assert tracker.turn is None


@pytest.mark.parametrize("clients", [0, 2], ids=["one-process", "crowd-processes"])
@pytest.mark.parametrize("sse", [False, True], ids=["long-poll", "sse"])
@pytest.mark.django_db(transaction=True)
def test_the_load_loop_plays_and_every_follower_gets_each_event_once(
    sse: bool, clients: int
) -> None:
    """With `clients`, the spectators follow from processes of their own
    (bench/load_crowd.py), and what they received is checked all the same; they and the
    seats then follow through the feed's own URL (`--feed-workers`' path, here the same
    server)."""
    with connection.cursor() as cursor:
        cursor.execute(CREATE_CEILING_TABLE)
    lifted = {
        f"THROTTLE_{scope}": "1000000/min"
        for scope in ("LOGIN", "REGISTER", "GAME_CREATE", "GAME_ACTIONS")
    }
    spec = PhaseSpec(tables=1, spectators=2, sse=sse, clients=clients)
    timing = Timing(warmup=0.2, rate_seconds=1.0, seconds=2.0)
    users = users_from(tokens_for(user_counts([spec])))
    with live_server(DJANGO_SETTINGS_MODULE="bench.server_settings", **lifted) as server:
        if clients:
            users = (replace(users[0], feed_url=server.url), users[1])
        (result,) = asyncio.run(
            run_all(server.url, lambda: None, [spec], users, 0.05, timing, report=False)
        )

    tally, check = result.tally, result.check
    assert tally.errors == []
    assert tally.actions > 0
    for latencies in (tally.posts, tally.views, tally.deliveries, tally.yardstick):
        assert latencies
    firsts, lasts = tally.first_and_last()
    assert len(firsts) == len(lasts) == len(tally.by_event) > 0
    assert sum(len(times) for times in tally.by_event.values()) == len(tally.deliveries)
    assert all(first <= last for first, last in zip(firsts, lasts, strict=True))
    assert any(len(times) > 1 for times in tally.by_event.values())  # several followers
    assert check.followers >= 6  # four seats and two spectators, for each game played
    assert check.events > 0
    assert check.mismatches == []
    assert (tally.crowd_cpu > 0) == (clients > 0)
