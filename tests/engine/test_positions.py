"""Positions a game cannot reach are refused, one line naming what is wrong, in every game
(piece counts and consistency as McLoughlin's parser checks them)."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine import InvalidPositionError, Termination

EMPTY_SKIP_ROW = "........"


def skip(rows: dict[int, str], turn: str = "r") -> str:
    return "/".join(rows.get(r, EMPTY_SKIP_ROW) for r in range(8, 0, -1)) + " " + turn


NESTS = "Y1@Ynest Y2@Ynest Y3@Ynest Y4@Ynest R1@Rnest R2@Rnest R3@Rnest R4@Rnest"

REFUSED = [
    # the cross board: piece counts
    ("fox-and-geese", {}, "GG....GGF.FGGGGGGGGGGGGGGGGGGGGGG F", "26 geese, the game has 24"),
    ("fox-and-geese", {}, "G.....GGF.FGGGGGGGGGGGGGGGGGGGGGG G", "25 geese, the game has 24"),
    ("fox-and-geese", {}, "F.....GGF.FGGGGGGGGGGGGGGGGGGGGGG F", "3 foxes on the board"),
    (
        "fox-and-geese-mcloughlin",
        {},
        "G............GG.F.GGGGGGGGGGGGGGG F",
        "18 geese, the game has 17",
    ),
    ("solitaire", {}, "o" * 33 + " -", "33 pegs"),
    ("solitaire", {}, "." * 33 + " -", "no peg on the board"),
    ("solitaire", {}, "." + "o" * 32 + " -", "32 pegs with hole 1 empty, but the start hole is 17"),
    # Skip: 8 men a side, crowned on the far row, the side squares, the end
    ("skip", {}, skip({8: "bbbbbbbb", 7: "bbbbbbbb", 1: "rrrrrrrr"}), "16 blue men, a side has 8"),
    ("skip", {}, skip({8: "bbbbbbbb", 2: "rrrrrrrr", 1: "r......."}), "9 red men"),
    ("skip", {}, skip({8: "bbbbbbbr", 1: "rrrrrrr."}), "red man on h8 reached the far row"),
    ("skip", {}, skip({8: "bbbbbbb.", 1: "b.rrrrrr"}), "blue man on a1"),
    (
        "skip",
        {},
        skip({8: "bbbbbbbb", 5: "r......r", 4: "r......r", 1: "..rr...."}),
        "4 red men on the side squares",
    ),
    ("skip", {}, skip({8: "bbb.....", 1: "rrr....."}), "both sides are down to 3 men"),
    ("skip", {}, skip({8: "bbb.....", 1: "rrrrrrrr"}, "r"), "blue has 3 men left"),
    # Fox and Rabbit: a caught rabbit, a rabbit home, a throw that would have passed
    ("fox-and-rabbit", {}, "RF@i1 turn=WR", "WR is caught (off the board): turn= names the fox"),
    ("fox-and-rabbit-4", {}, "BR@i9 RF@i1 GF@a9 turn=WR", "WR is caught"),
    ("fox-and-rabbit-4", {}, "BR@i9 RF@i1 GF@a9 turn=BR", "WR is caught"),
    ("fox-and-rabbit-4", {}, "RF@i1 GF@a9 turn=RF", "WR and BR: the game ends with the first"),
    ("fox-and-rabbit", {}, "RF@i1 turn=RF dice=3,4", "the game is over"),
    ("fox-and-rabbit", {}, "WR@e9 RF@i1 turn=RF dice=3,4", "the game is over"),
    ("fox-and-rabbit", {}, "WR@e9 RF@e9 turn=RF escape=WR", "the game is over"),
    ("fox-and-rabbit", {}, "WR@c4 RF@c4 turn=RF dice=6,6 escape=WR", "WR has no move for this"),
    ("fox-and-rabbit", {}, "WR@a1 RF@i1 turn=WR escape=WR,WR", "a rabbit named twice"),
    # Parchesi: men given twice, the end, a spin that would have passed the turn
    ("parchesi", {}, NESTS + " Y1@L5 turn=Y", "Y1@L5: Y1 is placed twice"),
    (
        "parchesi",
        {},
        NESTS.replace("Y1@Ynest", "Y1@home").replace("R1@Rnest", "R1@home") + " turn=Y",
        "yellow and red men are home: the first ends the game",
    ),
    (
        "parchesi",
        {},
        NESTS.replace("Y1@Ynest", "Y1@home") + " turn=Y",
        "yellow is home: the game ended on yellow's move (turn=R)",
    ),
    ("parchesi", {}, NESTS.replace("Y1@Ynest", "Y1@home") + " turn=R spin=d1", "game is over"),
    ("parchesi", {}, NESTS + " turn=Y spin=3", "spin=3: yellow has no move for this spin"),
    ("parchesi", {}, NESTS + " turn=Y turn=R", "turn= is given twice"),
    # Messenger Boy: the opening spins, prison and lost turns, a spin that would have passed
    ("messenger-boy", {}, "R@- B@- start=R3,B4 spin=2", "every contender has spun"),
    ("messenger-boy", {}, "R@- B@- start=R3,B4", "every contender has spun"),
    ("messenger-boy", {}, "R@- B@- start=R?,B4", "spun ones first, then ?"),
    ("messenger-boy", {}, "R@- B@- start=B?,R?", "every player, or the tied ones, in turn order"),
    ("messenger-boy", {"players": 3}, "R@- B@- G@- start=B?", "every player, or the tied ones"),
    ("messenger-boy", {}, "R@- B@- start=R?,R?", "a player named twice"),
    ("messenger-boy", {}, "R@A3 B@- start=R?,B?", "every man is off the board"),
    ("messenger-boy", {}, "R@- B@- start=R?,B? spin=3", "no turn=, spin=, prison= or lose="),
    ("messenger-boy", {}, "R@- B@- turn=R spin=3", "red's man enters before he spins"),
    ("messenger-boy", {}, "R@A40 B@B3 turn=R spin=5", "red has no move for it"),
    ("messenger-boy", {}, "R@A5 B@43 turn=R spin=1", "the game is over"),
    ("messenger-boy", {}, "R@A5 B@B3 turn=R prison=B", "B3 is no prison square"),
    ("messenger-boy", {}, "R@A5 B@- turn=R lose=B", "a man off the board owes nothing"),
    ("messenger-boy", {}, "R@A5 B@B3 turn=R lose=R", "lose=R: his lost turn is paid"),
    ("messenger-boy", {}, "R@A5 B@B3 R@A6 turn=R", "R@A6: red is given twice"),
    ("messenger-boy", {}, "R@A5 turn=R", "give every man: B@…"),
    ("messenger-boy", {}, "R@- B@- start=R²,B?", "each opening spin is 1 to 6 or ?"),
    # Jack Rabbits: players, aces, the winner, where every card is
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=9", "spent=9: name each player's"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=9:AH", "'9' is not a player"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=x", "spent=x: name each player"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=1", "name each player's first ace"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=1:5H", "5H is not an ace"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll spent=1:AH,1:AS", "one first ace"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll winner=7", "winner=7: '7' is not a player"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=act dice=3,4 winner=2", "on his own turn"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=act dice=3,4 winner=1", "do not meet the simple"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=3 phase=roll", "turn=3: '3' is not a player (1 to 2)"),
    ("jack-rabbits", {}, "1:2H 2:2H turn=1 phase=roll", "2H in two places"),
    ("jack-rabbits", {}, "1:AH 2:3S turn=1 phase=roll spent=2:AH", "AH in two places"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll court=KH", "neither in the court nor"),
    (
        "jack-rabbits",
        {},
        "1:2H 2:3S turn=1 phase=roll court=JS,QS,KS,JH,QH,JD,QD,KD,JC,QC,KC discard=KH",
        "not the discard",
    ),
    (
        "jack-rabbits",
        {},
        "1:2H,3H,4H,5H,6H,7H,8H,9H,10H,AH 2:3S turn=1 phase=act dice=1,2",
        "player 1 holds 10 cards",
    ),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=discard", "holds 1 cards, not ten"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=roll dice=3,4", "comes before the dice"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=act", "give the dice"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=prize dice=5,6", "a die matches"),
    ("jack-rabbits", {}, "1:2H,3H 2: turn=1 phase=deal", "one at a time from player 1"),
    ("jack-rabbits", {}, "1:2H,3H,4H 2:2S,3S,4S turn=1 phase=deal", "the deal is over"),
    ("jack-rabbits", {}, "1:2H 2:3S 1:4H turn=1 phase=roll", "hand 1 is given twice"),
    ("jack-rabbits", {}, "1:2H 2:3S turn=1 phase=later", "phase=later: the phase is one of"),
]


@pytest.mark.parametrize(
    ("game", "options", "text", "message"), REFUSED, ids=[f"{c[0]}:{c[2]}" for c in REFUSED]
)
def test_a_position_the_game_cannot_reach_is_refused_in_one_line(
    game: str, options: dict[str, object], text: str, message: str
) -> None:
    with pytest.raises(InvalidPositionError) as err:
        engine.from_text(game, text, **options)
    assert message in str(err.value)
    assert "\n" not in str(err.value) and text in str(err.value)


def test_a_caught_rabbit_makes_the_fox_whose_turn_it_is_the_winner() -> None:
    over = engine.from_text("fox-and-rabbit", "RF@i1 turn=RF").outcome()
    assert over is not None and (over.winner, over.reason) == ("RF", Termination.RABBIT_CAUGHT)
    over = engine.from_text("fox-and-rabbit-4", "BR@i9 RF@i1 GF@a9 turn=GF").outcome()
    assert over is not None and over.winner == "GF"


def test_both_rabbits_caught_on_one_circle_end_the_game_and_read_back() -> None:
    # the fox lands on both; the first fails its escape: the game is over, the second rabbit
    # still under the fox (it never threw)
    p = engine.from_text("fox-and-rabbit-4", "WR@c4 BR@c4 RF@c4 GF@a9 turn=RF escape=WR,BR")
    p.push_text("dice=6,6")  # no escape for WR from c4
    over = p.outcome()
    assert over is not None and over.winner == "RF"
    assert engine.from_text("fox-and-rabbit-4", p.to_text()) == p


def test_a_double_6_may_bring_two_men_home_at_once_and_that_reads_back() -> None:
    text = NESTS.replace("Y1@Ynest", "Y1@Y2").replace("Y2@Ynest", "Y2@Y2") + " turn=Y spin=d6"
    p = engine.from_text("parchesi", text)
    p.push_text("Y Y2-home Y2-home")
    over = p.outcome()
    assert over is not None and over.winner == "yellow"
    assert engine.from_text("parchesi", p.to_text()) == p


def test_an_opening_spin_still_to_make_reads_back() -> None:
    p = engine.from_text("messenger-boy", "R@- B@- start=R3,B?")
    assert p.turn == "blue" and p.is_chance()
    p.push_text("spin=3")
    assert p.to_text() == "R@- B@- start=R?,B?"  # tied: both spin again


def test_jack_rabbits_court_defaults_to_every_royal_not_in_a_hand() -> None:
    p = engine.from_text("jack-rabbits", "1:KH,2S 2:3S turn=1 phase=roll")
    assert "KH" not in p.court and len(p.court) == 11
