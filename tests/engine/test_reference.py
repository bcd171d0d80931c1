"""The engine against an independent model of the rules, move set by move set, over random
games of every cross-board game and every diagonal pattern, and of the race games' corners
(Parchesi's double 6 in any order; Messenger Boy's lost turns and chains of orders)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from reedboard import engine
from tests.engine.reference import SEEN, MessengerRef, ParchesiRef, Ref, parchesi_route

CASES = [
    ("fox-and-geese", {"diagonals": "alternate"}),
    ("fox-and-geese", {"diagonals": "all"}),
    ("fox-and-geese", {"diagonals": "none"}),
    ("fox-and-geese-mcloughlin", {}),
    ("fox-and-geese-mcloughlin", {"diagonals": "all", "empty": "20,33"}),
    ("fox-and-geese-mcloughlin", {"sideways_points": ""}),
    ("solitaire", {}),
    ("solitaire", {"start": "1", "finish": "33"}),
    ("solitaire", {"diagonals": "alternate"}),
]


def reference_for(game: str, position: engine.Position, options: dict[str, str]) -> Ref:
    o = position.options
    kw: dict[str, object] = {"diagonals": o.diagonals.value}
    if game == "fox-and-geese-mcloughlin":
        kw["sideways"] = o.sideways_points
    if game == "solitaire":
        kw["finish"] = o.finish_hole
    return Ref.from_text(game, position.to_text(), **kw)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_engine_matches_reference_model_over_random_games(
    game: str, options: dict[str, str]
) -> None:
    rng = random.Random(f"{game}{options}")
    for _ in range(12):
        position = engine.start(game, **options)
        ref = reference_for(game, position, options)
        for _ply in range(80):
            assert position.to_text() == ref.text()
            mine = sorted(str(m) for m in position.legal_moves)
            assert mine == sorted(ref.moves()), position.to_text()
            over = position.outcome()
            expected = ref.winner()
            assert (over is None) == (expected is None), position.to_text()
            if over is not None:
                assert expected is not None
                assert over.winner == expected[0]
                break
            # prefer captures now and then so that long chains and endings are reached
            moves = list(position.legal_moves)
            jumps = [m for m in moves if len(m.path) > 2]
            move = rng.choice(jumps if jumps and rng.random() < 0.5 else moves)
            position.push(move)
            ref = ref.play(str(move))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parchesi_matches_the_reference_model_over_random_games(players: int) -> None:
    """Move sets (a double 6 as its men's moves, in any order) and the men after each move;
    double 6 is spun often, so groups that must move in another order come up."""
    rng = random.Random(f"parchesi reference {players}")
    spins = [f"{d}{v}" for d in ("", "d") for v in range(1, 7)]
    for _ in range(6):
        position = engine.start("parchesi", players=players)
        ref = ParchesiRef.from_text(position.to_text())
        for _ply in range(500):
            assert ParchesiRef.from_text(position.to_text()) == ref, position.to_text()
            if position.is_over():
                assert not ref.moves()
                break
            if position.is_chance():
                spin = "d6" if rng.random() < 0.3 else rng.choice(spins)
                position.push_text(f"spin={spin}")
                ref = dataclasses.replace(ref, spin=spin)
                if not ref.moves():  # no move: the turn passes
                    ref = ref.play((), [])
                continue
            moves = list(position.legal_moves)
            assert {tuple(sorted(m.paths)) for m in moves} == ref.moves(), position.to_text()
            assert len({tuple(sorted(m.paths)) for m in moves}) == len(moves)  # a group once
            move = rng.choice(moves)
            order = [p for p, _ in move.paths]
            assert len(order) == 1 or ref._in_turn(ref.where(), ref.turn, order) is not None
            ref = ref.play(tuple(sorted(move.paths)), list(move.paths))
            position.push(move)


def _orders_table(rng: random.Random) -> tuple[str, dict[str, tuple[str, int]]]:
    """A random square-orders file (go-to chains and circles among them) and the points it
    sets, read here from the rules' description, not by the engine's loader."""
    lines, points = ["[squares]"], {}
    if rng.random() < 0.6:  # go-tos in a circle, on both lanes
        ring = rng.sample(range(2, 43), rng.randrange(2, 4))
        for n, to in zip(ring, ring[1:] + ring[:1], strict=True):
            lines.append(f'"{n}" = {{ kind = "go-to", to = {to} }}')
            for p in {str(n)} if n == 22 else {f"A{n}", f"B{n}"}:
                points[p] = ("go-to", to)
    if rng.random() < 0.3:  # lost turns everywhere: every player comes to owe one at once
        for n in rng.sample(range(2, 43), 16):
            here = ["22"] if n == 22 else [f"A{n}", f"B{n}"]
            if not any(p in points for p in here):
                lines.append(f'"{n}" = {{ kind = "lose-turn" }}')
                points.update(dict.fromkeys(here, ("lose-turn", 0)))
    for _ in range(rng.randrange(0, 30)):
        n = rng.randrange(2, 43)
        key = str(n) if n == 22 or rng.random() < 0.5 else f"{rng.choice('AB')}{n}"
        mine = (
            ["22"] if n == 22 else [f"{lane}{n}" for lane in (key[0] if key[0] in "AB" else "AB")]
        )
        if any(p in points for p in mine):
            continue
        kind = rng.choice(["go-to"] * 3 + ["lose-turn"] * 3 + ["spin-again", "prison"])
        # a go-to often leads to another order square: chains, and circles of them
        others = [int(p.lstrip("AB")) for p in points if int(p.lstrip("AB")) != n]
        near = others if others and rng.random() < 0.5 else [t for t in range(2, 44) if t != n]
        to = rng.choice(near) if kind == "go-to" else 0
        lines.append(f'"{key}" = {{ kind = "{kind}"' + (f", to = {to} }}" if to else " }"))
        for p in mine:
            points[p] = (kind, to)
    return "\n".join(lines) + "\n", points


@pytest.mark.parametrize("players", [2, 3, 4])
def test_messenger_boy_matches_the_reference_model_over_random_games(
    players: int, tmp_path: Path
) -> None:
    """Moves and the whole text after each move, over random order tables: chains of go-tos
    (circles too), lost turns owed by everyone, spins again, prison."""
    rng = random.Random(f"messenger reference {players}")
    letters = "RBGY"[:players]
    before = SEEN.copy()
    for game in range(40):
        text, points = _orders_table(rng)
        table = tmp_path / f"orders{game}.toml"
        table.write_text(text)
        first = rng.randrange(players)
        start = " ".join(f"{p}@-" for p in letters) + f" turn={letters[first]}"
        position = engine.from_text("messenger-boy", start, players=players, orders=str(table))
        ref = MessengerRef(
            tuple(letters),
            (None,) * players,
            first,
            None,
            frozenset(),
            frozenset(),
            tuple(sorted(points.items())),
        )
        for _ply in range(400):
            assert position.to_text() == ref.text(), text
            again = engine.from_text(
                "messenger-boy", ref.text(), players=players, orders=str(table)
            )
            assert again == position  # every state the game reaches reads back
            assert sorted(str(m) for m in position.legal_moves) == sorted(ref.moves()), text
            if ref.over():
                assert position.is_over()
                break
            move = str(rng.choice(list(position.legal_moves)))
            position.push_text(move)
            ref = ref.play(move)
    met = SEEN - before  # the games are only worth it if they reach the corners
    for corner in ("go-to onto a go-to", "go-tos in a circle", "go-to onto a man"):
        assert met[corner] > 0, corner
    assert met["every player owes a lost turn"] > 0


def test_parchesi_double_6_matches_the_reference_model_on_crowded_boards() -> None:
    """Random boards with the men close together (blockades, men six apart), a double 6 spun:
    the groups that can go only in some order other than by number come up here."""
    rng = random.Random("parchesi double 6")
    before = SEEN["a double 6 group that cannot go back man first"]
    checked = 0
    while checked < 400:
        base = rng.randrange(4, 50)
        men = []
        for colour in "YR":
            route = parchesi_route(colour)
            for i in range(1, 5):
                if rng.random() < 0.15:
                    men.append(f"{colour}{i}@{colour}nest")
                else:
                    near = [p for p in route[:-1] if p.startswith("L")]
                    spot = near[(base + rng.randrange(0, 14) - (34 if colour == "R" else 0)) % 64]
                    men.append(f"{colour}{i}@{spot}")
        text = " ".join(men) + " turn=Y spin=d6"
        try:
            position = engine.from_text("parchesi", text)
        except engine.InvalidPositionError:
            continue  # three men on a space, two colours sharing one, or no move at all
        checked += 1
        ref = ParchesiRef.from_text(text)
        mine = {tuple(sorted(m.paths)) for m in position.legal_moves}
        assert mine == ref.moves(), text
    assert SEEN["a double 6 group that cannot go back man first"] > before
