"""The rules package is pure: standard library only, no Django, no I/O, clock or global RNG."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"
FORBIDDEN_STDLIB = {"random", "time", "datetime", "os", "io", "socket", "subprocess", "pathlib"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_every_module_imports_only_the_stdlib_or_the_rules_package() -> None:
    modules = sorted(RULES.glob("*.py"))
    assert len(modules) > 10
    for path in modules:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if name.startswith("games.rules"):
                continue
            assert top != "games", f"{path.name} imports {name}"
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
            assert top not in FORBIDDEN_STDLIB, f"{path.name} imports {name} (I/O, clock or RNG)"


def test_importing_the_package_loads_no_django() -> None:
    code = (
        "import sys, games.rules; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'psycopg'}); "
        "print(','.join(bad))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=RULES.parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""
