#!/bin/sh
# Starts the reedboard daemon on the simulated board; with arguments, runs `reedboard ARGS`
# in the caller's working directory (sh scripts/run.sh replay game.jsonl).
# (the web view's extra; on a Raspberry Pi the Pi's own too: lgpio, spidev, sdnotify, mpremote)
EXTRAS=web
if grep -qs "Raspberry Pi" /proc/device-tree/model; then
    EXTRAS=web,pi
fi
. "$(dirname "$0")/venv.sh"
if [ "$#" -eq 0 ]; then
    set -- run
fi
exec "$ROOT/.venv/bin/reedboard" "$@"
