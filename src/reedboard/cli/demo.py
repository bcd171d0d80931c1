"""``reedboard demo``: a scripted game through the whole stack on the simulated board.

Hands move pieces on the simulated board (switch events, with bounce), the session recognizes
the moves, checks them against the engine, stores nothing and lights the LEDs; the terminal
shows the board and its LEDs after every move. A game with a known line of play (the engine's
:meth:`~engine.Position.demo_line`: Solitaire's seed key) plays it; the others play a seeded
random game."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from reedboard import engine
from reedboard.daemon.terminal import draw, pieces_of
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import Session
from reedboard.sim.runner import Clock, Runner
from reedboard.sim.trace import Trace
from reedboard.sim.tracegen import Hands, play_move, random_game_trace
from reedboard.wiring.layout import layout_for_game


def script(game_id: str, seed: int, plies: int) -> Trace:
    rng = random.Random(seed)
    start = engine.start(game_id)
    line = start.demo_line()
    if line:
        hands = Hands(rng, bounce=0.2)
        position = start.copy()
        for text in line[:plies]:
            move = position.parse_move(text)
            play_move(hands, position, move)
            hands.wait(0.3, 0.6)
            position.push(move)
        return Trace(game_id, start.occupied(), start.option_values(), hands.lines)
    trace, _ = random_game_trace(start, rng, plies, bounce=0.2)
    return trace


def demo(
    game_id: str,
    *,
    seed: int = 1,
    plies: int = 40,
    speed: float = 4.0,
    colour: bool | None = None,
    out: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> Session:
    trace = script(game_id, seed, plies)
    layout = layout_for_game(game_id)
    clock = Clock()
    board = SimulatedBoard(layout, trace.occupied, clock=clock)
    dice = ScriptedDice()
    shown = [0]

    def on_alert(t: float, kind: str, text: str) -> None:
        if kind in ("move", "extend", "throw", "mismatch", "ambiguous", "pass", "game-over"):
            out(f"[{t:7.2f}s] {kind}: {text}")
            if kind in ("move", "extend", "game-over"):
                shown[0] += 1

    session = Session(board, layout, game_id, dice=dice, on_alert=on_alert)
    session.start(0.0)
    runner = Runner(session, board, clock, dice, sleep=lambda dt: sleep(max(0.0, dt) / speed))
    use_colour = (sys.stdout is not None and sys.stdout.isatty()) if colour is None else colour
    drawn = -1
    for line in trace.lines:
        runner.feed(line)  # through the board, on the one clock
        if shown[0] != drawn:
            drawn = shown[0]
            lights = board.leds.lights(runner.now)  # the LEDs as they look now (the sweep)
            out(draw(layout, pieces_of(session.position), lights, board.dice, use_colour))
    runner.advance(runner.now + session.hold + 1.0)  # (a move the board waits on is taken)
    lights = board.leds.lights(runner.now)
    out(draw(layout, pieces_of(session.position), lights, board.dice, use_colour))
    over = session.position.outcome()
    out(f"{len(session.position.move_stack)} moves; " + (str(over) if over else "the game goes on"))
    return session
