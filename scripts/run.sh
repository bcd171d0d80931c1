#!/bin/sh
# Starts the reedboard daemon on the simulated board; with arguments, runs `reedboard ARGS`.
. "$(dirname "$0")/venv.sh"
if [ "$#" -eq 0 ]; then
    set -- run
fi
exec .venv/bin/reedboard "$@"
