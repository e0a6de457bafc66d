"""The layers point one way and nothing imports in a circle (pyproject.toml's contracts)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_contract_is_kept() -> None:
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout
