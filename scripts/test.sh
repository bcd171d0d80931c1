#!/bin/sh
# The whole check of this checkout: lint, strict types on the engine, then every test (hardware
# tests are skipped). It runs in the checkout's folder, so test paths are given from there.
. "$(dirname "$0")/venv.sh"
cd "$ROOT"
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict engine/"
.venv/bin/mypy --strict engine/
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
