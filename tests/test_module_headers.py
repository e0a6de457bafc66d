"""Every module of ours says in its first line what it is (the developers' guide)."""

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if "/migrations/" not in name]


def test_every_module_opens_with_a_docstring_saying_what_it_is() -> None:
    silent = []
    for path in _modules():
        source = path.read_text()
        if not source.strip():
            continue  # an empty __init__.py only marks a package
        tree = ast.parse(source)
        first = tree.body[0] if tree.body else None
        # a script's `#!` line may come first
        first_line = 2 if source.startswith("#!") else 1
        opens_with_docstring = (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
            and first.lineno == first_line
            and first.value.value.strip() != ""
        )
        if not opens_with_docstring:
            silent.append(str(path.relative_to(ROOT)))
    assert silent == []
