#!/bin/sh
# The whole check of this checkout: lint, strict types on every package (not the Pico's
# MicroPython firmware: pyproject.toml excludes it), then every test (hardware tests are
# skipped). It runs in the checkout's folder, so test paths are given from there.
. "$(dirname "$0")/venv.sh"
cd "$ROOT"
sh scripts/system-packages.sh
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict src/reedboard"
.venv/bin/mypy --strict src/reedboard
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
