# Sourced by the other scripts (or run: sh scripts/venv.sh): makes the checkout's .venv on first
# use and keeps it in step with pyproject.toml. It sets ROOT, the checkout, and leaves the
# working directory alone, so paths given to the scripts are the caller's.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "reedboard needs Python 3.11 or newer ($PY is $("$PY" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x "$ROOT/.venv/bin/python" ]; then
    "$PY" -m venv "$ROOT/.venv" || {
        echo "could not make a virtual environment: on Debian, 'apt install python3-venv' first" >&2
        exit 1
    }
fi
# the extras: the caller's EXTRAS (run.sh: the web view, and the Pi's own on a Raspberry Pi;
# test.sh: the tests' too), each set installed once and again when pyproject.toml changes
EXTRAS=${EXTRAS:-test,web}
stamp=$ROOT/.venv/.reedboard-installed-$(echo "$EXTRAS" | tr ',' '-')
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    echo "reedboard: installing into $ROOT/.venv with [$EXTRAS] (once; a minute or so)" >&2
    "$ROOT/.venv/bin/python" -m pip install --quiet --upgrade pip
    (cd "$ROOT" && .venv/bin/python -m pip install --quiet -e ".[$EXTRAS]")
    touch "$stamp"
fi
