#!/bin/sh
# Starts the reedboard daemon on the simulated board; with arguments, runs `reedboard ARGS`
# in the caller's working directory (sh scripts/run.sh replay game.jsonl).
. "$(dirname "$0")/venv.sh"
if [ "$#" -eq 0 ]; then
    set -- run
fi
exec "$ROOT/.venv/bin/reedboard" "$@"
