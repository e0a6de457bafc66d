"""docs/feed.md's client recipes work as written: its Python block (httpx) and its
JavaScript blocks (fetch, run by Node.js) follow a finished game on the production
server from the start, resume from a cursor, and stop on the stream's 204."""

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import access_token_issue
from tests.games.feed_support import play_random, seated_table
from tests.live_server import LiveServer, live_server
from tests.test_docs_api import shell_blocks

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FEED_DOC = Path(__file__).resolve().parent.parent / "docs" / "feed.md"
NODE_TIMEOUT_SECONDS = 120
# The driver the JavaScript recipes run under: the same three follows as the Python test.
JS_DRIVER = """
const [baseUrl, token, gameId, version] = process.argv.slice(2);
const seqs = async (follow, options) => {
  const seen = [];
  const onEvent = (event) => seen.push(event.seq);
  const last = await follow({ baseUrl, token, gameId, onEvent, ...options });
  return { last, seen };
};
const result = {
  stream: await seqs(followStream, {}),
  resumed: await seqs(followStream, { lastEventId: Number(version) - 3 }),
  over: await seqs(followStream, { lastEventId: Number(version) }),
  pages: await seqs(followPages, {}),
};
console.log(JSON.stringify(result));
"""


@pytest.fixture
def server(django_db_setup: None) -> Iterator[LiveServer]:
    with live_server() as started:
        yield started


@pytest.fixture
def finished_game(make_user: Callable[..., User]) -> tuple[str, str, int]:
    """(game id, a seated player's token, the final version) of a game played out."""
    table = seated_table(make_user, target=1)
    version = play_random(table, 400)
    return str(table.game_id), access_token_issue(user=table.players[0]), version


def recipes(language: str) -> str:
    return "\n".join(shell_blocks(FEED_DOC.read_text(), language))


def test_the_python_recipe_follows_a_game_resumes_and_stops(server, finished_game):
    game_id, token, version = finished_game
    namespace: dict[str, Any] = {}
    exec(compile(recipes("python"), str(FEED_DOC), "exec"), namespace)
    follow_stream, follow_pages = namespace["follow_stream"], namespace["follow_pages"]

    streamed: list[dict[str, Any]] = []
    assert follow_stream(server.url, token, game_id, streamed.append) == version
    resumed: list[dict[str, Any]] = []
    assert follow_stream(server.url, token, game_id, resumed.append, version - 3) == version
    over: list[dict[str, Any]] = []
    assert follow_stream(server.url, token, game_id, over.append, version) == version
    paged: list[dict[str, Any]] = []
    assert follow_pages(server.url, token, game_id, paged.append) == version

    seqs = [event["seq"] for event in streamed]
    assert seqs == sorted(set(seqs))
    assert streamed[-1]["type"] == "game_finished"
    assert [event["seq"] for event in resumed] == [s for s in seqs if s > version - 3]
    assert over == []
    assert paged == streamed


def test_the_javascript_recipes_follow_a_game_resumes_and_stop(server, finished_game, tmp_path):
    node = shutil.which("node")
    assert node, "Node.js runs the JavaScript recipes (the machine ships it)"
    game_id, token, version = finished_game
    script = tmp_path / "recipes.mjs"
    script.write_text(recipes("js") + "\n" + JS_DRIVER)

    run = subprocess.run(
        [node, str(script), server.url, token, game_id, str(version)],
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_SECONDS,
        check=False,
    )

    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    seqs = result["stream"]["seen"]
    assert result["stream"]["last"] == version
    assert seqs == sorted(set(seqs))
    assert seqs[-1] == version
    assert result["resumed"] == {"last": version, "seen": [s for s in seqs if s > version - 3]}
    assert result["over"] == {"last": version, "seen": []}
    assert result["pages"] == {"last": version, "seen": seqs}
