"""What the controller asks of every game through the engine's hooks, never by game id or
move class: one Throw for dice and spinners, sides named one way, states as frozen dataclasses,
the pieces and hands of a move, the lights a game wants, a rating for search, a known line,
options that name files."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine import Mark, MarkStyle, PhysicalMove, Position, Throw
from reedboard.engine.brier9 import BRIER_PATCH

GAMES = engine.game_ids()
SENSED = [g for g in GAMES if engine.game(g).sensed]
CHANCE = [g for g in GAMES if engine.game(g).dice_spec is not None]
VARIANTS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in GAMES] + [
    ("parchesi", {"players": 4}),
    ("messenger-boy", {"players": 3}),
    ("jack-rabbits", {"players": 3}),
]


def random_positions(
    game: str, seed: int, plies: int = 150, **options: Any
) -> Iterator[Position[Any, Any]]:
    """Every position along a random game (throws drawn by their probabilities)."""
    rng = random.Random(f"hooks/{game}/{seed}")
    position = engine.start(game, **options)
    for _ in range(plies):
        yield position
        if position.is_over():
            return
        if position.is_chance():
            outcomes = position.chance_outcomes()
            position.push(rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            position.push(rng.choice(list(position.legal_moves)))


def counts(position: Position[Any, Any]) -> dict[str, int]:
    return {point: len(label) for point, label in position.pieces().items() if label}


# -- one Throw ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", CHANCE)
def test_every_throw_of_every_dice_or_spinner_game_is_the_one_throw_class(game: str) -> None:
    seen = 0
    for position in random_positions(game, 0, 80):
        if position.is_chance():
            for throw, _ in position.chance_outcomes():
                if not str(throw).startswith(("dice=", "spin=")):
                    continue  # another kind of chance (a card drawn)
                assert type(throw) is Throw
                assert position.parse_move(str(throw)) == throw
                assert position.throw(position.throw_values(throw)) == throw
                assert not throw.points() and position.physical_steps(throw) == PhysicalMove()
                seen += 1
    assert seen


@pytest.mark.parametrize(
    ("game", "values", "text", "pips"),
    [
        ("fox-and-rabbit", (3, 4), "dice=3,4", (3, 4)),
        ("jack-rabbits", (6, 1), "dice=6,1", (6, 1)),
        ("messenger-boy", (4,), "spin=4", (4,)),
        ("parchesi", (5,), "spin=5", (5,)),
        ("parchesi", (11,), "spin=d5", (5, 5)),
    ],
)
def test_throws_keep_their_text_forms(
    game: str, values: tuple[int, ...], text: str, pips: tuple[int, ...]
) -> None:
    position = engine.start(game)
    throw = position.throw(values)
    assert str(throw) == text
    assert position.shown_dice(values) == pips
    assert position.throw_values(throw) == values


@given(st.sampled_from(CHANCE), st.data())
def test_throw_values_undo_throw(game: str, data: st.DataObject) -> None:
    position = engine.start(game)
    assert position.dice_spec is not None
    count, sides = position.dice_spec
    values = tuple(data.draw(st.integers(1, sides)) for _ in range(count))
    assert position.throw_values(position.throw(values)) == values


def test_a_throw_the_game_cannot_make_has_no_values() -> None:
    with pytest.raises(engine.EngineError, match="no throw of messenger-boy's dice is dice=3,4"):
        engine.start("messenger-boy").throw_values(Throw((3, 4)))


# -- sides, states -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_sides_are_named_one_way_by_turn_moves_winners_and_returns(
    game: str, options: dict[str, Any]
) -> None:
    for seed in range(3):
        for position in random_positions(game, seed, **options):
            players = position.players
            assert set(players) <= set(position.sides)
            assert position.turn in players
            assert set(position.returns()) == set(players)
            over = position.outcome()
            if over is not None and over.winner is not None:
                assert over.winner in players
                assert position.returns()[over.winner] == 1.0
                assert sorted(position.returns().values())[:-1] == [-1.0] * (len(players) - 1)
            for move in position.legal_moves:
                side = getattr(move, "side", None)
                if side is not None:  # a move that names its mover names it as turn does
                    assert side == position.turn, (game, str(move))


@pytest.mark.parametrize("game", GAMES)
def test_states_are_frozen_dataclasses_with_named_fields(game: str) -> None:
    for position in random_positions(game, 1, 40):
        state = position._save()
        assert dataclasses.is_dataclass(state) and not isinstance(state, type)
        fields = dataclasses.fields(state)
        assert len(fields) >= 2 and all(f.name.isidentifier() for f in fields)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(state, fields[0].name, None)
        copy = position.copy(stack=False)
        copy._restore(state)
        assert copy == position


# -- physical steps --------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), [v for v in VARIANTS if v[0] in SENSED])
def test_every_move_in_pieces_and_hands_leaves_the_board_the_engine_expects(
    game: str, options: dict[str, Any]
) -> None:
    for seed in range(4):
        for position in random_positions(game, seed, **options):
            if position.is_chance() or position.is_over():
                continue
            for move in position.legal_moves:
                steps = position.physical_steps(move)
                assert steps.carries, str(move)
                after = position.copy(stack=False)
                after.push(move)
                assert steps.counts_after(counts(position)) == counts(after), (game, str(move))
                assert move.points()[-1] in steps.landings()
                assert set(steps.starts()) <= position.occupied()
                assert not set(steps.removals()) & after.occupied() - set(steps.landings())


def test_a_jump_chain_is_its_landings_in_order_and_the_geese_taken() -> None:
    cells = ["."] * 34
    cells[9] = cells[33] = "F"
    cells[10] = cells[18] = "G"
    position = engine.from_text("fox-and-geese", "".join(cells[1:]) + " F")
    move = position.parse_move("9x11x25")
    steps = position.physical_steps(move)
    assert steps.starts() == ("9",) and steps.landings() == ("11", "25")
    assert steps.removals() == ("10", "18") and steps.captures
    (carry,) = steps.carries
    assert carry.chain and carry.landing == "25"


def test_a_fox_landing_on_a_rabbit_joins_it_and_the_rabbit_stays() -> None:
    position = engine.from_text("fox-and-rabbit", "WR@c3 RF@a1 turn=RF dice=2,2")
    steps = position.physical_steps(position.parse_move("RF a1-c3"))
    (carry,) = steps.carries
    (take,) = carry.takes
    assert take.point == "c3" and take.returns and not steps.removals()


def test_a_parchesi_man_taken_goes_back_to_his_nest() -> None:
    text = "Y1@L9 Y2@Ynest Y3@Ynest Y4@Ynest R1@L12 R2@Rnest R3@Rnest R4@Rnest turn=Y spin=3"
    position = engine.from_text("parchesi", text)
    steps = position.physical_steps(position.parse_move("Y L9-L12"))
    (take,) = steps.carries[0].takes
    assert (take.point, take.dest) == ("L12", "Rnest")


def test_a_messenger_boy_man_sent_on_by_go_tos_stops_on_each_square(tmp_path: Path) -> None:
    orders = tmp_path / "orders.toml"
    orders.write_text(
        '[squares]\n"5" = { kind = "go-to", to = 9 }\n"9" = { kind = "go-to", to = 12 }\n'
    )
    position = engine.from_text("messenger-boy", "R@A1 B@- turn=R spin=4", orders=str(orders))
    move = position.parse_move("R A1-A12")
    assert move in position.legal_moves
    (carry,) = position.physical_steps(move).carries
    assert carry.stops and [h.to for h in carry.hops] == ["A5", "A9", "A12"]
    entering = engine.from_text("messenger-boy", "R@- B@- turn=R")
    enter = entering.physical_steps(entering.parse_move("R start B"))
    assert enter.carries[0].start is None and enter.landings() == ("B1",)


# -- marks -----------------------------------------------------------------------------------


def test_the_brier_patch_is_marked_and_blinks_during_an_escape_throw() -> None:
    position = engine.start("fox-and-rabbit-4")
    assert position.marks() == (Mark("brier-patch", BRIER_PATCH, MarkStyle.STEADY),)
    escaping = engine.from_text("fox-and-rabbit", "WR@c5 RF@c5 turn=RF escape=WR")
    (mark,) = escaping.marks()
    assert mark.points == BRIER_PATCH and mark.style is MarkStyle.BLINK


@pytest.mark.parametrize("game", [g for g in GAMES if not g.startswith("fox-and-rabbit")])
def test_other_games_mark_nothing(game: str) -> None:
    assert engine.start(game).marks() == ()


# -- search, known lines, file options -------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "text", "winning"),
    [
        ("fox-and-rabbit", "WR@e6 RF@i1 turn=WR dice=3,1", "WR e6-e9"),
        ("messenger-boy", "R@A40 B@B3 turn=R spin=3", "R A40-43"),
        (
            "skip",
            "bbb...../......../......../......../..b...../...r..../......../rrr..... r",
            "d3xc4",
        ),
    ],
)
def test_a_win_outweighs_any_evaluation(game: str, text: str, winning: str) -> None:
    position = engine.from_text(game, text)
    me = position.turn
    move = position.parse_move(winning)
    position.push(move)
    assert position.returns()[me] == 1.0
    assert position.outcome() is not None and position.outcome().winner == me  # type: ignore[union-attr]


def test_evaluations_rate_what_the_games_want() -> None:
    rabbit = engine.from_text("fox-and-rabbit", "WR@e5 RF@i1 turn=RF")
    exposed = engine.from_text("fox-and-rabbit", "WR@c1 RF@i1 turn=RF")
    assert rabbit.evaluate("WR") > exposed.evaluate("WR")  # safe on the Brier Patch
    on_rabbit = engine.from_text("fox-and-rabbit", "WR@c5 RF@c5 turn=RF escape=WR")
    assert on_rabbit.evaluate("RF") > exposed.evaluate("RF")
    geese = engine.start("fox-and-geese")
    assert geese.evaluate("fox") == -geese.evaluate("geese")
    assert engine.game("fox-and-geese").search_depth == 2
    skip = engine.from_text(
        "skip", "bbbbbbb./......../......../......../......../......../......../rrrrrrrr r"
    )
    assert skip.evaluate("red") > skip.evaluate("blue")


def test_solitaire_shows_its_seed_key_and_only_from_its_own_start() -> None:
    from tests.engine.test_solitaire import SEED_KEY

    position = engine.start("solitaire")
    assert position.demo_line() == tuple(SEED_KEY)
    for text in position.demo_line():
        position.push_text(text)
    assert position.outcome() is not None and position.outcome().winner == "player"  # type: ignore[union-attr]
    assert engine.start("solitaire", start=5).demo_line() == ()
    assert engine.start("solitaire", finish=16).demo_line() == ()
    moved = engine.start("solitaire")
    moved.push_text("5-17")
    assert moved.demo_line() == ()


@pytest.mark.parametrize("game", [g for g in GAMES if g != "solitaire"])
def test_other_games_have_no_known_line(game: str) -> None:
    assert engine.start(game).demo_line() == ()


@pytest.mark.parametrize("game", GAMES)
def test_only_messenger_boy_has_an_option_naming_a_file(game: str) -> None:
    expected = ("orders",) if game == "messenger-boy" else ()
    assert engine.game(game).file_options() == expected
