"""Hints search with the engine's ratings (evaluate, returns, search_depth) and know no game:
a win is taken whenever there is one, and a game that rates positions otherwise gets other
hints."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine.skip import Skip
from reedboard.referee.hints import suggest


@pytest.mark.parametrize(
    ("game", "text", "winning"),
    [
        ("fox-and-rabbit", "WR@e6 RF@i1 turn=WR dice=3,1", "WR e6-e9"),
        ("fox-and-rabbit-4", "WR@a1 BR@e4 RF@i1 GF@a9 turn=BR dice=3,4", "BR e4-e1"),
        ("messenger-boy", "R@A40 B@B3 turn=R spin=3", "R A40-43"),
        (
            "skip",
            "bbbb..../......../......../......../..b...../...r..../......../rrr..... r",
            "d3xc4",
        ),
        (
            "parchesi",
            "Y1@L10 Y2@Ynest Y3@Ynest Y4@Y5 R1@Rnest R2@Rnest R3@Rnest R4@Rnest turn=Y spin=3",
            "Y Y5-home",
        ),
    ],
)
def test_the_hint_takes_a_win_when_there_is_one(game: str, text: str, winning: str) -> None:
    position = engine.from_text(game, text)
    hint = suggest(position)
    assert hint == position.parse_move(winning)


def test_the_hint_follows_the_games_own_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "bbbb..../......../......../......../..b.b.../...r..../......../rrrr.... r"
    position = engine.from_text("skip", text)
    assert "x" in str(suggest(position))  # Skip rates men taken highest

    def other(side: str) -> str:
        return "blue" if side == "red" else "red"

    monkeypatch.setattr(Skip, "evaluate", lambda self, side: -float(self.count_men(other(side))))
    assert "x" in str(suggest(position))
    monkeypatch.setattr(Skip, "evaluate", lambda self, side: float(self.count_men(other(side))))
    for level in (2, 3, 5):  # a game that wants the other side's men kept
        assert "x" not in str(suggest(position, level=level))


def test_a_deeper_search_sees_the_reply() -> None:
    # the geese look a move ahead: a goose that steps next to a fox with room behind it is
    # jumped on the reply, so the hint keeps clear of it
    position = engine.start("fox-and-geese")
    position.push_text("9-4")
    hint = suggest(position)
    assert hint is not None
    after = position.copy()
    after.push(hint)
    assert not any(m.jump for m in after.legal_moves)


def test_no_hint_while_a_throw_is_awaited_or_the_game_is_over() -> None:
    assert suggest(engine.start("parchesi")) is None
    assert suggest(engine.from_text("solitaire", "o" + "." * 32 + " -")) is None
