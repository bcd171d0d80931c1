#!/bin/sh
# The whole check of this checkout: lint, strict types on every package (not the Pico's
# MicroPython firmware: pyproject.toml excludes it), then every test (hardware tests are
# skipped). It runs in the checkout's folder, so test paths are given from there. The tests run
# on one pytest-xdist worker per core (-n auto); a worker that runs out takes tests queued for
# another (worksteal: a few tests take 10-60 s, and plain load balancing left one worker a minute
# of them at the end). Arguments come after, so -n 0 runs the tests in one process (for --pdb).
EXTRAS=test,web
. "$(dirname "$0")/venv.sh"
cd "$ROOT"
sh scripts/system-packages.sh
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict src/reedboard"
.venv/bin/mypy --strict src/reedboard
echo "== pytest"
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
