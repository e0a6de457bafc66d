"""The API keeps its own OpenAPI schema: schemathesis, with every check it has, against
the production server (tests/live_server.py) as a signed-in user.

`schemathesis run /api/v1/schema/ --checks all` with tests/api/schemathesis.toml (the
bounds: deterministic data, 15 examples an operation, short stateful scenarios; the
statuses a valid request may rightly get) and tests/api/schemathesis_hooks.py (a unique
Idempotency-Key per request, long-polls cut to a second, and the known failures owned
by other work, matched narrowly). Every operation is tested and no failure may remain.
"""

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest

from tests.conftest import PASSWORD
from tests.live_server import live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The throttles have their own tests (tests/api/test_throttling.py); here a 429 would
# only leave the operation behind it untested.
GENEROUS_RATES = {
    "THROTTLE_LOGIN": "100000/min",
    "THROTTLE_REGISTER": "100000/hour",
    "THROTTLE_GAME_CREATE": "100000/hour",
    "THROTTLE_TOURNAMENT_CREATE": "100000/hour",
    "THROTTLE_GAME_ACTIONS": "100000/min",
}
# A bound for a hung run, far above the few minutes it takes.
RUN_TIMEOUT = 900


def _register(base_url: str) -> str:
    """A user registered through the API, so that its password is hashed as the server
    hashes (the suite's own users use a fast test hasher the server does not know)."""
    username = f"schema_{uuid.uuid4().hex[:10]}"
    answer = httpx.post(
        f"{base_url}/api/v1/auth/register",
        json={"username": username, "password": PASSWORD},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return username


def test_every_operation_passes_every_schemathesis_check() -> None:
    with live_server(**GENEROUS_RATES) as server:
        base_url = server.url
        username = _register(base_url)
        run = subprocess.run(
            [
                str(Path(sys.executable).with_name("schemathesis")),
                "--config-file", str(HERE / "schemathesis.toml"),
                "run", f"{base_url}/api/v1/schema/",
                "--checks", "all",
                "--no-color",
            ],
            cwd=ROOT,
            env={
                **os.environ,
                "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
                "BELOTE_SCHEMA_USERNAME": username,
                "BELOTE_SCHEMA_PASSWORD": PASSWORD,
            },
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )  # fmt: skip
    report = run.stdout + run.stderr
    print(report)  # the counts, for whoever runs this with -s
    assert run.returncode == 0, report
    selected = re.search(r"Selected: (\d+)/(\d+)", report)
    tested = re.search(r"Tested: (\d+)", report)
    assert selected, report
    assert tested, report
    assert selected[1] == selected[2] == tested[1], report
