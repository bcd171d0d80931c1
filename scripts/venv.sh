# Sourced by the other scripts: makes ./.venv on first use and keeps it in step with pyproject.toml.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "reedboard needs Python 3.11 or newer ($PY is $("$PY" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv || {
        echo "could not make a virtual environment: on Debian, 'apt install python3-venv' first" >&2
        exit 1
    }
fi
stamp=.venv/.reedboard-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    touch "$stamp"
fi
