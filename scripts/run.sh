#!/bin/sh
# Starts reedboard on the simulated board (arguments go to `reedboard`).
. "$(dirname "$0")/venv.sh"
if [ "$#" -eq 0 ]; then
    set -- games
fi
exec .venv/bin/reedboard "$@"
