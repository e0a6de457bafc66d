# Sourced by the scripts in this folder: go to the repository root and make sure a
# virtual environment with the project installed exists.
#   PYTHON       interpreter that creates the venv (default: python3, 3.11 or newer)
#   VENV         where the venv lives (default: .venv)
#   EXTRA_PIP    extra requirement specs installed alongside, e.g. 'Django>=6,<7'
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-$ROOT/.venv}"
EXTRA_PIP="${EXTRA_PIP:-}"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ensure_venv runtime|dev : (re)install when the venv is new or pyproject.toml changed.
ensure_venv() {
    local extras="$1" target=".[dev]"
    [ "$extras" = runtime ] && target="."
    if [ ! -x "$VENV/bin/python" ]; then
        "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
            || die "$PYTHON is $("$PYTHON" --version 2>&1); Python 3.11 or newer is needed"
        say "creating $VENV with $("$PYTHON" --version)"
        "$PYTHON" -m venv "$VENV"
    fi
    # A dev install includes the runtime one, so either stamp satisfies "runtime".
    local stamp
    for stamp in "$VENV/.belote-dev" "$VENV/.belote-$extras"; do
        if [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ] \
            && [ "$(cat "$stamp")" = "$EXTRA_PIP" ]; then
            return 0
        fi
        [ "$extras" = dev ] && break
    done
    say "installing the project ($target${EXTRA_PIP:+ $EXTRA_PIP}) into $VENV"
    # shellcheck disable=SC2086  # EXTRA_PIP is a list of specs
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        -e "$target" $EXTRA_PIP
    printf '%s' "$EXTRA_PIP" > "$VENV/.belote-$extras"
}
