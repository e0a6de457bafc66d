"""The load benchmark's users: one per seat of each table and one per spectator.

Each seat and each spectator is a user of its own, as on the real service, so the
product's cap on the feeds a user holds open (`MAX_OPEN_FEEDS_PER_USER`) stays as it
is. Signing hundreds of users up over HTTP would hash as many passwords on the server
before the run (a minute of its CPU on a busy machine) and measure nothing the issue
asks: they are made in the benchmark's database directly, with no usable password and
an access token each, by this module run with the server's settings:

    python -m bench.load_users seat=256 spectator=200 yardstick=4   (prints JSON)
"""

import json
import subprocess
import sys

import django

from bench.load_server import ROOT


def make_users(env: dict[str, str], counts: dict[str, int]) -> dict[str, list[str]]:
    """`counts[prefix]` users named `<prefix><n>` each; their bearer tokens by prefix."""
    arguments = [f"{prefix}={count}" for prefix, count in counts.items()]
    made = subprocess.run(
        [sys.executable, "-m", "bench.load_users", *arguments],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    tokens: dict[str, list[str]] = json.loads(made.stdout)
    return tokens


def tokens_for(counts: dict[str, int]) -> dict[str, list[str]]:
    """What `make_users` does, in this process (Django set up, its database reachable)."""
    # Imported here: bench/load_bench.py imports this module before (without) Django.
    from accounts.models import User  # noqa: PLC0415
    from accounts.services import access_token_issue  # noqa: PLC0415

    tokens: dict[str, list[str]] = {}
    for prefix, count in counts.items():
        users = [User.objects.create_user(username=f"{prefix}{n}") for n in range(count)]
        tokens[prefix] = [access_token_issue(user=user) for user in users]
    return tokens


def _main(arguments: list[str]) -> None:
    django.setup()
    counts = {}
    for argument in arguments:
        prefix, _, count = argument.partition("=")
        counts[prefix] = int(count)
    print(json.dumps(tokens_for(counts)))


if __name__ == "__main__":
    _main(sys.argv[1:])
