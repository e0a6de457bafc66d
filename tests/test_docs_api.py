"""docs/api.md runs as written: its ```sh blocks, in order, as one bash script against the
production server and a Celery worker (the bots), failing on the first command that fails.

The guide is the script: nothing is substituted but BASE, the server's URL.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from tests.integration.test_celery_round_trip import worker_process  # noqa: F401 (fixture)
from tests.live_server import live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parent.parent / "docs"
# A walkthrough's bots answer in well under a second each; this bounds a hung script.
SCRIPT_TIMEOUT_SECONDS = 300


def shell_blocks(markdown: str, language: str = "sh") -> list[str]:
    """The fenced code blocks of `language`, in document order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def test_the_guide_has_the_walkthrough_blocks():
    blocks = shell_blocks((DOCS / "api.md").read_text())
    script = "\n".join(blocks)
    assert len(blocks) >= 10
    for step in ("auth/register", "Idempotency-Key", "If-Match", "wait=", "curl -sSN"):
        assert step in script


@pytest.mark.slow
@pytest.mark.usefixtures("worker_process")
def test_docs_api_runs_as_written(tmp_path):
    script = "\n".join(shell_blocks((DOCS / "api.md").read_text()))
    # The server queues bot turns on this run's queue, which the worker fixture consumes.
    with live_server(CELERY_TASK_DEFAULT_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE) as server:
        result = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", script],
            cwd=tmp_path,
            env={**os.environ, "BASE": server.url},
            capture_output=True,
            text=True,
            timeout=SCRIPT_TIMEOUT_SECONDS,
            check=False,
        )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    print(result.stdout)  # shown with -s, or when an assertion below fails
    assert "not_your_turn" in result.stdout
    assert "idempotent-replayed: true" in result.stdout.lower()
    assert "409 version_conflict" in result.stdout
    assert "event: card_played" in result.stdout
