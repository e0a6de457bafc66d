"""The load benchmark's printout: each phase's figures, then issue 12's targets."""

import os

from bench.load_measures import percentile_ms
from bench.load_phase import PhaseResult

DELIVERY_OVER_YARDSTICK = 4.0
POST_OVER_YARDSTICK = 4.0
CROWD_OVER_ONE = 3.0
CLIENT_BUSY_SHARE = 80  # % of a core


def _ms_per(seconds: float | None, count: int) -> str:
    # PostgreSQL's is a sum over its processes now: one that exits takes its CPU with it
    if seconds is None or seconds < 0 or not count:
        return "n/a"
    return f"{1000 * seconds / count:.1f} ms"


def print_phase(result: PhaseResult, think: float) -> None:
    tally, timing = result.tally, result.timing
    rate_actions = tally.rate_window_actions
    print(
        f"\n{result.spec.label}, think {think:.1f} s: "
        f"{tally.actions / timing.seconds:.1f} actions/s over {timing.seconds:.0f} s, "
        f"{tally.conflicts} version conflicts, {tally.views_off_turn} view reads off turn, "
        f"{tally.games_finished} games finished"
    )
    print(
        f"  server CPU per action, its deliveries included ({timing.rate_seconds:.0f} s rate "
        f"window, {rate_actions} actions, game clients alone): workers "
        f"{_ms_per(result.workers_cpu(0), rate_actions)}, PostgreSQL "
        f"{_ms_per(result.postgres_cpu(0), rate_actions)} (all its processes on this machine)"
    )
    transactions = result.transactions(0)
    if transactions is not None and rate_actions:
        print(
            f"  database transactions per action, its deliveries included (same window, "
            f"this database only): {transactions / rate_actions:.1f}"
        )
    client_share = 100 * result.client_cpu(1) / timing.seconds
    starved = " (near a whole core: the client's latencies include its own queue)"
    crowd = ""
    if result.spec.clients:
        crowd_share = 100 * tally.crowd_cpu / timing.seconds
        crowd = f", the spectators' {result.spec.clients} processes {crowd_share:.0f}% in all"
    print(
        f"  client CPU in the measured window: {client_share:.0f}% of a core (this process)"
        + crowd
        + (starved if client_share >= CLIENT_BUSY_SHARE else "")
    )
    print(f"  {'':<44}{'p50 ms':>8}{'p99 ms':>9}{'count':>8}")
    firsts, lasts = tally.first_and_last()
    rows = (
        ("POST of an action", tally.posts),
        ("GET of the view", tally.views),
        ("delivery to the other followers", tally.deliveries),
        ("  each event's first follower", firsts),
        ("  each event's last follower", lasts),
        (f"yardstick POST at {result.yardstick_rate:.1f}/s (game req/s)", tally.yardstick),
    )
    for name, latencies in rows:
        print(
            f"  {name:<44}{percentile_ms(latencies, 0.5):>8.1f}"
            f"{percentile_ms(latencies, 0.99):>9.1f}{len(latencies):>8}"
        )
    check = result.check
    verdict = "yes" if not check.mismatches and not tally.errors else "NO"
    print(
        f"  exactly once, in order: {check.followers} followers, {check.events} events "
        f"received: {verdict}"
    )
    for line in (check.mismatches + tally.errors)[:5]:
        print(f"    {line}")


def _p99(latencies: list[float]) -> float:
    return percentile_ms(latencies, 0.99)


def target_rows(results: list[PhaseResult]) -> list[tuple[str, float, str, bool]]:
    """Issue 12's targets over the phases that ran: (name, measured, wanted, met)."""
    rows = []
    for result in results:
        spec, tally = result.spec, result.tally
        if spec.tables == 32:
            feed = "SSE" if spec.sse else "long-poll"
            yardstick = _p99(tally.yardstick)
            for name, latencies, most in (
                ("delivery", tally.deliveries, DELIVERY_OVER_YARDSTICK),
                ("POST", tally.posts, POST_OVER_YARDSTICK),
            ):
                ratio = _p99(latencies) / yardstick
                rows.append(
                    (f"32 tables, {feed}: {name} p99 / yardstick p99", ratio, f"<= {most:.0f}",
                     ratio <= most)
                )  # fmt: skip
    for sse in (False, True):
        one = {r.spec.spectators: r for r in results if r.spec.tables == 1 and r.spec.sse == sse}
        if 1 in one and 200 in one:
            ratio = _p99(one[200].tally.deliveries) / _p99(one[1].tally.deliveries)
            feed = "SSE" if sse else "long-poll"
            rows.append(
                (f"1 table, {feed}: delivery p99, 200 spectators / 1", ratio,
                 f"<= {CROWD_OVER_ONE:.0f}", ratio <= CROWD_OVER_ONE)
            )  # fmt: skip
    return rows


def print_targets(results: list[PhaseResult]) -> bool:
    """Print the targets with 'met' or 'not met'; whether all were met."""
    print(
        f"\n{'target (issue 12)':<50}{'measured':>10}{'wanted':>9}  "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    rows = target_rows(results)
    for name, measured, wanted, met in rows:
        print(f"{name:<50}{measured:>9.2f}x{wanted:>9}  {'met' if met else 'not met'}")
    exact = all(not r.check.mismatches and not r.tally.errors for r in results)
    name = "every follower gets every event it may see once, in order"
    print(f"{name:<69}  {'met' if exact else 'not met'}")
    return exact and all(met for *_, met in rows)
