"""The controller's behaviour on the board: lights, mistakes, takebacks, the store."""

from __future__ import annotations

from pathlib import Path

from reedboard import engine
from reedboard.hardware.lights import AMBER, GREEN, RED, WHITE, Light, Pattern
from reedboard.referee.decide import QUIET
from reedboard.referee.session import HOLD
from reedboard.store.games import GameStore
from tests.referee.rig import Rig


def test_a_lifted_piece_lights_its_legal_landing_points() -> None:
    rig = Rig("solitaire")
    rig.lift("5")
    assert rig.lit(GREEN) == {"17"}
    rig.place("5")
    assert rig.lit(GREEN) == set() and rig.moves == []


def test_a_move_commits_the_moment_the_board_equals_it() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    assert rig.moves == ["9-4"]


def test_a_physically_illegal_move_is_never_committed_and_is_guided_back() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "3")  # not on a line from 9
    assert rig.moves == []
    assert "mismatch" not in rig.kinds()  # not before the grace time
    rig.wait(2.5)
    assert rig.session.mismatch
    assert rig.frame == {"3": Light(RED, Pattern.BLINK)}  # one fix at a time: remove here
    rig.lift("3")
    assert rig.frame == {"9": Light(WHITE, Pattern.BLINK)}  # then: place here
    rig.place("9")
    assert not rig.session.mismatch and rig.frame == {} and rig.moves == []
    rig.move("9", "4")
    assert rig.moves == ["9-4"]


def test_a_knocked_over_piece_gives_a_mismatch_is_guided_back_and_play_goes_on() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.lift("20")  # a goose knocked off its hole ...
    rig.place("6")  # ... into another one
    rig.wait(2.5)
    assert rig.session.mismatch
    assert rig.frame == {"6": Light(RED, Pattern.BLINK)}
    rig.lift("6")
    assert rig.frame == {"20": Light(WHITE, Pattern.BLINK)}
    rig.place("20")
    assert not rig.session.mismatch
    rig.move("16", "9")
    assert rig.moves == ["9-4", "16-9"]


def test_a_takeback_by_restoring_the_board_to_an_earlier_position() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.move("16", "9")
    rig.move("11", "10")
    rig.move("10", "11")  # the fox goes back: the board is as after 16-9 ...
    assert rig.moves == ["9-4", "16-9", "11-10"]  # ... but a hand may be on the board still
    rig.wait(4.0)  # it stays so for the hold time: a takeback, not a new move (nor a knock)
    assert rig.moves == ["9-4", "16-9"]
    assert "takeback" in rig.kinds()
    rig.move("9", "16")
    rig.wait(4.0)
    assert rig.moves == ["9-4"]


def test_a_still_piece_touched_is_never_a_takeback() -> None:
    # the goose that just moved is lifted and put back: for 1.5 s the board is as before 9-4
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.lift("4")
    rig.wait(1.4)
    rig.place("4")
    rig.wait(3.0)
    assert rig.moves == ["9-4"]
    assert "takeback" not in rig.kinds() and "mismatch" not in rig.kinds()


def test_a_piece_held_long_mid_move_on_an_earlier_board_waits_for_its_landing() -> None:
    # Messenger Boy: red enters on A1 and spins 3; lifting the man leaves the board as it was
    # before he entered, for as long as he is held, and it is a move on its way all that time
    rig = Rig("messenger-boy", "R@- B@- start=R?,B?", dice=[(5,), (2,), (3,)])
    rig.press("roll")
    rig.press("roll")
    rig.place("A1")
    rig.press("roll")
    rig.lift("A1")
    rig.wait(8.0)
    assert "takeback" not in rig.kinds()
    rig.place("A4")
    assert rig.moves[-1] == "R A1-A4"


def test_undo_takes_back_the_last_move_and_the_leds_show_how_to_restore() -> None:
    rig = Rig("fox-and-geese")
    rig.move("9", "4")
    rig.press("undo")
    assert rig.moves == []
    assert rig.frame == {"4": Light(RED, Pattern.BLINK)}  # at once, no grace time
    rig.lift("4")
    assert rig.frame == {"9": Light(WHITE, Pattern.BLINK)}
    assert rig.moves == []  # the lifted fox is not taken for a new move yet
    rig.place("9")
    assert rig.frame == {} and rig.moves == []


def test_jump_chain_steps_commit_at_once_then_only_continuations_light() -> None:
    # two foxes (9, 33); fox 23 can jump 24 to 25, then 18 to 11, then 10 to 9? no: 9 is a fox
    rig = Rig("fox-and-geese", "......................F.GG.....F. F".replace("F.GG", "FGG."))
    text = rig.session.position.to_text()
    assert text.startswith(".........")
    rig2 = Rig("fox-and-geese", _text({23: "F", 33: "F", 24: "G", 18: "G", 10: "G", 1: "G"}))
    rig2.lift("23")
    assert rig2.lit(GREEN) >= {"25", "16", "22"}
    rig2.place("25")
    rig2.lift("24")
    assert rig2.moves == ["23x25"]  # the first step, committed at once
    assert rig2.lit(GREEN) == {"11"}  # only the continuation
    rig2.lift("25")
    rig2.place("11")
    rig2.lift("18")
    assert rig2.moves == ["23x25x11"]  # the chain grew
    assert rig2.lit(GREEN) == {"9"}
    rig2.move("1", "2")  # the geese move instead of the fox going on: the chain is done
    assert rig2.moves == ["23x25x11", "1-2"]


def _text(pieces: dict[int, str], turn: str = "F") -> str:
    return "".join(pieces.get(h, ".") for h in range(1, 34)) + " " + turn


def test_a_chain_carried_straight_with_geese_off_in_any_order() -> None:
    rig = Rig(
        "fox-and-geese-mcloughlin",
        _text({23: "F", 24: "G", 18: "G", 10: "G", **{h: "G" for h in range(27, 34)}}),
    )
    rig.lift("10")
    rig.lift("23")
    rig.place("9")
    assert rig.moves == []
    rig.lift("24")
    rig.lift("18")
    assert rig.moves == ["23x25x11x9"]


def test_chains_that_end_in_one_position_are_one_move_spelt_once() -> None:
    # a loop carried straight, one way round or the other: the same position, the same lights,
    # so no player could answer which: the board takes one spelling and asks nothing
    rig = Rig("fox-and-geese", _text({9: "F", 33: "F", 16: "G", 17: "G", 10: "G", 1: "G"}))
    rig.lift("9", "16", "17", "10")
    rig.place("9")
    assert len(rig.moves) == 1 and rig.moves[0] in ("9x23x11x9", "9x11x23x9")
    assert "ambiguous" not in rig.kinds()


def test_fox_and_rabbit_roll_dice_landings_and_the_brier_patch() -> None:
    rig = Rig("fox-and-rabbit", dice=[(5, 2)])
    brier = {"e5", "d5", "f5", "e4", "e6"}
    assert rig.lit(RED) == brier
    assert all(rig.frame[p].pattern is Pattern.STEADY for p in brier)
    rig.press("roll")
    assert rig.board.dice == (5, 2)
    assert rig.lit(GREEN) == {"f3", "c6"}
    rig.move("a1", "c6")
    assert rig.moves == ["dice=5,2", "WR a1-c6"]
    assert rig.lit(RED) == brier


def test_a_capture_starts_the_escape_throw_with_the_brier_patch_blinking() -> None:
    rig = Rig("fox-and-rabbit", "WR@c4 RF@e5 turn=RF dice=2,1", dice=[(2, 1)])
    rig.lift("c4")  # the rabbit comes off
    rig.move("e5", "c4")  # the fox goes on: its landing was seen empty and full again ...
    # ... which is also the rabbit put back while the fox is still in the hand: wait
    assert rig.moves == []
    rig.press("roll")  # the player says the move is done ... but a hand touching the rabbit
    assert rig.moves == []  # reads the same with the fox in the air: once all is still,
    rig.wait(QUIET)  # it is taken, then the escape throw
    assert rig.moves == ["RF e5-c4", "dice=2,1"]
    assert rig.lit(GREEN) == {"e5"}  # the one escape landing of this throw
    assert all(rig.frame[p] == Light(RED, Pattern.BLINK) for p in ("d5", "f5", "e4", "e6"))
    rig.place("e5")
    assert rig.moves[-1] == "WR c4-e5"
    assert rig.session.position.outcome() is None


def test_a_move_onto_an_occupied_circle_that_changes_no_switch_waits_for_the_roll() -> None:
    # the gray fox moves onto the red fox's circle: only its start switch opens
    rig = Rig("fox-and-rabbit-4", "WR@a1 BR@i9 RF@c2 GF@e3 turn=GF dice=2,1", dice=[(3, 4)])
    rig.lift("e3")
    assert rig.moves == []  # as good as a fox still in the air
    rig.wait(QUIET + 0.5)  # the switches are still: the fox is down
    rig.press("roll")  # the next roll confirms it, then throws
    assert rig.moves == ["GF e3-c2", "dice=3,4"]


def test_roll_pressed_while_the_piece_may_be_in_the_air_waits_for_it_to_come_down() -> None:
    # the next player presses roll a moment after the gray fox is lifted: it may be set on the
    # red fox's circle (no switch changes) or still be in the hand
    rig = Rig("fox-and-rabbit-4", "WR@a1 BR@i9 RF@c2 GF@e3 turn=GF dice=2,1", dice=[(3, 4)])
    rig.lift("e3")
    rig.press("roll")
    assert rig.moves == []  # a button is no evidence that a piece came down
    rig.place("f1")  # it was in the hand: it lands elsewhere, and the roll is carried out
    assert rig.moves == ["GF e3-f1", "dice=3,4"]


def test_roll_pressed_a_moment_after_a_silent_landing_is_carried_out_once_all_is_still() -> None:
    rig = Rig("fox-and-rabbit-4", "WR@a1 BR@i9 RF@c2 GF@e3 turn=GF dice=2,1", dice=[(3, 4)])
    rig.lift("e3")
    rig.press("roll")
    rig.wait(1.0)
    assert rig.moves == []
    rig.wait(QUIET - 0.5)  # still for QUIET after the fox left: it was set down on the red fox
    assert rig.moves == ["GF e3-c2", "dice=3,4"]


def test_a_foxs_first_double_gives_its_second_throw() -> None:
    rig = Rig("fox-and-rabbit", "WR@a1 RF@i1 turn=RF", dice=[(2, 2), (1, 2)])
    rig.press("roll")
    rig.move("i1", "g3")
    assert rig.session.position.to_text() == "WR@a1 RF@g3 turn=RF extra"
    rig.press("roll")
    assert rig.board.dice == (1, 2)
    assert rig.session.position.turn == "RF"


def test_a_game_over_sweeps_and_a_fresh_start_is_a_new_game(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    rig = Rig("solitaire", "oo" + "." * 31 + " -", store=store)
    rig.lift("1", "2")
    rig.runner.place("3", rig.t + 0.1)
    rig.wait(0.1)  # settled: the move ends the game, and the sweep begins
    assert rig.session.position.outcome() is not None
    assert rig.session.next_deadline() is None  # the sweep is the LEDs' to time, not the game's
    columns = []  # the columns lit at each step of the LEDs' animation
    while True:
        chain = rig.board.chain()
        columns.append(sorted({p.x for p in rig.layout.points.values() if chain[p.led] == WHITE}))
        if rig.board.leds.next_tick() is None:
            break
        rig.wait(rig.board.leds.next_tick() - rig.t)  # type: ignore[operator]
    assert columns == [[x] for x in range(7)] + [[]]  # it crosses every column, then is over
    rig.wait(2.0)
    assert not any(any(c) for c in rig.board.chain())  # and the board stays dark
    # the player sets the board up again: every hole but 17
    rig.place(*[p for p in rig.layout.points if p not in ("3", "17")])
    rig.wait(4.0)  # a new game once the board has stayed so for the hold time
    assert rig.kinds().count("new-game") == 2
    first, second = list(store.games())
    assert first.outcome is not None and first.moves == ("1-3",)  # the finished game is kept
    assert second.ended is None and rig.moves == []


def test_every_move_is_in_the_store_before_the_leds_change(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    rig = Rig("fox-and-geese", store=store)
    seen: list[tuple[int, int]] = []
    show = rig.board.show

    def checking_show(frame: dict[str, Light]) -> None:
        record = store.unfinished()
        assert record is not None
        seen.append((len(rig.session.position.move_stack), len(record.moves)))
        show(frame)

    rig.board.show = checking_show  # type: ignore[method-assign]
    rig.move("9", "4")
    rig.move("16", "9")
    assert seen and all(stored == played for played, stored in seen)


def test_after_a_restart_the_game_resumes_and_the_board_is_guided_back(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    rig = Rig("fox-and-geese", store=GameStore(path))
    rig.move("9", "4")
    rig.move("16", "9")
    # restart with the fox at 4 knocked off during the power cut
    occupied = rig.session.position.occupied() - {"4"}
    again = Rig("fox-and-geese", store=GameStore(path), occupied=occupied)
    assert again.moves == ["9-4", "16-9"]
    assert again.session.mismatch
    assert again.frame == {"4": Light(WHITE, Pattern.BLINK)}
    again.place("4")
    assert not again.session.mismatch


def test_hint_lights_the_suggested_move_in_amber() -> None:
    rig = Rig("solitaire")
    rig.press("hint")
    hint = rig.session.alerts[-1]["text"]
    a, b = hint.split("-")
    over = engine.cross33().over[(int(a), int(b))]
    assert rig.lit(AMBER) == {a, str(over), b}  # a jump's from, over and to
    assert engine.start("solitaire").parse_move(hint) in engine.start("solitaire").legal_moves


def test_hint_for_a_messenger_boy_man_who_must_enter_lights_the_start_square() -> None:
    rig = Rig("messenger-boy", "R@- B@- turn=R")
    rig.press("hint")
    assert rig.session.alerts[-1]["text"] == "R start A"
    assert rig.lit(AMBER) == {"A1"}  # where he enters; off the board is no point
    assert set(rig.frame) <= set(rig.layout.points)
    rig.place("A1")
    assert rig.moves == ["R start A"]


def test_entering_on_an_occupied_start_is_confirmed_and_its_candidates_light_start() -> None:
    # both Start squares hold a man: entering changes no switch, so `confirm` asks which
    rig = Rig("messenger-boy", "R@A1 B@B1 G@- Y@A5 turn=G", options={"players": 4})
    rig.press("confirm")
    assert rig.session.alerts[-1]["text"] == "G start A | G start B"
    blinking = Light(AMBER, Pattern.BLINK)
    assert rig.frame == {"A1": blinking, "B1": Light(GREEN)}
    rig.press("hint")  # the next candidate
    assert rig.frame == {"A1": Light(GREEN), "B1": blinking}
    rig.press("confirm")
    assert rig.moves == ["G start B"]


def test_hint_for_a_parchesi_man_who_must_enter_lights_his_nest_and_entry() -> None:
    nest = "Y1@Ynest Y2@Ynest Y3@Ynest Y4@Ynest R1@Rnest R2@Rnest R3@Rnest R4@Rnest"
    rig = Rig("parchesi", nest + " turn=Y spin=5")
    rig.press("hint")
    assert rig.session.alerts[-1]["text"] == "Y enter"
    (enter,) = rig.session.position.legal_moves
    entry = enter.points()[-1]
    assert rig.lit(AMBER) == {"Ynest", entry}
    rig.place(entry)  # a man from the nest (three stay: its switch stays closed)
    assert rig.moves == ["Y enter"]


def test_hint_for_a_parchesi_double_six_lights_every_man_that_moves() -> None:
    text = "Y1@L5 Y2@L20 Y3@Ynest Y4@Ynest R1@Rnest R2@Rnest R3@Rnest R4@Rnest turn=Y spin=d6"
    rig = Rig("parchesi", text)
    rig.session._hint = rig.session.position.parse_move("Y L5-L11 L20-L26")
    rig.session._show(rig.t)
    assert rig.lit(AMBER) == {"L5", "L11", "L20", "L26"}


# eight blue men (a side has 8): six on the far row, two that red may take
SKIP_TWO_CAPTURES = "bb..bbbb/......../......../......../.b.b..../..r...../......../rrrrrrr. r"


def test_a_capture_that_changes_no_switch_is_taken_when_the_other_side_moves() -> None:
    # red's c3 takes d4, the taken man sliding out from under the capturer: only c3 changes,
    # which is also red holding the man; blue's next move shows the capture was made
    rig = Rig("skip", SKIP_TWO_CAPTURES.replace(".b.b....", "...b...."))
    rig.lift("c3")
    rig.wait(1.0)
    assert rig.moves == []  # a man in the hand, or a capture: no switch can say yet
    rig.move("b8", "a7")
    assert rig.moves == ["c3xd4", "b8-a7"]
    assert "mismatch" not in rig.kinds()


def test_two_captures_that_read_alike_are_followed_until_the_board_tells() -> None:
    # c3 can take b4 or d4; neither landing's switch changes. Blue then moves the man on
    # d4 away: so red took b4, unless red is taking d4 and set him down on e3 by mistake
    # (he would be taken off again soon): once the board has stayed so for the hold time
    rig = Rig("skip", SKIP_TWO_CAPTURES.replace("bb..bbbb", "bb..bbb."))
    rig.lift("c3")
    rig.wait(1.0)
    rig.move("d4", "e3")
    assert rig.moves == []
    rig.wait(HOLD)
    assert rig.moves == ["c3xb4", "d4-e3"]
    assert "ambiguous" not in rig.kinds() and "mismatch" not in rig.kinds()


def test_two_captures_still_alike_after_the_next_move_are_put_to_the_players() -> None:
    rig = Rig("skip", SKIP_TWO_CAPTURES)
    rig.lift("c3")
    rig.wait(1.0)
    rig.move("h8", "g7")  # a move that fits either capture
    assert rig.moves == [] and "ambiguous" in rig.kinds()
    assert rig.lit(AMBER)  # the first candidate blinks
    rig.press("hint")  # the next one: c3xd4
    rig.press("confirm")
    assert rig.moves == ["c3xd4", "h8-g7"]


def test_a_capture_seen_made_is_taken_after_the_hold_time() -> None:
    # the taken man comes off and the capturer goes down 10 ms later, then nothing more
    rig = Rig("skip", SKIP_TWO_CAPTURES.replace(".b.b....", "...b...."))
    rig.lift("c3")
    rig.runner.lift("d4", rig.t + 0.3)
    rig.runner.place("d4", rig.t + 0.01)
    rig.wait(2.0)
    assert rig.moves == []  # as good as the man on d4 touched while red holds c3 ...
    rig.wait(2.5)
    assert rig.moves == ["c3xd4"]  # ... but no hand holds a man that long


def test_new_forgets_moves_read_ahead_of_the_old_game() -> None:
    rig = Rig("skip")
    for a, b in [("g1", "h2"), ("d8", "c7"), ("d1", "c2"), ("c8", "d7")]:
        rig.move(a, b)
    for a, b in [("c2", "d3"), ("d7", "c6"), ("d3", "c4"), ("c6", "d5")]:
        rig.move(a, b)
    rig.lift("c4")  # c4xd5 reads made on a landing that did not change: pending
    rig.press("new")  # the players start over; the board is still the old game's
    rig.wait(1.0)
    rig.move("b8", "a7")  # the old game's reply to c4xd5 must not be read on the new game
    assert rig.moves == []
    assert "error" not in rig.kinds()


def test_a_question_is_forgotten_when_the_board_takes_the_game_back() -> None:
    # the red fox may land on either rabbit (no switch changes): `confirm` asks which
    rig = Rig("fox-and-rabbit-4", "WR@e1 BR@e3 RF@g2 GF@a9 turn=RF dice=2,1")
    rig.lift("g2")
    rig.wait(2.5)
    rig.press("confirm")
    assert "ambiguous" in rig.kinds() and rig.lit(AMBER)
    # instead of answering they put the fox back where it was
    rig.place("g2")
    assert rig.moves == []
    assert not rig.lit(AMBER)
    rig.press("confirm")  # nothing is asked any more: nothing is taken
    assert rig.moves == []
    assert "error" not in rig.kinds()


def test_the_pieces_a_loop_takes_coming_off_are_no_loop_until_the_fox_goes_round() -> None:
    def text(pieces: dict[int, str]) -> str:
        return "".join(pieces.get(h, ".") for h in range(1, 34)) + " F"

    rig = Rig("fox-and-geese", text({9: "F", 33: "F", 16: "G", 17: "G", 10: "G", 1: "G", 27: "G"}))
    rig.lift("16", "17", "10")  # the geese of a loop from 9 come off first; the fox waits
    rig.wait(1.0)
    assert rig.moves == [] and "ambiguous" not in rig.kinds()
    rig.lift("9")
    rig.place("9")  # now the fox went round (carried straight): either way, one position
    assert len(rig.moves) == 1 and rig.moves[0].startswith("9x") and rig.moves[0].endswith("x9")
    assert "ambiguous" not in rig.kinds()


def test_a_new_game_whose_options_hold_a_list_reads_on() -> None:
    """McLoughlin's start set out with other holes left empty (14 and 15) is a new game whose
    options the game gives back as a list; boards read after it are still looked up as
    starts (this crashed once: a list is no key)."""
    rig = Rig("fox-and-geese-mcloughlin")
    rig.lift("14", "15")
    rig.place("16", "18")
    rig.wait(4.0)
    assert rig.kinds().count("new-game") == 2
    assert rig.session.options == {"empty": [14, 15]}
    rig.lift("17")  # a reading that is no start: the fox jumps the goose on 16
    rig.wait(0.5)
    rig.lift("16")
    rig.place("15")
    rig.wait(1.0)
    assert rig.moves == ["17x15"]
