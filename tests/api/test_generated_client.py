"""Proof by a client no one here wrote: `openapi-python-client` (pinned) generates a client
from the live server's /api/v1/schema/, without a warning, and that client registers,
opens a table, seats three bots and plays a whole game against them, through the
production server and a real Celery worker. Nothing here speaks HTTP by hand."""

import importlib
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import PASSWORD
from tests.integration.test_celery_round_trip import worker_process  # noqa: F401 (fixture)
from tests.live_server import live_server

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "belote_client"
# A bound for a stuck game, far above the seconds a game to 1 point takes.
DEADLINE_SECONDS = 120
LONG_POLL_SECONDS = 5


def _generate(schema_url: str, into: Path) -> str:
    """Generate the client package into `into`; the generator's whole output."""
    # The generator knows no NDJSON (the game's export, games/api/audit.py): it is told to
    # take it as bytes, which a client splits into lines itself (docs/audit.md).
    config = into / "generator.json"
    config.write_text(
        json.dumps({"content_type_overrides": {"application/x-ndjson": "application/octet-stream"}})
    )
    run = subprocess.run(
        [str(GENERATOR), "generate", "--url", schema_url, "--meta", "none",
         "--config", str(config), "--output-path", str(into / PACKAGE)],
        # Its post-generation hooks run ruff, which lives beside it.
        env={**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    return output


@pytest.fixture
def generated(tmp_path, worker_process):  # noqa: F811 (the imported fixture)
    queue = {
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_TASK_DEFAULT_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
    }
    with live_server(**queue) as server:
        output = _generate(f"{server.url}/api/v1/schema/", tmp_path)
        sys.path.insert(0, str(tmp_path))
        try:
            yield server.url, output
        finally:
            sys.path.remove(str(tmp_path))
            for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
                del sys.modules[name]


def _module(name: str):
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_generated_client_plays_a_whole_game_against_three_bots(generated):
    base_url, output = generated
    assert "warning" not in output.lower(), output
    (line,) = output.strip().splitlines()
    assert line.startswith("Generating "), output

    client, models = _module("client"), _module("models")
    register = _module("api.auth.register")
    create_game, add_bot = _module("api.games.create_game"), _module("api.games.add_bot")
    get_game, act = _module("api.games.get_game"), _module("api.games.act")
    list_events = _module("api.feed.list_events")

    anonymous = client.Client(base_url=base_url, raise_on_unexpected_status=True)
    credentials = models.RegisterRequest(username=f"gen_{uuid.uuid4().hex[:8]}", password=PASSWORD)
    token = register.sync(client=anonymous, body=credentials)
    assert isinstance(token, models.Token)
    player = client.AuthenticatedClient(
        base_url=base_url, token=token.token, raise_on_unexpected_status=True
    )

    table = create_game.sync(
        client=player,
        body=models.GameCreateInputRequest(
            seat=0, options=models.OptionsRequest(target=1, declarations=True)
        ),
    )
    assert isinstance(table, models.GameView)
    for seat, level in ((1, "random"), (2, "basic"), (3, "random")):
        table = add_bot.sync(
            table.id,
            client=player,
            body=models.BotSeatInputRequest(level=models.BotLevelEnum(level), seat=seat),
        )
        assert isinstance(table, models.GameView)

    rng = random.Random(11)
    played = 0
    deadline = time.monotonic() + DEADLINE_SECONDS
    view = get_game.sync(table.id, client=player)
    while view.status != models.GameStatusEnum.FINISHED and time.monotonic() < deadline:
        if view.legal_actions:
            action = rng.choice(view.legal_actions)
            answer = act.sync(
                table.id,
                client=player,
                body=models.GameActInputRequest(
                    action=models.ActionRequest.from_dict(action.to_dict()),
                    expected_version=view.version,
                ),
            )
            assert isinstance(answer, models.GameActOutput), answer
            played += 1
            view = answer.game
            continue
        page = list_events.sync(table.id, client=player, after=view.version, wait=LONG_POLL_SECONDS)
        assert isinstance(page, models.GameEventsOutput), page
        view = get_game.sync(table.id, client=player)

    assert view.status == models.GameStatusEnum.FINISHED
    assert played > 0
    assert view.winner is not None or view.scores[0] == view.scores[1]
    everything = list_events.sync(table.id, client=player, after=0, limit=500)
    kinds = {type(event).__name__ for event in everything.events}
    assert {"GameStartedEvent", "CardPlayedEvent", "HandScoredEvent", "GameFinishedEvent"} <= kinds
