"""The floor of target (a) of the load benchmark: an action's own work, without HTTP.

    .venv/bin/python -m bench.floor_bench [--actions 1000]     (about a minute)

Target (a) asks that actions/s reach half the requests/s of the trivial insert endpoint.
An action is two requests (the seat's view, then the POST) and the ceiling one, so on a
machine the clients share, it can only hold if the two requests of an action cost no
more CPU than two ceiling requests. This measures, in one process and without HTTP:

- a ceiling request, served by the production ASGI application (Django, middleware,
  DRF, the bearer token's read, the INSERT);
- an action's application work alone: what the GET and the POST do besides HTTP, Django
  and DRF (token and table read, view, legal actions, JSON; the same read, the
  throttle's Redis script, decide, append, the answer's JSON): the cost of the hot path
  if the framework around it cost nothing;

each as CPU of this process plus CPU of the local PostgreSQL server's processes. If the
second exceeds twice the first, no HTTP stack however lean reaches target (a).
Needs PostgreSQL and Redis on their default local ports; recreates `belote_bench`.
"""

from __future__ import annotations

import argparse
import os

import django

from bench.load_server import prepare_database, server_environment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="per round (3 rounds)")
    args = parser.parse_args()

    env = server_environment("bench.server_settings")
    prepare_database(env)
    os.environ.update(env)
    django.setup()
    # Django's modules load only once it is set up
    from bench.action_work import ActionWork, AsgiCaller, cost_ms  # noqa: PLC0415

    work = ActionWork()
    caller = AsgiCaller()
    ceiling_path = "/api/v1/bench/insert"
    assert caller.request("POST", ceiling_path, work.tokens[0])[0] == 201, "no bench endpoint"

    ceiling = cost_ms(lambda: caller.request("POST", ceiling_path, work.tokens[0]), args.actions)
    whole = cost_ms(lambda: work.act_over_asgi(caller), args.actions)
    action = cost_ms(work.act, args.actions)

    def total(cost: tuple[float, float | None]) -> float:
        return cost[0] + (cost[1] or 0.0)

    print(f"in one process, CPU per call ({args.actions} actions):")
    for name, (own, database) in (
        ("ceiling request, whole stack", ceiling),
        ("action (GET + POST), whole stack", whole),
        ("action's work alone (GET + POST)", action),
    ):
        shown = "n/a" if database is None else f"{database:.2f} ms"
        print(f"  {name:<34} Python {own:5.2f} ms  PostgreSQL {shown:>8}")
    print(
        f"an action costs {total(whole) / (2 * total(ceiling)):.2f} x two ceiling requests; "
        f"its work alone, {total(action) / (2 * total(ceiling)):.2f} x "
        "(above 1.00, target (a) is out of reach of any HTTP stack)"
    )


if __name__ == "__main__":
    main()
