"""`reedboard demo` (a scripted game on the simulated board) and `reedboard replay` (a sensor trace
through the referee)."""

from __future__ import annotations

import argparse
import json
import sys

from reedboard import engine
from reedboard.errors import CommandError


def cmd_demo(args: argparse.Namespace) -> int:
    from reedboard.cli.demo import demo

    if not engine.game(args.game).sensed:
        raise CommandError(
            f"{args.game} is played at the table, not on a sensed board: nothing to demo"
            f" (see `reedboard {args.game} --help`)"
        )
    colour = False if args.no_colour else None
    demo(
        args.game,
        seed=args.seed,
        plies=args.plies,
        speed=args.speed,
        colour=colour,
        out=lambda text: print(text, flush=True),
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    import logging

    from reedboard.sim.trace import faults, load_trace, replay

    trace = load_trace(args.trace)
    quiet = logging.NullHandler()  # a bug survived is said once, as a fault, not as a traceback
    logging.getLogger("reedboard").addHandler(quiet)
    try:
        session = replay(trace, args.game)
    finally:
        logging.getLogger("reedboard").removeHandler(quiet)
    result = session.result()
    if args.json:  # docs/design.md's one object; faults are among its alerts
        print(json.dumps(result))
        return 0
    for move in result["moves"]:
        print(move)
    print(result["position"])
    over = session.position.outcome()
    print(f"outcome: {over}" if over else "outcome: game goes on")
    for alert in result["alerts"]:
        if alert["kind"] in ("mismatch", "ambiguous", "roll-first", "move-first", "pass"):
            print(f"alert {alert['t']:.3f}: {alert['kind']}: {alert['text']}")
    found = faults(trace, session)
    for fault in found:
        print(f"reedboard: error: {fault}", file=sys.stderr)
    return 2 if found else 0
