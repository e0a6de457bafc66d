"""`python -m games.audit.verify` runs from a bare checkout: no site-packages, Django and
every other framework made unimportable, the standard library and our rules only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.audit_games import ndjson, played_game, rechained, rows_of

ROOT = Path(__file__).resolve().parents[2]
# -I -S: no site-packages on the path at all; the finder refuses the frameworks even if
# some other path held them. Then the verifier runs as `python -m` would run it.
_BARE = f"""
import importlib.abc, runpy, sys
sys.path.insert(0, {str(ROOT)!r})
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {{"django", "rest_framework", "celery", "rfc8785"}}:
            raise ImportError(f"{{name}} is not allowed offline")
        return None
sys.meta_path.insert(0, Refuse())
sys.argv = ["belote-verify", *sys.argv[1:]]
if sys.argv[1:2] == ["--probe"]:
    import django
runpy.run_module("games.audit.verify", run_name="__main__")
"""


def _verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", _BARE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd="/",
    )


@pytest.fixture(scope="module")
def rows():
    return rows_of(played_game(21))


def test_the_bare_interpreter_cannot_import_django():
    probe = _verify("--probe")
    assert probe.returncode != 0
    assert "django is not allowed offline" in probe.stderr


def test_a_valid_log_exits_0(tmp_path, rows):
    log = tmp_path / "game.ndjson"
    log.write_text(ndjson(rows))
    done = _verify(str(log), "--receipt", f"30:{rows[29]['hash']}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"valid: {len(rows)} events")
    assert rows[-1]["hash"] in done.stdout


def test_a_rewritten_log_exits_1_with_the_first_discrepancy(tmp_path, rows):
    changed = [dict(row) for row in rows]
    changed[40] = {**changed[40], "payload": {**changed[40]["payload"], "seat": 3}}
    log = tmp_path / "game.ndjson"
    log.write_text(ndjson(changed))
    done = _verify(str(log))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "invalid at seq 41: chain"
    log.write_text(ndjson(rechained(rows_of(played_game(22)))))
    done = _verify(str(log), "--receipt", f"30:{rows[29]['hash']}", "--json")
    assert done.returncode == 1
    assert '"what": "receipt"' in done.stdout


def test_a_usage_error_or_a_missing_file_exits_2(tmp_path):
    assert _verify(str(tmp_path / "missing.ndjson")).returncode == 2
    assert _verify(str(tmp_path / "x"), "--receipt", "0:abc").returncode == 2
