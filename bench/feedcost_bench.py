"""What one follower costs the server when a game moves: woken long-polls and their re-polls.

    .venv/bin/python -m bench.feedcost_bench [--followers 200] [--actions 20] [--profile F]

In one process, the production ASGI application: FOLLOWERS spectators each park a
long-poll (`/events?after=V&wait=20`) on one game; then a player acts and the time until
every poll has answered, and this process's CPU meanwhile, is measured ("wake"); then the
followers send their next poll, which parks again ("re-poll"). Both per follower; the
action's own work (a few ms) is in the first. With `--profile`, also the thread hops per
poll: calls to `run_in_executor`, each a trip of a coroutine to a thread and back
(asgiref's `sync_to_async`), a count that does not depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import secrets
import time
from typing import Any

import django

from bench.asgi_scope import asgi_request
from bench.load_server import PASSWORD, prepare_database, server_environment


def report(followers: int, wakes: list[tuple[float, float]], repolls: list[float]) -> None:
    """Medians and minima (other jobs on the machine only ever add to a figure)."""
    walls = sorted(wall for wall, _ in wakes)
    woken = sorted(cpu * 1000 / followers for _, cpu in wakes)
    again = sorted(cpu * 1000 / followers for cpu in repolls)
    print(f"{followers} followers, {len(wakes)} actions; CPU per follower, median (least):")
    print(f"  woken poll answered: {woken[len(woken) // 2]:.3f} ms ({woken[0]:.3f} ms)")
    print(f"  next poll parked:    {again[len(again) // 2]:.3f} ms ({again[0]:.3f} ms)")
    print(f"  every poll answered {walls[len(walls) // 2] * 1000:.0f} ms after the action began")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--profile", help="write a cProfile of the wakes and re-polls here")
    args = parser.parse_args()

    env = server_environment(os.environ.get("FEED_COST_SETTINGS", "bench.server_settings"))
    env["MAX_OPEN_FEEDS_PER_USER"] = "4"
    prepare_database(env)
    os.environ.update(env)
    django.setup()
    from accounts.services import access_token_issue, user_register  # noqa: PLC0415
    from belote_project.asgi import application  # noqa: PLC0415
    from games import rules, selectors, services, store  # noqa: PLC0415

    suffix = secrets.token_hex(3)
    players = [user_register(username=f"p{n}_{suffix}", password=PASSWORD) for n in range(4)]
    watchers = [
        user_register(username=f"w{n}_{suffix}", password=PASSWORD) for n in range(args.followers)
    ]
    tokens = [access_token_issue(user=user) for user in watchers]
    game = services.game_create(user=players[0], options={}, seat=0)
    for seat in (1, 2, 3):
        game = services.seat_join(game_id=game.id, user=players[seat], seat=seat)
    path = f"/api/v1/games/{game.id}/events"
    chooser = random.Random(1)
    profile = cProfile.Profile() if args.profile else None

    def act() -> int:
        read = selectors.table_state(game.id)
        turn = rules.summary(read.loaded.state).turn
        assert turn is not None
        view, _ = selectors.game_view_for(read, players[turn])
        action = chooser.choice(view["legal_actions"])
        services.game_act(
            game_id=game.id, user=players[turn], action=action, expected_version=view["version"]
        )
        return int(store.load(game.id).version)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        version = await loop.run_in_executor(None, lambda: store.load(game.id).version)
        wakes: list[tuple[float, float]] = []
        repolls: list[float] = []
        polls = [
            asyncio.ensure_future(
                asgi_request(application, "GET", path, t, query=f"after={version}&wait=20")
            )
            for t in tokens
        ]
        await asyncio.sleep(2.0)
        for number in range(args.actions):
            cpu = time.process_time()
            if profile and number:
                profile.enable()
            start = time.perf_counter()
            version = await loop.run_in_executor(None, act)
            answers = await asyncio.gather(*polls)
            wall = time.perf_counter() - start
            if profile:
                profile.disable()
            assert all(status == 200 and answer["events"] for status, answer in answers)
            wakes.append((wall, time.process_time() - cpu))
            cpu = time.process_time()
            if profile and number:
                profile.enable()
            polls = [
                asyncio.ensure_future(
                    asgi_request(application, "GET", path, t, query=f"after={version}&wait=20")
                )
                for t in tokens
            ]
            await asyncio.sleep(1.0)  # every poll parks again
            if profile:
                profile.disable()
            repolls.append(time.process_time() - cpu)
        for poll in polls:
            poll.cancel()
        report(args.followers, wakes, repolls)

    asyncio.run(run())
    if profile:
        profile.dump_stats(args.profile)
        # pstats documents `stats` (function -> call counts and times), without a type.
        stats: dict[tuple[str, int, str], tuple[Any, ...]] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        hops = sum(counts[0] for (_, _, name), counts in stats.items() if name == "run_in_executor")
        polls = 2 * args.followers * (args.actions - 1)
        print(f"  thread hops (run_in_executor calls) per poll: {hops / polls:.1f}")


if __name__ == "__main__":
    main()
