"""What ordinary hands do at a board, one behaviour a test: counting a move out,
reaching for the next piece early, a taken piece set down by mistake, a knock, second
thoughts, a switch that breaks. Each test plays the behaviour on the simulated board and
checks the moves the board took and what it said."""

from __future__ import annotations

from pathlib import Path

import pytest

from reedboard import engine
from reedboard.daemon.words import event_words
from reedboard.hardware.lights import AMBER, RED, Light, Pattern
from reedboard.referee.decide import KNOCK, QUIET
from reedboard.referee.events import MoveCommitted
from reedboard.store.games import GameStore
from tests.referee.rig import Rig


def _said(rig: Rig, kind: str) -> list[str]:
    return [a["text"] for a in rig.session.alerts if a["kind"] == kind]


def test_a_move_counted_out_through_a_legal_landing_is_one_move() -> None:
    # with 4 and 3 the rabbit counts up four to its home e9, then left three: e9 on the way is
    # a legal landing (home by one die) that would win, but the count goes on
    rig = Rig("fox-and-rabbit", "WR@e5 RF@a1 turn=WR dice=4,3")
    at = "e5"
    for square in ("e6", "e7", "e8", "e9", "d9", "c9", "b9"):
        rig.lift(at)
        rig.place(square)
        at = square
    rig.wait(5.0)  # the hand is off the board: the count has ended
    assert rig.moves == ["WR e5-b9"]
    assert "game-over" not in rig.kinds()


def test_a_move_counted_out_that_stops_on_the_way_is_taken_once_the_hand_is_off() -> None:
    rig = Rig("fox-and-rabbit", "WR@e5 RF@a1 turn=WR dice=4,3")
    rig.move("e5", "e6")
    rig.lift("e6")
    rig.place("e9")
    assert rig.moves == []  # e9 may be a square the count passes over
    rig.wait(5.0)
    assert rig.moves == ["WR e5-e9"]


def test_the_next_side_reaching_before_the_last_piece_is_down_makes_two_moves() -> None:
    rig = Rig("fox-and-geese")
    rig.lift("9")  # the fox in the hand ...
    rig.lift("16")  # ... and a goose lifted already
    rig.place("4")
    rig.place("9")
    assert rig.moves == ["9-4", "16-9"]
    assert "mismatch" not in rig.kinds()


def test_a_move_made_while_the_next_side_holds_a_piece_is_taken_once_it_is_no_touch() -> None:
    rig = Rig("fox-and-geese")
    rig.lift("9")
    rig.lift("16")  # the geese reach before the fox is down, and hold their goose
    rig.place("4")
    assert rig.moves == []  # a goose up for less than a touch lasts: the next readings tell
    rig.wait(2.5)
    assert rig.moves == ["9-4"]  # up longer than a touch: the geese are moving it
    rig.place("9")
    assert rig.moves == ["9-4", "16-9"]
    assert "mismatch" not in rig.kinds()


def test_the_next_side_reaching_as_a_capture_takes_its_man_makes_two_moves() -> None:
    """Skip: c4xd3, the man on d3 taken off 0.1 s after the capturer rose and the capturer
    down in his place; the next side lifts f3 as he comes down, for f3-g4. The taken man
    coming off is no lift of the capturer from a point he was set down on, so f3 rising
    0.17 s after it is the next side reaching early, not a hand at the capture (switch
    times of Skip reach_early 231)."""
    text = "......../.......b/b......b/R......./..R...../...B.B.r/rB....../B....... r"
    rig = Rig("skip", text)
    rig.switches(
        (1.06, "c4", False),
        (1.16, "d3", False),
        (1.33, "f3", False),
        (1.41, "d3", True),
        (3.04, "g4", True),
    )
    rig.wait(3.0)
    assert rig.moves == ["c4xd3", "f3-g4"]


def test_a_piece_set_down_and_up_again_before_a_move_lands_is_no_stop_of_the_next_side() -> None:
    """McLoughlin: the goose 25-18 (the fox touched just before), the fox lifted as it comes
    down, jumping it 17x19 (18 taken off). The board is also the goose 25-19 with the fox in
    the hand, set down on 18 on its way; but that set-down came and went before 19 filled,
    and the side after does not set its piece down before the move before it lands: the
    moves are taken (switch times of McLoughlin reach_early 20)."""
    rig = Rig("fox-and-geese-mcloughlin", "......GG....GG..F.......G...G.G.. G")
    rig.switches(
        (1.08, "17", False),
        (2.21, "17", True),  # (touched)
        (2.40, "25", False),
        (2.41, "17", False),
        (2.58, "18", True),
        (3.26, "18", False),
        (3.84, "19", True),
        (3.85, "13", False),  # (touched)
        (4.53, "13", True),
    )
    rig.wait(6.0)
    assert rig.moves == ["25-18", "17x19"]


def test_roll_pressed_while_the_last_piece_is_in_the_hand_waits_for_it() -> None:
    rig = Rig("fox-and-rabbit-4", "WR@a1 BR@i9 RF@c2 GF@e3 turn=GF dice=2,1", dice=[(3, 4)])
    rig.lift("e3")
    rig.press("roll")  # the board reads the capture onto c2, or a fox in the air
    rig.wait(0.5)
    rig.place("f1")
    assert rig.moves == ["GF e3-f1", "dice=3,4"]


def test_a_taken_peg_set_down_by_mistake_and_taken_away_does_not_block_the_jump() -> None:
    rig = Rig("solitaire")
    rig.move("5", "17")
    rig.lift("10")
    assert rig.moves == ["5-17"]
    rig.lift("12", "11")
    rig.place("5")  # the taken peg put down on an empty hole by mistake ...
    rig.wait(1.0)
    rig.lift("5")  # ... and taken away
    rig.place("10")
    rig.wait(1.0)
    assert rig.moves == ["5-17", "12-10"]


def test_a_piece_knocked_off_its_reed_for_three_seconds_takes_nothing_back() -> None:
    rig = Rig("messenger-boy", "R@- B@- turn=R", dice=[(5,), (2,)])
    rig.press("roll")
    rig.place("A1")  # R enters
    rig.wait(0.5)
    rig.press("roll")
    rig.lift("A1")  # R's man knocked off his reed: the board looks like the move before
    rig.wait(3.0)
    rig.place("A1")
    rig.wait(2.0)
    assert "takeback" not in rig.kinds()
    assert [m for m in rig.moves if not m.startswith("spin")] == ["R start A"]


def test_a_knock_up_to_three_seconds_shows_no_mismatch_but_a_piece_gone_longer_does() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.move("16", "9")
    rig.lift("20")  # a goose knocked off its reed while the fox thinks: missing, nothing new
    rig.wait(3.0)
    assert "mismatch" not in rig.kinds() and not rig.session.mismatch
    rig.place("20")
    rig.wait(1.0)
    rig.lift("20")  # gone for good this time: guided back once it stays so
    rig.wait(KNOCK + 0.2)
    assert rig.session.mismatch
    assert _said(rig, "mismatch")[-1] == "place 20"
    rig.place("20")
    rig.move("4", "5")
    assert rig.moves == ["9-4", "16-9", "4-5"]


def test_second_thoughts_change_the_move_and_say_so() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    assert rig.moves == ["9-4"]
    rig.lift("4")  # before the geese touch anything, the fox goes elsewhere
    rig.place("10")
    assert rig.moves == ["9-10"]
    assert _said(rig, "changed") == ["9-4 to 9-10"]
    rig.move("16", "9")  # and the game goes on from the changed move
    assert rig.moves == ["9-10", "16-9"]


def test_second_thoughts_back_through_the_start() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.move("4", "9")
    rig.wait(0.5)
    rig.move("9", "5")
    rig.wait(5.0)
    assert rig.moves == ["9-5"]
    assert "takeback" not in rig.kinds()


def test_a_switch_stuck_open_is_found_by_asking_and_the_game_goes_on() -> None:
    rig = Rig("fox-and-geese")
    rig.lift("9")  # the fox is set on 4, whose switch is broken: no change
    rig.wait(5.0)
    # up longer than a hand holds a piece, several landings fit but for one switch: which?
    assert _said(rig, "ambiguous") and not _said(rig, "unseen")
    asked = _said(rig, "ambiguous")[-1].split(" | ")
    for _ in range(asked.index("9-4")):
        rig.press("hint")
    rig.press("confirm")
    assert rig.moves == ["9-4"]
    assert _said(rig, "suspect-switch")[0].startswith("switch 4 ")
    rig.move("16", "9")  # the game goes on, switch 4 read as the game expects it
    assert rig.moves == ["9-4", "16-9"]


def test_a_switch_stuck_closed_is_named_and_read_as_expected() -> None:
    rig = Rig("fox-and-geese")
    rig.place("2")  # no piece there (and no move lands there): the switch failed closed
    rig.wait(5.0)
    assert _said(rig, "mismatch") == ["remove 2"]
    rig.wait(3.0)
    assert _said(rig, "suspect-switch")[0].startswith("switch 2 ")
    assert not rig.session.mismatch  # read as the game expects it: the game goes on
    assert rig.frame["2"] == Light(RED, Pattern.PULSE)  # and lit as suspect
    rig.move("9", "5")
    assert rig.moves == ["9-5"]
    rig.lift("2")  # it changed: it works after all
    assert _said(rig, "switch-ok") == ["switch 2 works again"]
    assert "2" not in rig.frame


def test_second_thoughts_keep_both_moves_in_the_store(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    rig = Rig("fox-and-geese", store=store)
    rig.move("9", "4")
    rig.lift("4")
    rig.place("10")
    record = store.unfinished("fox-and-geese")
    assert record is not None and list(record.moves) == ["9-10"]
    assert store.changes(record.id) == [(0, "9-4")]
    store.close()


def test_a_piece_just_moved_lifted_after_the_other_side_began_is_their_move_not_a_change() -> None:
    # a fox moved 11-17; a goose is lifted from 9, and the fox on 17 is lifted while the goose
    # is still in the hand: the goose lands on 5, the fox on 9. Read as second thoughts (11-17
    # changed to 11-5, the goose on 9 touched) the fox would stand where the goose is.
    rig = Rig("fox-and-geese")
    for start, landing in (("9", "10"), ("17", "9"), ("11", "17")):
        rig.move(start, landing)
    rig.lift("9")
    rig.lift("17")
    rig.place("5")
    rig.place("9")
    assert rig.moves == ["9-10", "17-9", "11-17", "9-5", "17-9"]
    assert "changed" not in rig.kinds()


def test_a_capture_whose_landing_never_changed_then_moves_reached_early_one_after_another() -> None:
    # red takes e5 with the taken man slid out from under (e5's switch never changes); blue
    # lifts g7, and red lifts its capturer again before blue's man is down: three moves, no
    # still board between them
    rig = Rig("skip", "bbb...../......b./......../....b.../...r..../......../......../rrr..... r")
    rig.lift("d4")
    rig.lift("g7")
    rig.lift("e5")
    rig.place("f6")
    rig.place("d6")
    assert rig.moves == ["d4xe5", "g7-f6", "e5-d6"]
    assert "mismatch" not in rig.kinds()


def test_roll_pressed_in_flight_then_the_rabbit_touched_as_the_fox_lands_beside_it() -> None:
    # lifting the rabbit is no sign that the fox came down on it: it is the man a capture
    # onto e3 would take, or a touch (here: the fox lands on g1 as the hand brushes e3)
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.press("roll")
    rig.wait(0.5)
    rig.runner.lift("e3", rig.t + 0.1)
    rig.runner.place("g1", rig.t + 0.1)
    rig.wait(0.5)
    rig.place("e3")
    rig.wait(QUIET + 1.0)  # (the switches still that long: the fox is down)
    assert rig.moves == ["RF i5-g1", "dice=1,6"]
    assert "game-over" not in rig.kinds()


def test_roll_pressed_while_the_rabbit_was_touched_under_a_fox_in_the_hand_waits() -> None:
    # the fox leaves i5; the hand brushes the rabbit on e3 (off, on: a capture onto e3 reads
    # the same); roll is pressed with the fox still held, and it comes down on g1 a second later
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.lift("e3")
    rig.wait(0.4)
    rig.place("e3")
    rig.wait(0.6)
    rig.press("roll")
    assert rig.moves == []  # a button is no evidence that the fox came down on e3
    assert "waiting" in rig.kinds()  # and the board says it waits
    rig.wait(1.0)
    rig.place("g1")
    assert rig.moves == ["RF i5-g1", "dice=1,6"]  # down: the move, then the throw at once


@pytest.mark.parametrize("spot", ["d4", "c4", "f4"])
def test_a_fox_set_down_off_its_landings_while_roll_waits_is_no_capture(spot: str) -> None:
    # roll waits on i5-e3 (the rabbit's circle: nothing changes); the fox comes down one
    # circle off: no throw of the rabbit's makes that the rabbit's move, and the mismatch shown
    # is the players' to fix, so the capture is never taken (nor the game ended)
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.wait(0.3)
    rig.press("roll")
    rig.wait(0.5)
    rig.place(spot)
    rig.wait(8.0)
    assert rig.moves == []
    assert "game-over" not in rig.kinds()


def test_a_roll_waiting_on_the_fox_is_carried_out_as_its_second_thoughts_come_down() -> None:
    # i5-g1 taken; the fox lifted again, roll pressed (it may be going onto the rabbit's circle),
    # and it comes down on e7: the change is the move, and the throw comes with it at once
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.move("i5", "g1")
    rig.wait(1.0)
    rig.lift("g1")
    rig.wait(1.0)
    rig.press("roll")
    rig.wait(0.5)
    rig.place("e7")
    assert rig.moves == ["RF i5-e7", "dice=1,6"]


def test_undo_cancels_a_roll_waiting_on_a_piece_in_the_hand() -> None:
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.press("roll")  # waits: the fox may be going onto the rabbit's circle
    rig.press("undo")  # nothing taken yet: the players take the roll back too
    rig.wait(QUIET + 1.0)
    assert rig.moves == []


def test_a_fox_slid_over_circles_while_roll_waits_is_still_in_the_hand() -> None:
    # roll pressed with the fox in the hand; the fox brushes e4 and e5 on its way (contacts
    # shorter than the settle time): no piece of the next side was lifted, so nothing is taken
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.wait(0.3)
    rig.press("roll")
    for point in ("h5", "g5"):
        rig.runner.place(point, rig.t + 0.01)
        rig.runner.lift(point, rig.t + 0.03)
        rig.wait(0.05)
    assert rig.moves == []
    rig.wait(0.3)
    rig.place("g9")  # (i5-g9: four up, two across)
    assert rig.moves == ["RF i5-g9", "dice=1,6"]


def test_roll_pressed_before_a_plain_landing_throws_as_the_piece_comes_down() -> None:
    # the fox is lifted and roll is pressed at once: the board waits for the piece (its
    # landing's switch is no suspect yet); the fox comes down half a second later and the throw
    # comes with its move, not seconds later
    rig = Rig("fox-and-rabbit", "WR@a1 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.lift("i5")
    rig.wait(0.2)
    rig.press("roll")
    assert rig.moves == []
    rig.wait(0.5)
    rig.place("g1")
    assert rig.moves == ["RF i5-g1", "dice=1,6"]


def test_jumps_the_board_could_not_follow_are_taken_when_their_line_is_the_board_whole() -> None:
    # the switch under 23 breaks open (reads empty) just before 12-26 over 19; then 22-24
    # takes that peg: the board read a peg lifted before the jump that takes it began, and
    # the jumper's landing on 24 touched again a second later. Once the board has stayed so
    # the grace time, the one line whose board the switches read whole, each peg set down
    # after its jump began, is taken, not a mismatch (Solitaire, broken switch 37)
    rig = Rig("solitaire", "oooo.oooo.ooooooooooooo.o.ooo.oo. -")
    rig.switches(
        (1.355, "23", False),
        (1.977, "12", False),
        (2.046, "19", False),
        (2.102, "26", True),
        (4.637, "22", False),
        (4.898, "24", True),
        (4.901, "24", False),  # (the hand still on it)
        (5.950, "24", True),
    )
    rig.wait(6.0)
    assert rig.moves == ["12-26", "22-24"]
    assert "mismatch" not in rig.kinds()


def test_a_stop_on_the_way_is_no_other_hand_when_a_switch_breaks_meanwhile() -> None:
    # the fox 2-3 and the goose 9-17; the switch under 17 breaks open (reads empty) just
    # after; the fox's player sets the fox on 2 for 2.2 s, then on 10. The one line that
    # fits but for 17 is 5-10: the fox's stop on 2 on its way, longer than a touch, is no
    # other hand's piece, so the switch is named and 5-10 taken half a second after the fox
    # is down, not a mismatch a few seconds later (Fox and Geese, all behaviours 11)
    rig = Rig("fox-and-geese", "GF..F.G.G.GGGGGG.GGGGG.GGGGGGGGGG F")
    rig.switches(
        (1.681, "2", False),
        (1.733, "9", False),
        (1.826, "3", True),
        (2.885, "17", True),
        (3.625, "17", False),  # (broken)
        (5.181, "5", False),
        (5.545, "2", True),
        (7.755, "2", False),
        (8.135, "10", True),
    )
    rig.wait(1.0)
    assert rig.moves == ["2-3", "9-17", "5-10"]
    assert any("switch 17 may be broken" in text for text in _said(rig, "suspect-switch"))
    assert "mismatch" not in rig.kinds()


def test_a_taken_peg_set_down_where_it_reads_as_a_jump_of_its_own_waits() -> None:
    # 23-9 takes 16; the peg on 16 is taken off first and set down on 28 by mistake: with 23
    # lifted the board reads 16-28 (over 23) made, a jump nobody made
    rig = Rig("solitaire", "..o............o......o.o.o...... -")
    rig.lift("16")
    rig.place("28")
    rig.lift("23")
    rig.wait(1.0)
    assert rig.moves == []
    rig.lift("28")  # the mistake taken away
    rig.place("9")
    rig.wait(5.0)
    assert rig.moves == ["23-9"]
    assert "mismatch" not in rig.kinds()


@pytest.mark.parametrize("gap", [0.05, 0.08, 0.3])
def test_a_taken_peg_put_aside_as_the_jumper_is_lifted_is_still_a_mistake(gap: float) -> None:
    # 23-9 over 16 with two hands: 16 taken off first, 23 lifted, and 16 set down on 28 by
    # mistake `gap` s later; 16-28 over 22 reads made, but so does 23-9 under way with that
    # mistake: wait (a review found 16-28 taken, and the game over, when a set-down so soon
    # after the mover's lift was ruled no mistake)
    rig = Rig("solitaire", "..o............o......o.o.o...... -")
    rig.switches((1.0, "16", False), (1.5, "23", False), (1.5 + gap, "28", True))
    rig.wait(1.0)
    assert rig.moves == []
    rig.switches((rig.t + 0.5, "28", False), (rig.t + 1.0, "9", True))
    rig.wait(5.0)
    assert rig.moves == ["23-9"]
    assert "mismatch" not in rig.kinds()


def test_a_taken_goose_set_down_by_mistake_is_not_read_as_two_moves() -> None:
    # the fox jumps 8 to 7; the goose on 8 is taken off and set down on 10 by mistake before
    # the fox lands: the board reads the fox 9-10 and then the goose 8-7 as well, until the
    # goose on 10 is taken away
    rig = Rig("fox-and-geese", "....FG.GF.GGGGGGG.GGGGGGG.GGGGGGG F")
    rig.lift("9")
    rig.lift("8")
    rig.place("10")
    rig.place("7")
    rig.wait(1.0)
    assert rig.moves == []
    rig.lift("10")
    rig.wait(5.0)
    assert rig.moves == ["9x7"]


def test_second_thoughts_onto_a_capture_that_a_longer_chain_passes_through() -> None:
    # the fox moved 11-5, then thinks better of it and jumps 10 from 11 to 9 instead: the
    # board is also a longer chain on its way through 9 (11x9x25...), so the change waits
    # for the board to stay so, then is taken and said
    rig = Rig("fox-and-geese", ".F...GGG.GF.GGG.GG.GGGGG.GGGGGGGG F")
    rig.move("11", "5")
    rig.wait(2.0)
    rig.lift("5")
    rig.lift("10")
    rig.place("9")
    rig.wait(8.0)
    assert rig.moves == ["11x9"]
    assert _said(rig, "changed") == ["11-5 to 11x9"]


def test_second_thoughts_onto_a_capture_whose_goose_came_off_as_the_fox_rose() -> None:
    # the fox moved 11-5; the hand lifts it and takes the goose on 10 off in the same moment
    # (the fox's reed bouncing as it leaves), then sets the fox on 9: the goose that capture
    # takes, lifted with it, is no sign that the geese began. (A goose lifted before the fox
    # is: the geese reaching early.)
    rig = Rig("fox-and-geese", ".F...GGG.GF.GGG.GG.GGGGG.GGGGGGGG F")
    rig.move("11", "5")
    rig.wait(2.0)
    t = rig.t + 0.001
    rig.runner.lift("10", t)
    rig.runner.lift("5", t)
    rig.runner.place("5", t + 0.0005)
    rig.runner.lift("5", t + 0.001)
    rig.wait(0.8)
    rig.place("9")
    rig.wait(8.0)
    assert rig.moves == ["11x9"]
    assert _said(rig, "changed") == ["11-5 to 11x9"]


@pytest.mark.parametrize(
    ("first", "then", "chain"),
    [(("15", "8"), ("7", "21"), "9x7x21x9"), (("8", "15"), ("21", "7"), "9x21x7x9")],
)
def test_second_thoughts_back_to_the_start_then_on_round_a_loop_chain(
    first: tuple[str, str], then: tuple[str, str], chain: str
) -> None:
    # the goose 21-22 with the fox lifted early; the fox set down on 17 (9-17 read made),
    # carried back to 9, then round the loop with the geese on 14 and the next one taken off
    # first, sliding over 14: both spellings of the loop leave one position, and the stops
    # (9 back on the start of the move changed, the fox's own; then the loop's) say which
    # way round it was carried, the change read so (Fox and Geese, every behaviour 10 at 115
    # plies; the other way round from a review, which found the first spelling read where the
    # stops fitted neither)
    rig = Rig("fox-and-geese", ".F.....GFGGGGGGG.GG.G.GG.GGG.GG.G G")
    rig.switches(
        (1.494, "21", False),
        (2.135, "21", True),  # (set back, hesitating)
        (2.332, "21", False),
        (2.377, "9", False),  # (the fox, reached for early)
        (2.518, "22", True),
        (3.720, "17", True),
        (6.401, "17", False),
        (6.815, "9", True),  # (back to its start)
        (7.408, "9", False),
        (7.408, "14", False),  # (taken first)
        (7.727, first[0], False),  # (taken first)
        (8.478, first[1], False),
        (8.611, then[0], True),
        (8.817, then[0], False),
        (8.840, "14", True),  # (slid over)
        (8.885, "14", False),
        (9.319, then[1], True),
        (9.980, then[1], False),
        (11.453, "9", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["21-22", chain]
    assert _said(rig, "changed") == [f"9-17 to {chain}"]


@pytest.mark.parametrize("gap", [0.2, 0.6])
def test_second_thoughts_with_the_goose_down_first_are_no_two_new_moves(gap: float) -> None:
    # the fox 9-4, read made; its player lifts it again (second thoughts: 9-5 instead) and the
    # geese's player, reaching early, lifts the goose on 16 `gap` s later, 0.05-1 s before the
    # fox comes down, and sets it on 9 before the fox is set on 5. The fox was up before the
    # geese's hand came in (second thoughts, by _other_side_first): the moves were 9-5 and
    # 16-9, fox to move (a review found 9-4, 16-9, 4-5 read, the geese to move, once a
    # knocked piece was allowed)
    rig = Rig("fox-and-geese")
    rig.switches((1.0, "9", False), (1.5, "4", True))
    rig.wait(3.0)
    assert rig.moves == ["9-4"]
    rig.switches(
        (5.0, "4", False),  # second thoughts
        (5.0 + gap, "16", False),  # the goose, reached for
        (5.0 + gap + 0.6, "9", True),
        (5.0 + gap + 0.8, "5", True),
    )
    rig.wait(10.0)
    assert "4-5" not in rig.moves


def test_two_plies_taken_back_with_the_fox_lifted_first_are_a_takeback() -> None:
    # 9-4, 16-9, 4-1; the players take the last two plies back, each their own piece: the
    # fox's player lifts the fox from 1 first, the geese's player the goose from 9 0.4 s
    # later; the goose is back on 16 before the fox is back on 4. Before: a takeback to after
    # 9-4 (not two new moves, 9-16 and 1-4, as a review found once a knocked piece was
    # allowed).
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.wait(3.0)
    rig.move("16", "9")
    rig.wait(3.0)
    rig.move("4", "1")
    rig.wait(3.0)
    assert rig.moves == ["9-4", "16-9", "4-1"]
    t = rig.t
    rig.switches(
        (t + 1.0, "1", False),  # the fox's player takes 4-1 back ...
        (t + 1.4, "9", False),  # ... as the geese's player takes 16-9 back
        (t + 2.0, "16", True),
        (t + 2.3, "4", True),
    )
    rig.wait(10.0)
    assert rig.moves == ["9-4"]
    assert "takeback" in rig.kinds()


def test_a_loop_chain_carried_on_back_to_its_start_is_the_chain_going_on() -> None:
    # the fox round 9x21x23x9 and back on 9 as the geese it took come off: the chain read
    # as far as 23 then back on 9 is the chain gone on, though the loop the other way round
    # (9x23x21x9, the chain changed) leaves the same position: no second thoughts are said
    # (Fox and Geese, the careful mix 65)
    rig = Rig("fox-and-geese", "....F.G.F..GGGGG.G.G.G...GG.G.G.G F")
    rig.switches(
        (0.797, "15", False),  # (taken first)
        (1.053, "22", False),  # (taken first)
        (1.245, "9", False),
        (1.370, "21", True),
        (2.010, "21", False),
        (2.339, "23", True),
        (2.665, "23", False),
        (3.868, "9", True),
        (3.883, "16", False),
        (3.883, "18", False),  # (touched)
        (4.224, "18", True),
        (6.458, "29", False),
        (6.511, "28", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["9x21x23x9", "29-28"]
    assert _said(rig, "changed") == []


def test_second_thoughts_onto_the_rabbit_are_taken_before_the_throw() -> None:
    # the fox goes i5-g1, then its player thinks better of it and sets it on the rabbit's
    # circle (e3: no switch changes); the rabbit's player presses roll: the change is the
    # move, taken once the board is still, and the throw comes after it
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.move("i5", "g1")
    assert rig.moves == ["RF i5-g1"]
    rig.wait(1.0)
    rig.lift("g1")
    rig.wait(1.0)
    rig.press("roll")
    assert rig.moves == ["RF i5-g1"]  # no throw for a move being changed
    rig.wait(QUIET)
    assert rig.moves == ["RF i5-e3", "dice=1,6"]
    assert _said(rig, "changed") == ["RF i5-g1 to RF i5-e3"]


def test_a_roll_pressed_again_after_confirm_throws_once_and_takes_no_next_move() -> None:
    # the fox goes e1-d3, then on to the green fox's circle (g2: no switch changes); roll
    # waits on it, confirm is pressed too, then roll again: the change is taken and the dice
    # thrown, and that roll is spent: it takes no silent move of the next side's (GF g2-a7
    # onto the rabbit's circle reads made on the same board)
    rig = Rig("fox-and-rabbit-4", "WR@f9 BR@a7 RF@e1 GF@g2 turn=RF dice=2,1", dice=[(6, 5)])
    rig.move("e1", "d3")
    rig.wait(1.0)
    rig.lift("d3")
    rig.wait(1.0)
    rig.press("roll")
    rig.press("confirm")
    rig.press("roll")
    assert rig.moves == ["RF e1-g2", "dice=6,5"]
    rig.wait(QUIET + 1.0)
    assert rig.moves == ["RF e1-g2", "dice=6,5"]
    assert "dice-error" not in rig.kinds()


def test_a_man_touched_under_a_piece_in_the_hand_is_no_capture_when_the_next_side_reaches() -> None:
    # black lifts c3; the hand brushes red's man on b2 (off, on: a capture onto b2 reads the
    # same); red reaches for e4 while black's man is still in the air, and it lands on d2
    rig = Rig("skip", "bbb...../......../......../......../....r.../..b...../.r....../rrr..... b")
    rig.lift("c3")
    rig.lift("b2")
    rig.wait(0.6)
    rig.place("b2")
    rig.wait(1.0)
    rig.lift("e4")  # (red begins: but the man on b2 may have been touched, black still held)
    assert rig.moves == []
    rig.place("d2")
    rig.wait(0.5)
    rig.place("f5")
    rig.wait(1.0)
    assert rig.moves == ["c3-d2", "e4-f5"]


def test_three_moves_each_reached_early_round_a_cycle_are_no_takeback() -> None:
    # the fox goes 10-17; a goose reaches from 9 before it is down and goes to 10; the fox
    # reaches from 17 before the goose is down and goes to 9: the board is the one before
    # 10-17 again, but reached by moves made forward, each plainly
    rig = Rig("fox-and-geese", "..F.G.GGGF.GGGGG..GG.GGGGGGGGGGGG F")
    rig.lift("10")
    rig.lift("9")
    rig.place("17")
    rig.lift("17")
    rig.place("10")
    rig.place("9")
    rig.wait(6.0)
    assert rig.moves == ["10-17", "9-10", "17-9"]
    assert "takeback" not in rig.kinds()


def test_a_goose_just_moved_taken_first_and_set_down_by_mistake_is_no_change() -> None:
    # the geese move 1-5; the fox's player takes the goose on 5 (the fox will jump it) first
    # and sets it down on 2 by mistake: read as the geese's second thoughts (1-5 to 1-2) it
    # would be a change nobody made. It waits; the goose is taken away and the fox jumps.
    rig = Rig("fox-and-geese", "G.FG..F..G.GGGGG.G.GGGG.GGGGGGGGG G")
    rig.move("1", "5")
    rig.wait(1.0)
    rig.lift("5")
    rig.place("2")
    rig.wait(1.0)
    assert rig.moves == ["1-5"]
    rig.lift("2")
    rig.lift("10")
    rig.lift("3")
    rig.place("11")
    rig.wait(6.0)
    assert rig.moves == ["1-5", "3x9x11"]
    assert "changed" not in rig.kinds()


def test_a_jump_and_the_next_step_that_read_as_a_longer_chain_wait_for_the_next_move() -> None:
    # the fox jumps 1x9 (goose 4 taken off); a goose lifted from 8 before the fox is down goes
    # to 7, and the fox is lifted from 9 again: the board is also the chain 1x9x7 (fox set
    # down on 9, then on 7), but the fox on 9 left after 7 was filled: two readings, so the
    # board waits for the fox to come down
    rig = Rig("fox-and-geese", "F..G.F.G..GGGGG.GG.GGGGGGG.G.GGGG F")
    rig.lift("1")
    rig.lift("8")
    rig.lift("4")
    rig.place("9")
    rig.wait(1.0)
    rig.place("7")
    rig.wait(1.0)
    rig.lift("9")
    assert rig.moves == []
    rig.wait(0.5)
    rig.place("16")
    rig.wait(4.0)  # (16 may also be goose 4, taken, set down by mistake: until it stays so)
    assert rig.moves == ["1x9", "8-7", "9-16"]


def test_a_landing_touched_as_the_next_side_lands_is_asked_about_not_guessed() -> None:
    # goose 9-4, the fox lifted from 1 before the goose is down; as the fox comes down on 5, a
    # hand lifts the goose on 4 and puts it back. The board is also 9-5 and the fox on to 4
    # (set down there first, then lifted and put back): the switches cannot tell, so it asks
    rig = Rig("fox-and-geese", "F......GGGGGG.GGG.GGG.GGGGGGFGGGG G")
    rig.lift("9")
    rig.lift("1")
    rig.place("4")
    rig.wait(1.0)
    rig.runner.lift("4", rig.t + 0.1)  # the same moment
    rig.runner.place("5", rig.t + 0.1)
    rig.wait(0.5)
    rig.place("4")
    rig.wait(3.0)
    assert rig.moves == []
    asked = _said(rig, "ambiguous")[-1].split(" | ")
    assert sorted(asked) == ["9-4", "9-5"]
    for _ in range(asked.index("9-4")):
        rig.press("hint")
    rig.press("confirm")
    assert rig.moves == ["9-4", "1-5"]


def test_a_capture_reached_early_twice_over_is_made_though_a_later_move_reads_two_ways() -> None:
    # black takes b5 (its man off, the capturer down on b5) while red reaches from b2 (to c3);
    # black reaches from e6 and takes f5, red goes f3-g4. After b2-c3, e6 may take f5 or (its
    # man slid out) d5: two readings of the move after, but c6xb5 is made either way (not only
    # c6xd5, d5's man slid out, which the board also is). The switches cannot tell: it asks
    rig = Rig("skip", ".......b/.......b/..bbb..b/rr.r.r../......../r....r../.r.bb..r/........ b")
    rig.lift("c6", "b5", "b2")
    rig.place("b5")
    rig.wait(1.0)
    rig.lift("e6")
    rig.place("c3")
    rig.wait(1.0)
    rig.lift("f5")
    rig.place("f5")
    rig.wait(1.0)
    rig.lift("f3")
    rig.place("g4")
    rig.wait(5.0)
    assert rig.moves == []
    asked = _said(rig, "ambiguous")[-1].split(" | ")
    assert sorted(asked) == ["c6xb5", "c6xd5"]
    for _ in range(asked.index("c6xb5")):
        rig.press("hint")
    rig.press("confirm")
    assert rig.moves == ["c6xb5", "b2-c3"]
    rig.wait(3.0)
    asked = _said(rig, "ambiguous")[-1].split(" | ")  # and then about e6's capture
    assert sorted(asked) == ["e6xd5", "e6xf5"]
    for _ in range(asked.index("e6xf5")):
        rig.press("hint")
    rig.press("confirm")
    assert rig.moves == ["c6xb5", "b2-c3", "e6xf5", "f3-g4"]


def test_the_capturer_lifted_while_its_taken_goose_sits_on_a_hole_by_mistake_is_no_change() -> None:
    # the geese move 10-5; the fox's player takes the goose on 5 off first, sets it down on
    # 11 by mistake (the board reads 10-11 instead, second thoughts) and lifts the fox on 3
    # before taking it away: the fox lifted is that capture under way, not the fox's side
    # beginning after the change
    rig = Rig("fox-and-geese", "..F..FGG.G.GGGGGGGGGGGGGGGGG.GGGG G")
    rig.move("10", "5")
    rig.wait(2.0)
    rig.lift("5")
    rig.place("11")
    rig.lift("3")
    assert rig.moves == ["10-5"]
    rig.place("9")
    rig.wait(0.5)
    rig.lift("11")  # the mistake taken away
    rig.wait(5.0)
    assert rig.moves == ["10-5", "3x9"]
    assert "changed" not in rig.kinds()


def test_a_capture_onto_its_taken_man_while_he_sits_elsewhere_by_mistake_is_no_change() -> None:
    # red moves d1-e2; blue takes the man on e2 off first (d3 will jump onto his square),
    # sets him down on c2 by mistake, and d3 lands on e2: the board reads red's second
    # thoughts d1-c2 and blue's d3-e2 after it, two moves nobody made, until c2 is cleared
    rig = Rig("skip", "b......./b...b.bb/......b./....b..r/...r..../.rrb...r/.......r/r..r.... r")
    rig.move("d1", "e2")
    rig.wait(1.0)
    rig.lift("e2")
    rig.place("c2")
    rig.lift("d3")
    rig.place("e2")
    assert rig.moves == ["d1-e2"]
    rig.lift("c2")  # the mistake taken away
    rig.wait(5.0)
    assert rig.moves == ["d1-e2", "d3xe2"]
    assert "changed" not in rig.kinds()


def test_a_second_goose_taken_off_while_the_first_sits_on_a_point_by_mistake_is_no_change() -> None:
    # the geese move 1-5; the fox's player takes the goose on 5 off first and sets it down
    # on 2 by mistake, then takes off the chain's second goose (10) with the fox still down:
    # that capture is under way, and the goose lifted is no sign of the fox's side beginning
    rig = Rig("fox-and-geese", "G.FG..F..G.GGGGG.G.GGGG.GGGGGGGGG G")
    rig.move("1", "5")
    rig.wait(1.0)
    rig.lift("5")
    rig.place("2")
    rig.lift("10")
    assert rig.moves == ["1-5"]
    rig.lift("3")
    rig.place("11")
    rig.lift("2")
    rig.wait(5.0)
    assert rig.moves == ["1-5", "3x9x11"]
    assert "changed" not in rig.kinds()


def test_a_capture_onto_its_taken_man_set_down_elsewhere_with_a_man_touched_is_no_change() -> None:
    # blue moves f7-g6; red takes the man on g6 off first (f5 will jump onto his square),
    # sets him down on e6 by mistake, f5 lands on g6 and a hand brushes f6: the board reads
    # blue's second thoughts f7-e6 and red's f5-g6 after it, with f6 touched, until the
    # mistake is taken away
    # (the hand model's skip seed 44)
    rig = Rig("skip", "......../b...rb.b/b.b..b../....br../...r..../.......r/rr.....r/.......r b")
    rig.switches(
        (1.000, "f7", False),
        (2.211, "g6", True),
        (4.179, "g6", False),  # the man red's f5 takes, taken off first
        (4.638, "e6", True),  # set down by mistake
        (4.840, "f5", False),
        (5.033, "g6", True),  # f5 lands on his square
        (5.033, "f6", False),  # f6 touched
    )
    rig.wait(5.1 - rig.t)
    assert rig.moves == ["f7-g6"]
    rig.lift("e6")  # the mistake taken away
    rig.place("f6")
    rig.wait(5.0)
    assert rig.moves == ["f7-g6", "f5xg6"]
    assert "changed" not in rig.kinds()


def test_a_goose_set_down_by_mistake_while_the_fox_goes_on_is_no_longer_chain() -> None:
    # the fox jumps 11x23 and goes on over 16; the goose on 16 is set down on 7 by mistake
    # before the fox lands on 9: the board reads the chain gone on 11x23x7 (over 15, the
    # next side reaching early), which nobody made
    rig = Rig("fox-and-geese", "F.........FGGGGGGGGGGG..GGGGG..GG F")
    rig.lift("11")
    rig.place("23")
    rig.lift("17")
    assert rig.moves == ["11x23"]
    rig.lift("23")
    rig.lift("16")
    rig.place("7")
    assert rig.moves == ["11x23"]
    rig.place("9")
    rig.wait(0.5)
    rig.lift("7")
    rig.wait(5.0)
    assert rig.moves == ["11x23x9"]


def test_a_switch_is_not_named_on_the_last_moves_agreement() -> None:
    # (the hand model's solitaire seed 12) 8-10 is made while 15 is touched for 0.9 s: the
    # board reads 8-10 made but for switch 15. Then 16 is taken off for 23-9 and set down on
    # 17 by mistake: 15-17 made but for switch 15 again, half a second on. Each position's
    # readings must agree for 2 s before a switch is named: these did not.
    rig = Rig("solitaire")
    rig.switches(
        (1.950, "6", False),  # 29-17, 6 touched
        (2.039, "29", False),
        (2.061, "6", True),
        (2.124, "24", False),
        (2.394, "17", True),
        (5.418, "10", False),  # 10-24, 17 set down on 29 by mistake
        (6.363, "24", True),
        (6.936, "17", False),
        (7.351, "29", True),
        (8.163, "29", False),
        (10.486, "8", False),  # 8-10, 15 touched
        (10.693, "15", False),
        (11.032, "10", True),
        (11.057, "9", False),
        (11.619, "15", True),
        (14.915, "16", False),  # 23-9: 16 set down on 17 by mistake
        (15.102, "17", True),
    )
    rig.wait(16.0 - rig.t)
    assert rig.moves == ["29-17", "10-24", "8-10"]
    assert "suspect-switch" not in rig.kinds()


def test_a_move_reached_early_dates_from_its_piece_leaving_not_the_next_piece_bouncing() -> None:
    # the fox goes 16-17 while a goose is lifted from 23 already; the fox is lifted again
    # before the goose comes down on 16, the fox's start, bouncing there (its switch opens a
    # moment): the fox left 16 long before that, so the goose's move, read from after the
    # fox's, is still seen, and the fox's next move after it
    rig = Rig("fox-and-geese", "F............GGF....GGGGGGGGGGGGG F")
    rig.lift("16")
    rig.lift("23")
    rig.place("17")
    rig.lift("17")
    rig.wait(3.0)  # the goose in the hand a while
    t = rig.t
    rig.runner.place("16", t + 0.1)
    rig.runner.lift("16", t + 0.102)  # (a bounce as it comes down)
    rig.runner.place("16", t + 0.103)
    rig.wait()
    rig.place("18")
    rig.wait(1.0)
    assert rig.moves == ["16-17", "23-16", "17-18"]
    assert "mismatch" not in rig.kinds()


def test_a_piece_set_down_off_a_route_is_no_touch_of_a_still_piece() -> None:
    # the fox goes 16-17 while a goose is lifted from 15; the fox is lifted again and the
    # goose comes down on 9: the board is also the fox 16-9 with the goose on 15 touched,
    # but a piece was set down on 17 and lifted again, which a touch does not do: the fox's
    # move is taken at once, the goose's once the fox comes down
    rig = Rig("fox-and-geese", "F............GGF....GGGGGGGGGGGGG F")
    rig.lift("16")
    rig.lift("15")
    rig.place("17")
    rig.lift("17")
    rig.place("9")
    assert rig.moves == ["16-17"]
    rig.wait(1.0)
    rig.place("16")
    rig.wait(1.0)
    assert rig.moves == ["16-17", "15-9", "17-16"]
    assert "mismatch" not in rig.kinds()


def test_roll_pressed_while_the_piece_just_moved_is_up_again_waits_for_second_thoughts() -> None:
    # the fox goes i5-g1 and is taken; its player lifts it again, thinking better of it, and
    # the rabbit's player presses roll at once: no throw while the fox is in the hand (the
    # throw would make the move final); it comes down on g9: the change, then the throw
    rig = Rig("fox-and-rabbit", "WR@a9 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.move("i5", "g1")
    assert rig.moves == ["RF i5-g1"]
    rig.wait(1.0)
    rig.lift("g1")
    rig.press("roll")
    assert rig.moves == ["RF i5-g1"]
    assert _said(rig, "waiting")
    rig.place("g9")
    assert rig.moves == ["RF i5-g9", "dice=1,6"]
    assert _said(rig, "changed") == ["RF i5-g1 to RF i5-g9"]


@pytest.mark.parametrize("back", [True, False])
def test_a_roll_waiting_on_the_piece_just_moved_is_thrown_once_it_is_down_or_gone(
    back: bool,
) -> None:
    # set back where it was: the move stands and the dice are thrown; never set down (taken
    # off the board): thrown once the board has been still for QUIET, the board then saying
    # what is missing
    rig = Rig("fox-and-rabbit", "WR@a9 RF@i5 turn=RF dice=4,2", dice=[(1, 6)])
    rig.move("i5", "g1")
    rig.wait(1.0)
    rig.lift("g1")
    rig.press("roll")
    if back:
        rig.place("g1")
    else:
        rig.wait(QUIET - 1.0)  # (from the lift)
        assert rig.moves == ["RF i5-g1"]
        rig.wait(1.0)
    assert rig.moves == ["RF i5-g1", "dice=1,6"]


def test_roll_pressed_while_a_count_is_in_the_air_past_a_winning_square_waits_for_it() -> None:
    # the rabbit counts 4 up through its home e9 (a legal landing that wins), then 3 left;
    # the fox's player presses roll while it is in the air between c9 and b9: a button is
    # no evidence that the piece came down, so e9 is not taken and the throw waits
    rig = Rig("fox-and-rabbit", "WR@e5 RF@a1 turn=WR dice=4,3", dice=[(1, 6)])
    at = "e5"
    for square in ("e6", "e7", "e8", "e9", "d9", "c9"):
        rig.lift(at)
        rig.place(square)
        at = square
    rig.lift("c9")
    rig.press("roll")
    assert rig.moves == []
    assert "game-over" not in rig.kinds()
    rig.place("b9")
    assert rig.moves == ["WR e5-b9", "dice=1,6"]


def test_a_capture_read_ahead_then_two_moves_overlapping_while_the_capturer_is_touched() -> None:
    # red takes e5 (it could go on over f6: read ahead, not yet taken); blue lifts g7, red's
    # hand brushes its capturer on e5 (up, then back) and lifts a1 before blue's man is down
    # on h6; then b2. The capturer up looked like the chain going on over f6 (a landing whose
    # switch never changed): it is a touch, and the moves are the capture, blue's and red's
    rig = Rig("skip", "bbb...../......b./.....b../....b.../...r..../......../......../rrr..... r")
    rig.lift("e5")
    rig.lift("d4")
    rig.place("e5")
    rig.wait(1.0)
    rig.lift("g7")
    rig.wait(0.1)
    rig.lift("e5", "a1")
    rig.place("h6")
    assert rig.moves == []
    rig.place("e5")
    rig.wait(0.6)
    rig.place("b2")
    assert rig.moves == ["d4xe5", "g7-h6", "a1-b2"]
    assert "suspect-switch" not in rig.kinds()


def test_confirm_for_a_move_onto_a_switch_thought_broken_takes_it_at_once() -> None:
    # switch 4 is thought broken (it reads nothing); the fox is set on 4 and its player
    # presses confirm, as the board asked: the mover's word that the piece is down (a `roll`
    # of the next side's would wait for the switches to be still: a count may go on)
    rig = Rig("fox-and-geese")
    rig.session.decider._suspect("4", rig.t)  # (as the watch names a switch)
    rig.lift("9")
    rig.press("confirm")
    assert rig.moves == ["9-4"]


def _asked_on_confirm(
    text: str,
    suspect: str,
    changes: tuple[tuple[float, str, bool], ...],
    still: float,
    asked: set[str],
    answer: str,
) -> Rig:
    """A Fox and Geese rig from ``text`` with ``suspect`` thought broken, the switch
    ``changes`` (times from now), ``confirm`` pressed ``still`` s after the last: the board
    asks ``asked``, and the players step to ``answer`` and confirm it."""
    rig = Rig("fox-and-geese", text)
    rig.session.decider._suspect(suspect, rig.t)  # (as the watch names a switch)
    t = rig.t
    rig.switches(*((t + dt, point, on) for dt, point, on in changes))
    rig.wait(still - 0.1)
    rig.press("confirm")
    assert rig.moves == []
    assert set(_said(rig, "ambiguous")[-1].split(" | ")) == asked
    for _ in range(len(asked)):
        if str(rig.session.decider.candidate) != answer:
            rig.press("hint")
    rig.press("confirm")
    assert rig.moves == [answer]
    return rig


def test_confirm_asks_where_a_move_and_an_answer_onto_a_dead_switch_read_two_ways() -> None:
    # switch 5 reads nothing (thought broken). The geese play 9-4, the fox lifted from 6 as the
    # goose comes down and set on 5; the geese's player presses confirm. The switches read the
    # same for 9-5 (onto the dead switch) and the fox over it, 6x4: the players say which
    # (Fox and Geese all 99; the switch times are its hands')
    changes = ((0.1, "9", False), (0.204, "6", False), (0.392, "4", True))
    text = ".G...FGGG...FGGG.GGGGG.GGG.GGGGGG G"
    _asked_on_confirm(text, "5", changes, 1.5, {"9-4", "9-5"}, "9-4")


def test_confirm_asks_where_a_goose_lifted_early_may_be_in_the_hand() -> None:
    # switch 4 reads nothing (thought broken). The fox steps 1-5, and a goose is lifted from 2
    # as it comes down; its player presses confirm for the fox's move. The switches read the
    # same for the fox onto the dead switch, 1-4, and that goose's 2-5: the players say which
    # (Fox and Geese all 96; the switch times are its hands')
    changes = ((0.1, "1", False), (0.114, "2", False), (0.165, "5", True))
    text = "FG......G..GGGGGFGGGGGGGGGGGGGGGG F"
    rig = _asked_on_confirm(text, "4", changes, 1.27, {"1-4", "1-5"}, "1-5")
    rig.place("1")
    rig.wait(1.0)
    assert rig.moves == ["1-5", "2-1"]


def _fox_off_its_landing_and_geese_on(*more: tuple[float, str, bool]) -> Rig:
    """Fox and Geese, switch 5 reading a piece where there is none (thought broken): the fox
    steps 2-3 (taken as it comes down), is lifted from 3 again, and the geese play 31-28 (23
    touched); then the switch changes ``more`` (times from the fox's lift from 3, less 1.755
    s). The switch times are Fox and Geese all 100's hands'."""
    text = "GF.F..GG.G.GGGG..GGGGGGGGGG.GGGGG F"
    occupied = engine.from_text("fox-and-geese", text).occupied() | {"5"}
    rig = Rig("fox-and-geese", text, occupied=occupied)
    rig.session.decider._suspect("5", rig.t)  # (as the watch names a switch)
    t = rig.t
    rig.switches((t + 0.1, "2", False), (t + 0.387, "3", True))
    rig.wait(0.5)
    assert rig.moves == ["2-3"]
    t = rig.t - 0.5
    geese = ((1.755, "3", False), (3.489, "31", False), (3.703, "28", True))
    touch = ((3.704, "23", False), (4.250, "23", True))
    rig.switches(*((t + dt, point, on) for dt, point, on in (*geese, *touch, *more)))
    return rig


def test_second_thoughts_onto_a_dead_switch_are_read_from_the_next_move_on_confirm() -> None:
    # the fox set on 5 (its switch shows nothing) after it was lifted from 3; the geese answer
    # 31-28 and press confirm, as the board has not taken their move: the fox's move was 2-5
    rig = _fox_off_its_landing_and_geese_on()
    rig.wait(1.31)
    rig.press("confirm")
    assert rig.moves == ["2-5", "31-28"]
    assert _said(rig, "changed") == ["2-3 to 2-5"]


@pytest.mark.parametrize("held", [3.7, 4.5, 9.0])
def test_a_fox_lifted_from_its_landing_and_held_is_no_change_onto_a_dead_switch(
    held: float,
) -> None:
    # as above, but the fox lifted from 3 is held, and nobody presses confirm; it comes back
    # down on 3 `held` s after the geese's last switch: the board read so far is also the fox
    # on to 5, whose switch is dead, but nothing tells them apart while a hand may hold a
    # piece, so nothing is changed (a review's case)
    rig = _fox_off_its_landing_and_geese_on((4.250 + held, "3", True))
    rig.wait(3.0)
    assert rig.moves == ["2-3", "31-28"]
    assert "changed" not in rig.kinds()


def test_a_fox_moved_on_after_the_geese_began_their_answer_is_no_second_thought() -> None:
    # switch 5 reads nothing (thought broken). The fox steps 11-6; a goose leaves 18 for 11,
    # and only then the fox is lifted again and set on 5. Second thoughts come before the
    # other side touches anything: this is 11-6, 18-11 and 6-5, not 11-6 changed to 11-5
    # (Fox and Geese all 99; the switch times are its hands')
    rig = Rig("fox-and-geese", ".G....GGG.F.FGGG.GGGGGG.G.GGGGGGG F")
    rig.session.decider._suspect("5", rig.t)  # (as the watch names a switch)
    t = rig.t
    rig.switches((t + 0.1, "11", False), (t + 0.441, "6", True))
    rig.wait(1.0)
    assert rig.moves == ["11-6"]
    t = rig.t
    rig.switches((t + 0.226, "18", False), (t + 1.623, "6", False), (t + 1.964, "11", True))
    rig.wait(0.96)
    rig.press("confirm")  # (the geese's word for 18-11, 1.06 s after it came down)
    rig.wait(4.0)
    assert "changed" not in rig.kinds()
    assert rig.moves[:2] == ["11-6", "18-11"]
    rig.press("confirm")
    assert rig.moves == ["11-6", "18-11", "6-5"]


def test_a_goose_slid_over_a_point_as_the_fox_is_touched_is_no_change_of_the_fox() -> None:
    # 11-18 taken; the fox on 18 is touched as a goose leaves 17 and slides over 10 (a 3 ms
    # contact) on its way, and the fox is put back before the goose comes down on 10: the
    # contact is no fox set down on 10 (11-10 on second thoughts) with the goose then gone 17-18
    rig = Rig("fox-and-geese", ".F....GGG.F.GGG.G..GGGG.G.G.GG.GG F")
    rig.move("11", "18")
    rig.wait(0.8)
    t = rig.t
    rig.runner.lift("18", t + 0.1)
    rig.runner.lift("17", t + 0.12)
    rig.runner.place("10", t + 0.48)
    rig.runner.lift("10", t + 0.483)
    rig.runner.place("18", t + 0.65)
    rig.wait(0.75)
    assert rig.moves == ["11-18"]
    rig.place("10")
    rig.wait(1.0)
    assert rig.moves == ["11-18", "17-10"]
    assert "changed" not in rig.kinds()


def test_geese_moved_while_the_fox_stands_still_are_no_change_of_its_capture() -> None:
    # 11x23 taken; a goose leaves 10, the hand touches 26, and the goose comes down on 17 (the
    # goose taken) as the hand lifts 16: the board is 11x9x23 instead, but the fox never moved
    # and a goose was lifted first: the geese's move, 16 touched (it comes back)
    rig = Rig("fox-and-geese", "...F..GG.GFGGGGGGGGGGG.GGGGGGGGGG F")
    rig.lift("11")
    rig.lift("17")
    rig.place("23")
    rig.wait(4.5)  # (a chain may go on from 23: taken after the hold time)
    assert rig.moves == ["11x23"]
    rig.lift("10")
    rig.lift("26")
    rig.wait(1.0)
    rig.place("26")
    rig.wait(0.5)
    t = rig.t
    rig.runner.place("17", t + 0.1)
    rig.runner.lift("16", t + 0.1)
    rig.wait(0.5)
    assert rig.moves == ["11x23"]
    rig.place("16")
    rig.wait(1.0)
    assert rig.moves == ["11x23", "10-17"]
    assert "changed" not in rig.kinds()


def test_a_man_touched_as_the_last_move_lands_is_no_capture_of_the_next_side() -> None:
    # e2xd3; red's man leaves e7 and the hand touches red's own f7 on the way, comes down on
    # f8, and blue's g8 is knocked off its reed before f7 is put back: g8xf7 (f7 taken off
    # while red's hand was still there, the capturer down on it) reads the same, and is not
    # taken: the knocked man comes back
    rig = Rig("skip", "......b./b...rR../b..r...b/......../..b...../...r...r/r...B..r/....B... b")
    rig.lift("d3")
    rig.lift("e2")
    rig.place("d3")
    rig.wait(2.0)
    t = rig.t
    rig.runner.lift("e7", t + 0.1)
    rig.runner.lift("f7", t + 0.3)
    rig.runner.place("f8", t + 0.6)
    rig.runner.lift("g8", t + 0.65)
    rig.runner.place("f7", t + 1.0)
    rig.wait(1.5)
    assert rig.moves == ["e2xd3", "e7-f8"]
    rig.wait(1.5)
    rig.place("g8")
    rig.wait(5.0)
    assert rig.moves == ["e2xd3", "e7-f8"]
    assert "takeback" not in rig.kinds()


def test_a_capturer_knocked_off_as_the_next_side_moves_is_no_chain_gone_on() -> None:
    # f2xe3 read made (a capture onto the man: it waits); red's b4 lifted, blue's capturer on
    # e3 knocked off its reed, and red's man comes down on c5: f2xe3xf4 (f4's man slid out
    # from under it, no switch changed) reads the same; the knocked man, up for less than a
    # touch lasts, is waited on, and comes back
    rig = Rig("skip", "b......b/.......b/..r.r..b/....b.../.r...r../....r.../r....Br./........ b")
    rig.lift("e3")
    rig.lift("f2")
    rig.place("e3")
    rig.wait(2.0)
    t = rig.t
    rig.runner.lift("b4", t + 0.1)
    rig.runner.lift("e3", t + 0.2)
    rig.runner.place("b4", t + 0.25)
    rig.runner.lift("b4", t + 1.0)
    rig.runner.place("c5", t + 1.3)
    rig.wait(1.5)
    assert rig.moves == []
    rig.place("e3")
    rig.wait(1.0)
    assert rig.moves == ["f2xe3", "b4-c5"]


def test_confirm_takes_the_moves_made_after_a_piece_was_knocked_and_then_lifted() -> None:
    # the fox 11-6, its hand knocking the other fox off 9 as it comes down; the goose 17-10,
    # and the fox from 9, still off its reed, lifted to jump it, 9x11: 9's switch never read
    # the fox back, so it reads lifted two moves early. The players press `confirm`: the one
    # line that fits every switch, each piece read come down after it went up, is taken
    # (Fox and Geese, reaching early and knocks 34)
    rig = Rig("fox-and-geese")
    rig.switches(
        (2.464, "11", False),
        (3.532, "9", False),  # (knocked)
        (3.769, "6", True),
        (5.323, "17", False),
        (6.240, "10", True),
        (7.153, "10", False),  # (the goose taken)
        (7.537, "11", True),
    )
    rig.wait(1.0)
    assert rig.moves == []
    rig.press("confirm")
    assert rig.moves == ["11-6", "17-10", "9x11"]


def test_confirm_takes_no_line_that_sets_a_piece_down_where_no_switch_read_it() -> None:
    # the goose 7-15, the fox lifted from 9 as it comes down, and `confirm` for the goose:
    # 21-15, 9x21 (onto 21, left by its goose), 7-15 fits every switch too, but no switch read
    # the fox come down on 21: only the goose's move is the players' (Fox and Geese, reaching
    # early and knocks 19)
    rig = Rig("fox-and-geese", "......G.F...G....G.GGF.G.GGG.GGGG G")
    rig.switches((0.100, "7", False), (0.116, "9", False), (0.177, "15", True))
    rig.wait(1.0)
    rig.press("confirm")
    assert "9x21" not in rig.moves
    rig.place("4")
    rig.wait(3.0)
    assert rig.moves == ["7-15", "9-4"]


def test_a_man_taken_the_move_before_and_set_down_by_mistake_is_no_stray() -> None:
    # the goose 33-29, the fox lifted early for 25x31, which takes it: the goose is set
    # down by mistake on 30 after the geese have begun again (4 lifted, early), so he came
    # off two moves back; 4-5, 14-15 (the fox), 5-11, each reached early: the set-down on 30
    # is the taken man's (Fox and Geese, reaching early and taken men set down by mistake 22)
    rig = Rig("fox-and-geese", "...G..G.....GF......GG..FGG....GG G")
    rig.switches(
        (0.129, "33", False),
        (0.166, "25", False),
        (0.297, "29", True),
        (1.385, "4", False),
        (1.579, "29", False),  # (taken)
        (1.968, "30", True),  # (set down by mistake)
        (2.115, "31", True),
        (2.115, "32", False),  # (touched)
        (2.680, "30", False),
        (3.310, "32", True),
        (4.555, "14", False),
        (4.672, "5", True),
        (5.708, "5", False),
        (5.787, "15", True),
        (6.538, "11", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["33-29", "25x31", "4-5", "14-15", "5-11"]


def test_four_moves_each_begun_before_the_last_came_down_are_read() -> None:
    # Skip: f7-g6 with h1 lifted before it lands, h1-g2 with c6 lifted before it lands,
    # c6-d5 with f4 lifted before it lands, f4xe5 onto the man on e5 (swapped: its switch
    # never changed) with d5 lifted before it lands, then d5xc4: each move is read only
    # through the next, four deep (Skip, reaching early 121)
    rig = Rig("skip", "......b./.....b../b.b....b/b...b.../rrrb.r../......../rr....../.......r b")
    rig.switches(
        (0.547, "e5", False),  # (touched)
        (1.427, "e5", True),
        (1.664, "f7", False),
        (1.873, "g8", False),  # (touched)
        (3.118, "g8", True),
        (3.270, "h1", False),
        (3.536, "g6", True),
        (4.870, "f4", False),  # (touched)
        (6.094, "f4", True),
        (6.505, "c6", False),
        (6.761, "g2", True),
        (7.861, "f4", False),
        (7.998, "d5", True),
        (8.616, "d5", False),
        (10.183, "c4", False),
        (10.391, "c4", True),
        (12.196, "b2", False),
        (12.225, "g6", False),
        (12.314, "a3", True),
        (13.581, "e5", False),
        (13.688, "f5", True),
        (16.016, "d6", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["f7-g6", "h1-g2", "c6-d5", "f4xe5", "d5xc4", "b2-a3", "g6-f5", "e5-d6"]


def test_a_piece_set_down_as_soon_as_a_man_left_is_no_man_put_aside_by_mistake() -> None:
    # four moves each reached early: the fox 9-4 with the goose on 17 lifted 12 ms after the
    # fox, the fox on 11 lifted before that goose is down on 9, the goose up from 9 before
    # the fox is down on 6. The fox on 4, set down 51 ms after the goose left 17, is no goose
    # taken by 11x23 and put aside by mistake: no hand carries a man so fast (Fox and Geese,
    # reaching early 152)
    rig = Rig("fox-and-geese", "......GGFGFGGGG.GGGGGG.GGGGGGGGGG F")
    rig.switches(
        (1.400, "9", False),
        (1.412, "17", False),
        (1.463, "4", True),
        (2.297, "11", False),
        (2.377, "9", True),
        (3.806, "9", False),
        (3.901, "6", True),
        (4.782, "5", True),
        (6.071, "6", False),
        (6.888, "11", True),
        (6.888, "13", False),  # (touched)
        (8.353, "13", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["9-4", "17-9", "11-6", "9-5", "6-11"]


def test_a_fox_knocked_as_the_goose_is_lifted_and_then_moved_is_read() -> None:
    # the goose's hand touches 30 and knocks the fox off 16 just as it lifts the goose from
    # 14 (14-15); the fox's player lifts the fox while it reads so and sets it on 17: 16
    # never read the fox back, so it reads lifted before the goose's move began (Fox and
    # Geese, knocks 110)
    rig = Rig("fox-and-geese", "F.....GG..G.GG.F...GGGGGGGGGGGGGG G")
    rig.switches(
        (1.265, "30", False),  # (touched)
        (2.026, "30", True),
        (2.035, "16", False),  # (knocked, then lifted)
        (2.104, "14", False),
        (2.227, "15", True),
        (4.376, "17", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["14-15", "16-17"]


def test_a_man_taken_before_the_capturer_is_lifted_is_no_knocked_piece() -> None:
    # the fox's 5x17x15 with the goose on 16 taken off before the fox is lifted, the one on
    # 10 set down by mistake on 1 as the fox comes down on 17: the fox 5-1 with the goose
    # 16-17 (16 read lifted early, knocked) reads the same for a moment, but the capture
    # takes the man read lifted and lands where that goose would: no such reading is taken
    # (Fox and Geese, taken men set down by mistake 132)
    rig = Rig("fox-and-geese", "...GFFGG.G...G.G..GGGG.G.GGGGGGGG F")
    rig.switches(
        (0.927, "8", False),  # (touched)
        (1.142, "8", True),
        (1.355, "16", False),  # (taken first)
        (1.619, "5", False),
        (1.899, "8", False),  # (touched)
        (2.456, "8", True),
        (2.805, "10", False),  # (taken)
        (3.295, "1", True),  # (set down by mistake)
        (4.572, "17", True),
        (4.983, "1", False),
        (5.135, "17", False),
        (5.496, "15", True),
        (8.189, "20", False),
        (8.249, "13", True),
    )
    rig.wait(5.0)
    assert rig.moves == ["5x17x15", "20-13"]


@pytest.mark.parametrize("back", [0.65, 1.2])
def test_confirm_takes_no_line_read_through_a_touch_with_a_piece_in_the_hand(back: float) -> None:
    # the goose 7-15 with the fox lifted from 9 early and still in the hand; the goose on 21
    # touched (or knocked) meanwhile: 21-15, 9x21, 7-15 fits every switch, the fox read come
    # down where 21's goose was put back; `confirm` takes none of it (a review's case)
    rig = Rig("fox-and-geese", "......G.F...G....G.GGF.G.GGG.GGGG G")
    changes = [(0.100, "7", False), (0.500, "9", False), (0.550, "21", False)]
    rig.switches(*sorted([*changes, (back, "21", True), (0.700, "15", True)]))
    rig.wait(1.5)
    rig.press("confirm")
    assert "9x21" not in rig.moves
    rig.place("4")
    rig.wait(5.0)
    assert rig.moves == ["7-15", "9-4"]


def test_a_capture_made_then_a_man_touched_as_the_next_side_lands_is_not_another_capture() -> None:
    # f5xg4 read made (g4 emptied and filled with the capturer in the hand); red's f2 comes
    # down on g3 as the hand lifts red's e4: f5xe4 (e4's man slid out from under the capturer)
    # with red's f2-g3 and e4 lifted again reads the same: the lifted man is waited on, and
    # the board asks (the capture onto e4 now reads made as well), never takes f5xe4
    rig = Rig("skip", "....b.../..R.b.b./....b.../....rb../r...r.rb/r......./r.b..r../....B... b")
    t = rig.t
    rig.runner.lift("f5", t + 0.1)
    rig.runner.lift("g4", t + 0.2)
    rig.runner.place("g4", t + 0.5)
    rig.wait(1.5)
    t = rig.t
    rig.runner.lift("f2", t + 0.1)
    rig.runner.place("g3", t + 1.2)
    rig.runner.lift("e4", t + 1.2)
    rig.wait(1.5)
    assert rig.moves == []
    rig.place("e4")
    rig.wait(1.0)
    assert "f5xe4" not in rig.moves


def _play(rig: Rig, edges: list[tuple[float, str, bool]]) -> None:
    """Feed switch edges at their times (the hand model's traces, cut down)."""
    rig.switches(*edges)


def test_a_goose_set_down_by_mistake_before_the_fox_rose_does_not_reroute_its_loop() -> None:
    # (the hand model's fox-and-geese seed 28) the fox on 5 goes round 5x15x17x5; the goose
    # on 16 is taken off first and set down on 11 by mistake, and taken away before the fox
    # rises: no fox was off its point while 11 was filled, so 11 is no stop of any move. The
    # fox lands on 15 with 10 and 16 off (also 5x17x15, read pending), and goes on by 17
    # back to 5: its stops say 5x15x17x5, and the set-down on 11 is no reason to follow
    # 5x17x15 gone on instead
    rig = Rig("fox-and-geese", "F...FGGGGG.GGG.G..G.GGGGGGGGGGGG. F")
    _play(
        rig,
        [
            (1.099, "16", False),  # taken off first
            (1.547, "11", True),  # set down by mistake
            (2.046, "10", False),
            (2.051, "11", False),  # taken away
            (2.333, "5", False),  # the fox rises
            (2.673, "15", True),
            (2.973, "9", False),
            (3.152, "15", False),
            (3.363, "17", True),
            (3.678, "17", False),
            (3.898, "5", True),
        ],
    )
    rig.wait(9.0 - rig.t)
    assert rig.moves == ["5x15x17x5"]
    assert "5x17x15" not in _said(rig, "move")


def test_a_fox_touched_as_its_taken_goose_is_set_down_by_mistake_is_no_change() -> None:
    # (the hand model's fox-and-geese seed 119) the fox jumps 3x9, bouncing as it lands; the
    # goose on 5 is taken off and set down on 2 by mistake just as a hand lifts the fox to
    # touch it. The board reads the fox's second thoughts 3-2 and a goose 5-9 after it only
    # if the fox left 9 at its bounce: a bounce is no lift
    rig = Rig("fox-and-geese", "..F.G.G....G.G......G.GGGF.GGGGGG F")
    _play(
        rig,
        [
            (1.102, "3", False),
            (1.225, "9", True),
            (1.227, "9", False),  # (a bounce as it lands)
            (1.227, "9", True),
            (1.879, "5", False),  # the goose taken
            (2.160, "2", True),  # set down by mistake ...
            (2.160, "9", False),  # ... as the fox is touched
            (3.617, "9", True),
            (3.824, "2", False),  # the mistake taken away
        ],
    )
    rig.wait(9.0 - rig.t)
    assert rig.moves == ["3x9"]
    assert "changed" not in rig.kinds()


def test_a_goose_just_moved_set_down_by_mistake_and_taken_away_again_is_no_change() -> None:
    # (the hand model's fox-and-geese seed 335) the geese move 11-6; the fox's player takes
    # the goose on 6 off first, sets him down on 5 by mistake (the geese's second thoughts
    # 11-5, read made), lifts the fox, touches 16, and takes the goose away from 5: the board
    # is that capture under way, not 11-5 made with the fox's side beginning
    rig = Rig("fox-and-geese", "..F...GG..G.GG.G...GGG.G.GGGFGGG. G")
    _play(
        rig,
        [
            (1.349, "11", False),
            (1.646, "6", True),
            (5.464, "6", False),  # the goose taken off first
            (5.679, "5", True),  # set down by mistake
            (6.273, "3", False),  # the fox rises
            (6.604, "16", False),  # (16 touched)
            (7.025, "5", False),  # the mistake taken away
            (7.194, "16", True),
            (7.940, "11", True),  # the fox lands
        ],
    )
    rig.wait(13.0 - rig.t)
    assert rig.moves == ["11-6", "3x11"]
    assert "changed" not in rig.kinds()


def test_second_thoughts_after_a_goose_was_knocked_and_fell_back_are_a_change() -> None:
    # the fox goes 9-4; a goose is knocked off its reed for a moment and falls back on 16
    # (the geese have begun nothing); then the fox is moved on to 10: second thoughts
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.wait(1.0)
    rig.lift("16")
    rig.wait(0.4)
    rig.place("16")
    rig.wait(0.5)
    rig.move("4", "10")
    assert rig.moves == ["9-10"]
    assert _said(rig, "changed") == ["9-4 to 9-10"]


def test_a_roll_held_for_a_change_in_the_hand_is_not_refused_and_throws_once() -> None:
    # the fox goes i5-g1; its player lifts it and the rabbit is touched (read: the fox changed
    # onto the rabbit's circle, e3); the rabbit's player presses roll while both are up: the
    # roll is held (no "finish it first"); the rabbit is set back and the fox comes down on
    # g9: the change is taken and the dice thrown, once
    rig = Rig("fox-and-rabbit", "WR@e3 RF@i5 turn=RF dice=4,2", dice=[(1, 6), (2, 3)])
    rig.move("i5", "g1")
    rig.wait(1.0)
    rig.lift("g1")
    rig.wait(0.5)
    rig.lift("e3")
    rig.place("e3")
    rig.wait(0.3)
    rig.lift("e3")
    rig.press("roll")
    assert "move-first" not in rig.kinds()
    rig.wait(1.0)
    rig.place("e3")
    rig.place("g9")
    rig.wait(QUIET + 1.0)
    assert rig.moves == ["RF i5-g9", "dice=1,6"]
    assert "move-first" not in rig.kinds()


def test_a_roll_held_for_a_move_onto_a_dead_switch_throws_when_the_move_is_taken() -> None:
    # (the hand model's Fox and Rabbit broken-switch seed 1) the fox onto a switch named
    # stuck closed: nothing shows it come down, so the rabbit's `roll` waits; the fox's
    # player confirms, the move is taken and the held roll throws, then: not stamped with a
    # time before the buttons (the players, looking for the throw since they pressed, never
    # saw it and the game stuck)
    rig = Rig("fox-and-rabbit", "WR@e5 RF@a1 turn=RF dice=4,3", dice=[(1, 2)])
    rig.place("e4")  # (switch e4 stuck closed: it reads a piece where there is none)
    rig.session.decider._suspect("e4", rig.t)  # (as the watch names a switch)
    rig.wait(1.0)
    rig.lift("a1")  # RF a1-e4, onto the dead switch
    rig.press("roll")
    assert rig.moves == []  # (the fox may still be in the hand)
    rig.wait(0.5)
    rig.press("confirm")
    assert rig.moves == ["RF a1-e4", "dice=1,2"]
    (taken,) = [a["t"] for a in rig.session.alerts if a["kind"] == "move"]
    (thrown,) = [a["t"] for a in rig.session.alerts if a["kind"] == "throw"]
    assert thrown >= taken


def test_a_neighbour_knocked_as_a_piece_leaves_a_switch_thought_broken_is_no_move() -> None:
    # switch 10 is thought broken (stuck open under its goose); that goose moves 10-9 as the
    # goose on 17 is knocked off its reed: 17 up and 9 filled reads as 17-9 too. The board
    # waits longer than a touch, as long as a knock lasts (3.5 s), for 17 to come back:
    # it comes back after 2.6 s, and the move is 10-9
    pos = ["."] * 33
    pos[0] = pos[2] = "F"
    for p in (10, 17, 25, 26, 27):
        pos[p - 1] = "G"
    rig = Rig("fox-and-geese", "".join(pos) + " G")
    rig.lift("10")  # (its switch reads nothing, though the goose is there)
    rig.session.decider._suspect("10", rig.t)  # (as the watch names a switch)
    rig.wait(1.0)
    rig.lift("17")
    rig.place("9")
    rig.wait(2.5)
    assert rig.moves == []
    rig.place("17")
    rig.wait(0.5)
    assert rig.moves == ["10-9"]


def test_second_thoughts_about_a_move_that_ended_the_game_reopen_it(tmp_path: Path) -> None:
    # the rabbit onto its home e9 (a win), then, before the fox's side touches anything, on
    # to b9: the game goes on, the board shows it again (not the end's sweep), and the store
    # has the game unfinished with both moves
    store = GameStore(tmp_path / "g.sqlite3")
    rig = Rig("fox-and-rabbit", "WR@e5 RF@a1 turn=WR dice=4,3", store=store)
    heard: list[MoveCommitted] = []
    rig.session.events.subscribe(
        lambda e: heard.append(e) if isinstance(e, MoveCommitted) else None
    )
    rig.move("e5", "e9")
    rig.wait(5.0)
    assert rig.moves == ["WR e5-e9"] and rig.session.position.is_over()
    assert store.unfinished("fox-and-rabbit") is None
    rig.lift("e9")
    rig.place("b9")
    assert rig.moves == ["WR e5-b9"]
    assert _said(rig, "changed") == ["WR e5-e9 to WR e5-b9"]
    change = heard[-1]
    assert change.reopens and change.replaces is not None
    words = event_words(change, rig.session.position, "Fox and Rabbit")
    assert words == "changed WR e5-e9 to WR e5-b9 (the game goes on)"
    assert not rig.session.position.is_over()
    assert all(light.pattern is not Pattern.SWEEP for light in rig.frame.values())
    record = store.unfinished("fox-and-rabbit")
    assert record is not None and list(record.moves) == ["WR e5-b9"]
    assert store.changes(record.id) == [(0, "WR e5-e9")]
    store.close()


def test_a_man_lifted_long_and_put_back_then_a_stray_word_takes_nothing() -> None:
    # Red's man up 4 s and back on his square: the board reads as it was, and says it saw
    # nothing come down; a stray `confirm` or `roll` must not read it as a move onto a dead
    # switch with the other side entering onto the square he left
    rig = Rig("messenger-boy", "R@A1 B@- turn=R spin=2")
    rig.lift("A1")
    rig.wait(4.0)
    rig.place("A1")
    rig.wait(5.0)
    rig.press("confirm")
    rig.press("roll")
    assert rig.moves == []
    assert "suspect-switch" not in rig.kinds()


def test_confirm_that_takes_nothing_says_so() -> None:
    # a press with no answer reads as a board that did not hear it: nothing changed, the board
    # says it sees no move; switches changed (a man up long and back, or a move a dead switch
    # hid), it says too that a move a switch missed is read as the next moves show it
    rig = Rig("messenger-boy", "R@A2 B@- turn=R spin=2")
    rig.press("confirm")
    assert _said(rig, "no-move") == ["confirm: the switches show no move made"]
    rig.lift("A2")
    rig.wait(4.0)
    rig.place("A2")
    rig.wait(5.0)
    rig.press("confirm")
    assert rig.moves == []
    (said,) = [t for t in _said(rig, "unseen") if t.startswith("confirm:")]
    assert "a switch missed" in said
    assert "ambiguous" not in rig.kinds()


def test_confirm_with_a_man_gone_where_the_next_side_entered_asks_about_his_move() -> None:
    """Messenger Boy, B3 stuck open: blue's man goes B1-B3, red enters on B1 where he stood,
    and the board reads as before. `confirm` asks about B1-B3 (a hand touching the man reads
    the same: one press never takes it), the answer takes it, and `roll` takes red's entry,
    naming B3 (switch times of Messenger Boy broken_switch 177)."""
    rig = Rig("messenger-boy", "R@- B@B1 turn=B spin=2")
    rig.switches((1.29, "B1", False), (3.12, "B1", True))
    rig.wait(2.0)
    rig.press("confirm")
    assert rig.moves == []
    rig.wait(4.0)
    assert _said(rig, "ambiguous") == ["B B1-B3"]
    rig.press("confirm")
    assert rig.moves == ["B B1-B3"]
    rig.press("roll")
    assert rig.moves[:2] == ["B B1-B3", "R start B"]
    assert any(t.startswith("switch B3 ") for t in _said(rig, "suspect-switch"))


def test_a_stray_confirm_with_nothing_moved_offers_no_capture() -> None:
    # a capture onto the rabbit changes only the fox's start: with nothing moved, `confirm`
    # must not ask about it (a second press would take it and call a working switch broken)
    rig = Rig("fox-and-rabbit", "WR@d4 RF@a1 turn=RF dice=3,3")
    rig.press("confirm")
    rig.wait(1.0)
    rig.press("confirm")
    assert rig.moves == []
    assert "ambiguous" not in rig.kinds() and "suspect-switch" not in rig.kinds()


def test_roll_as_the_fox_rises_waits_before_asking_which_rabbit_and_roll_again_asks() -> None:
    # the red fox may land on either rabbit (no switch changes): roll pressed as it rises is
    # no sign it came down, so the board waits (and says so) rather than ask at once; roll
    # pressed again is the next side's word that it is down: the question comes
    rig = Rig("fox-and-rabbit-4", "WR@e1 BR@e3 RF@g2 GF@a9 turn=RF dice=2,1")
    rig.lift("g2")
    rig.wait(0.1)
    rig.press("roll")
    assert "ambiguous" not in rig.kinds()
    assert any(text.startswith("roll waits") for text in _said(rig, "waiting"))
    rig.wait(1.0)
    rig.press("roll")
    assert "ambiguous" in rig.kinds()


def test_roll_as_the_fox_rises_asks_which_rabbit_once_the_board_is_still() -> None:
    rig = Rig("fox-and-rabbit-4", "WR@e1 BR@e3 RF@g2 GF@a9 turn=RF dice=2,1")
    rig.lift("g2")
    rig.wait(0.1)
    rig.press("roll")
    rig.wait(QUIET + 0.5)
    assert "ambiguous" in rig.kinds()


def test_a_loop_chain_taken_once_the_next_side_moved_began_when_its_piece_first_left() -> None:
    """McLoughlin: the fox jumps round a loop, 16x18x30x28x16, the geese it jumps taken off
    as it goes and after; a goose lifted from 31 as the fox comes back down, set down on 29
    once that goose is off; the fox lifted again from 16 before it is down, for 16-15. The
    chain began when the fox first left 16, not at that later lift (its start is its
    landing), so the goose's lift is the next side's, after it (switch times of McLoughlin
    reach_early 158)."""
    rig = Rig("fox-and-geese-mcloughlin", "......GG.......FG..GG.GGG.G.G.GG. F")
    rig.switches(
        (1.11, "16", False),
        (1.94, "25", False),
        (2.83, "17", False),
        (3.33, "31", False),
        (3.48, "16", True),
        (3.77, "29", False),
        (5.09, "23", False),
        (7.95, "16", False),
        (9.72, "29", True),
        (10.65, "15", True),
    )
    rig.wait(3.0)
    assert rig.moves[0] in ("16x18x30x28x16", "16x28x30x18x16")  # (one loop, either way)
    assert rig.moves[1:] == ["31-29", "16-15"]
    assert "mismatch" not in rig.kinds()


def test_a_question_put_on_the_players_word_is_shown_over_a_mismatch() -> None:
    """Fox and Rabbit, h3 stuck closed (reading a piece where none is): the fox goes d1-h3,
    its landing unseen; the board names h3 and guides the fox back to d1 (a mismatch). The
    players press `confirm`: the question it puts (d1-b5 onto the rabbit, or d1-h3) is what
    the board shows, a candidate blinking amber, not the way back that would undo their move
    (switch times of Fox and Rabbit broken_switch 169)."""
    rig = Rig("fox-and-rabbit", "WR@b5 RF@d1 turn=RF dice=2,4")
    rig.switches((0.79, "h3", True), (3.44, "d1", False))  # (h3: no piece there)
    rig.wait(4.0)
    assert any(t.startswith("switch h3 ") for t in _said(rig, "suspect-switch"))
    rig.press("confirm")
    asked = _said(rig, "ambiguous")
    assert asked and "RF d1-h3" in asked[-1].split(" | ")
    blinking = {p for p, light in rig.frame.items() if light == Light(AMBER, Pattern.BLINK)}
    assert blinking & {"b5", "h3"}
    for _ in range(asked[-1].split(" | ").index("RF d1-h3")):
        rig.press("hint")
    rig.press("confirm")
    assert rig.moves == ["RF d1-h3"]
