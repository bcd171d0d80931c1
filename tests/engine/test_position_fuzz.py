"""Every game's position parser against random and damaged texts and options (Hypothesis).

Whatever it is fed, ``from_text`` either gives a consistent position or raises the engine's
documented error for it (InvalidPositionError for the text, InvalidOptionError for an option),
in one line; never another exception. A consistent position is one the game can go on from:
its text form reads back as the same position, its outcome and legal moves can be asked, a
game that is not over has a move, and every move's result reads back too (so the checks that
refuse impossible states never refuse one the game reaches)."""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine import InvalidMoveError, InvalidOptionError, InvalidPositionError

GAMES = engine.game_ids()

OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "fox-and-geese": [{}, {"diagonals": "all"}],
    "fox-and-geese-mcloughlin": [{}, {"empty": "20,33"}],
    "solitaire": [{}, {"start": "1", "finish": "33"}],
    "fox-and-rabbit": [{}, {"escape_to_home": "true"}],
    "fox-and-rabbit-4": [{}],
    "parchesi": [{}, {"players": "3"}, {"players": "4"}],
    "skip": [{}, {"side_squares": "free", "max_captures": "3"}],
    "messenger-boy": [{}, {"players": "3"}, {"players": "4"}],
    "jack-rabbits": [{}, {"players": "3", "condition": "tribal"}, {"players": "4"}],
}
NUMBERS = ["0", "1", "2", "3", "5", "6", "7", "9", "10", "12", "17", "22", "43", "99", "-1"]
NUMBERS.append("1" * 40)


@functools.cache
def seeds(game: str) -> list[tuple[str, dict[str, object]]]:
    """Texts of positions the game reaches (starts and random playouts), with their options."""
    rng = random.Random(f"fuzz seeds {game}")
    out: list[tuple[str, dict[str, object]]] = []
    for options in OPTION_SETS.get(game, [{}]):
        for _ in range(4):
            position = engine.start(game, **options)
            for ply in range(rng.randrange(20, 160)):
                if ply % 15 == 0:
                    out.append((position.to_text(), options))
                moves = list(position.legal_moves)
                if not moves:
                    break
                position.push(rng.choice(moves))
            out.append((position.to_text(), options))
    return out


def _alphabet(game: str) -> str:
    return "".join(sorted({ch for text, _ in seeds(game) for ch in text} | set("0123456789@=,:-?")))


@st.composite
def damaged(draw: st.DrawFn, game: str) -> tuple[str, dict[str, object]]:
    """A position text the game reached, damaged a few times (or, now and then, any text)."""
    pool = seeds(game)
    text, options = draw(st.sampled_from(pool))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=60)), options
    tokens = text.split(" ")
    alphabet = _alphabet(game)
    if len(tokens[0]) in (33, 71):  # a board drawn square by square: more of some piece
        piece = draw(st.sampled_from(sorted(set(tokens[0]) - {"/"})))
        cells = list(tokens[0])
        for j in draw(st.lists(st.integers(0, len(cells) - 1), max_size=12)):
            if cells[j] != "/":
                cells[j] = piece
        tokens[0] = "".join(cells)
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, max(0, len(tokens) - 1)))
        op = draw(st.sampled_from(["drop", "dup", "other", "char", "number", "insert"]))
        if op == "drop" and tokens:
            tokens.pop(i)
        elif op == "dup" and tokens:
            tokens.insert(i, tokens[i])
        elif op == "other":
            other = draw(st.sampled_from(pool))[0].split(" ")
            tokens.insert(i, draw(st.sampled_from(other)))
        elif op == "char" and tokens and tokens[i]:
            j = draw(st.integers(0, len(tokens[i]) - 1))
            ch = draw(st.sampled_from(alphabet))
            tokens[i] = tokens[i][:j] + ch + tokens[i][j + 1 :]
        elif op == "number" and tokens and re.search(r"\d+", tokens[i]):
            runs = list(re.finditer(r"\d+", tokens[i]))
            run = runs[draw(st.integers(0, len(runs) - 1))]
            new = draw(st.sampled_from(NUMBERS))
            tokens[i] = tokens[i][: run.start()] + new + tokens[i][run.end() :]
        elif op == "insert":
            tokens.insert(i, draw(st.text(alphabet=alphabet, max_size=8)))
    return " ".join(tokens), options


def counts_hold(game: str, text: str) -> str:
    """The piece counts docs/rules.md allows, read from a position's text form by this test alone
    (not by the engine's code): what is wrong, or ``""``."""
    board = text.split()[0]
    if game in ("fox-and-geese", "fox-and-geese-mcloughlin"):
        foxes, geese = (2, 24) if game == "fox-and-geese" else (1, 17)
        if board.count("F") != foxes or board.count("G") > geese:
            return f"{board.count('F')} foxes, {board.count('G')} geese"
    if game == "solitaire" and not 1 <= board.count("o") <= 32:
        return f"{board.count('o')} pegs"
    if game == "skip":
        rows = board.split("/")
        for man, far in (("r", 0), ("b", 7)):
            if sum(r.lower().count(man) for r in rows) > 8 or man in rows[far]:
                return f"{man} men: too many, or one on the far row not crowned"
    if game == "parchesi":
        for colour in "YBRG":
            men = re.findall(rf"\b{colour}([1-4])@", text)
            if men and sorted(men) != ["1", "2", "3", "4"]:
                return f"{colour} men {men}"
        if text.count("@home") > 1:
            return "two men home"
    if game == "messenger-boy" and "start=" in text and "?" not in text:
        return "an opening where everyone has spun"
    if game == "jack-rabbits":
        cards = re.findall(r"(?:10|[2-9AJQK])[SHDC]", text)
        royals = [c for c in cards if c[0] in "JQK"]
        if len(cards) != len(set(cards)) or len(royals) != 12:
            return f"cards twice or royals missing: {sorted(cards)}"
    return ""


def assert_consistent(position: engine.Position, options: dict[str, object]) -> None:
    """The promises of a position the game can go on from (see the module docstring)."""
    cls = type(position)
    text = position.to_text()
    wrong = counts_hold(cls.game_id, text)
    assert not wrong, f"{text}: {wrong}"
    again = cls.from_text(text, **options)
    assert again == position and again.to_text() == text
    over = position.outcome()
    moves = list(position.legal_moves)
    assert len(moves) == len(set(moves))
    position.occupied()
    if over is not None:
        assert over.winner is None or over.winner in cls.sides, over
        if over.reason is engine.Termination.RABBIT_CAUGHT:
            assert over.winner in ("RF", "GF"), f"{text}: {over}"  # a fox caught it
        assert not moves, f"{text}: over ({over}) but has moves"
        return
    assert moves, f"{text}: not over, yet no move"
    assert position.turn in cls.sides
    if position.is_chance():
        assert abs(sum(p for _, p in position.chance_outcomes()) - 1.0) < 1e-9
    rng = random.Random(text)
    for move in rng.sample(moves, min(4, len(moves))):
        assert position.parse_move(str(move)) == move
        after = position.copy()
        after.push(move)
        follow = after.to_text()
        assert cls.from_text(follow, **options).to_text() == follow, (text, str(move))
        after.outcome()


def _read(game: str, text: str, options: dict[str, Any]) -> engine.Position | None:
    try:
        return engine.from_text(game, text, **options)
    except (InvalidPositionError, InvalidOptionError) as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        return None


FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES)
def test_seed_positions_are_consistent(game: str) -> None:
    for text, options in seeds(game):
        position = _read(game, text, options)
        assert position is not None, text
        assert_consistent(position, options)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_a_damaged_position_is_consistent_or_refused_in_one_line(
    game: str, data: st.DataObject
) -> None:
    text, options = data.draw(damaged(game))
    position = _read(game, text, options)
    if position is not None:
        assert_consistent(position, options)


OPTION_VALUES = st.one_of(
    st.sampled_from(["", "none", "2", "3", "4", "5", "-1", "0", "true", "x", "all", "free"]),
    st.text(max_size=12).filter(lambda s: "orders" not in s),
    st.integers(-3, 40),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 40), max_size=3),
    st.floats(allow_nan=True),
)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_bad_options_are_refused_in_one_line(game: str, data: st.DataObject) -> None:
    cls = engine.game(game)
    names = [n for n in cls.Options.__dataclass_fields__ if n != "orders"]
    keys = st.sampled_from([*names, "colour", "Players", ""])
    options = data.draw(st.dictionaries(keys, OPTION_VALUES, max_size=3))
    text = data.draw(st.sampled_from(seeds(game)))[0]
    try:
        start = engine.start(game, **options)
    except InvalidOptionError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert_consistent(start, options)
    position = _read(game, text, options)
    if position is not None:
        assert_consistent(position, options)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_a_damaged_move_is_refused_in_one_line(game: str, data: st.DataObject) -> None:
    text, options = data.draw(st.sampled_from(seeds(game)))
    position = engine.from_text(game, text, **options)
    moves = [str(m) for m in position.legal_moves] or ["1-2"]
    move_text = data.draw(
        st.one_of(
            st.text(max_size=20),
            st.sampled_from(moves).map(lambda m: m.replace(m[-1], "9")),
            st.sampled_from(moves).map(lambda m: m + m[-2:]),
            st.sampled_from(moves).map(lambda m: re.sub(r"\d+", "1" * 40, m)),
        )
    )
    try:
        move = position.parse_move(move_text)
    except InvalidMoveError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    try:
        position.push(move)
    except engine.IllegalMoveError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert_consistent(position, options)


@pytest.mark.parametrize(
    ("game", "options"),
    [(game, options) for game in GAMES for options in OPTION_SETS.get(game, [{}])],
)
def test_every_position_of_random_games_reads_back(game: str, options: dict[str, object]) -> None:
    """The refusals never refuse a state the game reaches: every position of many random games
    (with each option set, every throw weighed alike) reads back as itself."""
    rng = random.Random(f"read back {game} {options}")
    for _ in range(30):
        position = engine.start(game, **options)
        for _ply in range(400):
            text = position.to_text()
            assert engine.from_text(game, text, **options).to_text() == text
            moves = list(position.legal_moves)
            if not moves:
                break
            position.push(rng.choice(moves))


NEAR_CORNERS: list[tuple[str, str, dict[str, object]]] = [
    # two men of one colour home in one double 6
    ("parchesi", "Y1@Y2 Y2@Y2 Y3@L60 Y4@Ynest R1@L50 R2@Rnest R3@Rnest R4@Rnest turn=Y", {}),
    # a payment, the end of the turn, and a draw to ten: a discard after the dice are gone
    ("jack-rabbits", "1:2H,3H,4H,5H,6H,7H,8H,9H,10H 2:2S turn=1 phase=act dice=1,1", {}),
    ("jack-rabbits", "1:AH,AS,2D,KS 2:2S turn=1 phase=act dice=6,6", {"permanent_ace": "true"}),
    # both rabbits caught on one circle; the first escapes home, or fails
    (
        "fox-and-rabbit-4",
        "WR@e7 BR@e7 RF@e7 GF@a9 turn=RF escape=WR,BR extra",
        {"escape_to_home": "true"},
    ),
    ("fox-and-rabbit-4", "WR@c4 BR@c4 RF@c4 GF@a9 turn=RF escape=WR,BR", {}),
    # a rabbit a throw from home
    ("fox-and-rabbit", "WR@e7 RF@i1 turn=WR", {}),
    # Skip: a capture that crowns a man on the far row and leaves blue two men
    ("skip", ".b...b../....b.../...r..../.......b/......../......../.r.r.r../........ r", {}),
    # McLoughlin's fox six geese from the end; solitaire's last jumps
    ("fox-and-geese-mcloughlin", ".............GGGF.G.G......GGG... F", {}),
    ("solitaire", "................oo............... -", {}),
]


@pytest.mark.parametrize(("game", "text", "options"), NEAR_CORNERS)
def test_every_successor_two_moves_deep_near_the_corners_reads_back(
    game: str, text: str, options: dict[str, object]
) -> None:
    try:
        start = engine.from_text(game, text, **options)
    except InvalidPositionError:
        pytest.skip("not a position of this game")  # a seed this test does not rely on
    frontier, seen = [start], 0
    for _depth in range(3):
        following = []
        for position in frontier:
            for move in position.legal_moves:
                after = position.copy(stack=False)
                after.push(move)
                back = engine.from_text(game, after.to_text(), **options)
                assert back.to_text() == after.to_text(), (position.to_text(), str(move))
                following.append(after)
                seen += 1
        frontier = random.Random(text).sample(following, min(len(following), 40))
    assert seen
