#!/bin/sh
# The whole check: lint, strict types on the engine, then every test (hardware tests are skipped).
. "$(dirname "$0")/venv.sh"
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict engine/"
.venv/bin/mypy --strict engine/
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
