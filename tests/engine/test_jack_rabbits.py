"""Jack Rabbits (docs/rules.md §6, seed 002): the table assistant's rules and its game."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.cli.main import main
from reedboard.engine.jack_rabbits import cards as jr


def test_the_roll_a_die_matching_a_held_card_wins_a_prize_draw() -> None:
    assert jr.matches((3, 5), ["5H", "10S", "3C"], ace_spent=False) == ["5H", "3C"]
    assert jr.matches((2, 4), ["5H", "KS"], ace_spent=False) == []


def test_the_first_ace_wont_match_a_die_it_is_worth_eleven() -> None:
    assert jr.matches((1, 1), ["AD"], ace_spent=False) == []
    assert jr.matches((1, 4), ["AD"], ace_spent=True) == ["AD"]  # later aces are ones


def test_royals_never_match_a_die() -> None:
    assert jr.matches((1, 6), ["JH", "QS", "KD"], ace_spent=True) == []


def test_the_price_is_the_total_on_the_dice() -> None:
    assert jr.price((3, 5)) == 8 and jr.price((6, 6)) == 12


def test_the_payment_royals_ten_first_ace_eleven_later_aces_one() -> None:
    assert jr.payment(["KS", "4H"], ace_spent=False) == 14
    assert jr.payment(["AD", "5H"], ace_spent=False) == 16
    assert jr.payment(["AD", "5H"], ace_spent=True) == 6
    assert jr.payment(["AD", "AS"], ace_spent=False) == 12  # only one ace is the first


def test_overpaying_is_fine_and_suits_combine() -> None:
    assert jr.payment(["10H", "9S"], ace_spent=False) >= jr.price((6, 6))


def test_the_acquisition_needs_ten_points_of_the_royals_suit() -> None:
    assert jr.can_acquire("KH", ["5H", "6H"], ace_spent=False)
    assert not jr.can_acquire("KH", ["5H", "4H"], ace_spent=False)
    assert not jr.can_acquire("KH", ["5H", "6S"], ace_spent=False)


def test_optional_patriarchy_ace_14_king_13_queen_12_jack_11() -> None:
    assert [jr.value(c, first_ace=True, patriarchy=True) for c in ("AH", "KH", "QH", "JH")] == [
        14,
        13,
        12,
        11,
    ]


def test_optional_permanent_ace_adds_a_pip_once_the_first_ace_is_spent() -> None:
    assert jr.payment(["5H"], ace_spent=True, permanent_ace=True) == 6
    assert jr.payment(["5H"], ace_spent=False, permanent_ace=True) == 5


@pytest.mark.parametrize(
    ("royals", "condition", "won"),
    [
        (["KH", "QS", "JS"], "simple", True),
        (["KH", "QS"], "simple", False),
        (["KH", "QS", "JD"], "diverse", True),
        (["KH", "QS", "JS"], "diverse", False),
        (["KH", "QH", "JH"], "monarchy", True),
        (["KH", "KS", "JH"], "monarchy", False),
        (["KH", "QS", "JD"], "diverse-monarchy", True),
        (["KH", "QS", "JS"], "diverse-monarchy", False),
        (["KH", "QH", "JH"], "tribal", True),
        (["KH", "QH", "JS"], "tribal", False),
        (["KH", "QH", "JS", "KS"], "tribal", False),
        (["KH", "QS", "JS", "KS"], "tribal", True),
    ],
)
def test_winning_conditions(royals: list[str], condition: str, won: bool) -> None:
    assert jr.wins(royals, condition) is won


def test_holding_ten_cards_means_discarding_down_to_nine() -> None:
    p = engine.from_text(
        "jack-rabbits", "1:2H,3H,4H,5H,6H,7H,8H,9H,10H 2:2S turn=1 phase=increment dice=3,4"
    )
    p.push_text("draw=AS")
    assert p.turn == "1" and {str(m) for m in p.legal_moves} >= {"discard AS", "discard 2H"}
    p.push_text("discard 2H")
    assert len(p.hands[0]) == 9 and p.turn == "2"


def test_a_spent_royal_goes_back_to_the_court() -> None:
    p = engine.from_text("jack-rabbits", "1:KS,2H 2:3S turn=1 phase=act dice=5,6")
    p.push_text("pay 2H+KS")
    assert "KS" in p.court and "2H" in p.discard and p.paid


def test_a_turn_roll_prize_pay_acquire_end_increment() -> None:
    p = engine.from_text("jack-rabbits", "1:5H,6H,2S 2:3S turn=1 phase=roll")
    p.push_text("dice=5,1")  # a 5: the 5H matches, a prize draw
    assert p.phase == "prize" and p.is_chance()
    p.push_text("draw=9C")
    assert {"acquire KH 5H+6H", "acquire QH 5H+6H", "end"} <= {str(m) for m in p.legal_moves}
    p.push_text("acquire KH 5H+6H")
    assert p.hands[0] == ["2S", "9C", "KH"] and "KH" not in p.court
    p.push_text("end")
    p.push_text("draw=4D")
    assert p.turn == "2" and p.phase == "roll"


def test_three_royals_meeting_the_condition_may_return_and_win() -> None:
    p = engine.from_text(
        "jack-rabbits",
        "1:KH,QS,JD 2:3S turn=1 phase=act dice=2,2",
        condition="diverse-monarchy",
    )
    assert "return" in {str(m) for m in p.legal_moves}
    p.push_text("return")
    over = p.outcome()
    assert over is not None and over.winner == "1"


def test_the_assistant_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["jack-rabbits", "roll", "3,5", "--hand", "5H,AD"]) == 0
    assert capsys.readouterr().out == "THE PRICE: 8\nTHE ROLL: match 5H: draw a prize card\n"
    main(["jack-rabbits", "pay", "AD,5H", "--ace-spent", "--price", "8"])
    assert capsys.readouterr().out == "THE PAYMENT: 6\nTHE PRICE 8: short by 2\n"
    main(["jack-rabbits", "wins", "KH,QH,JH", "--condition", "tribal"])
    assert capsys.readouterr().out == "yes\n"
    assert main(["jack-rabbits", "pay", "1Z"]) == 2
    assert "bad card '1Z'" in capsys.readouterr().err


def _pays(p: engine.Position) -> set[str]:
    return {str(m) for m in p.legal_moves if str(m).startswith("pay ")}


def test_a_payment_may_use_any_number_of_cards() -> None:
    # twelve to pay with six small cards (a later ace is one): all six, no fewer (five was
    # the most a payment could hold)
    text = "1:2S,2H,2D,2C,3S,AH 2:4S turn=1 phase=act dice=6,6 spent=1:AD"
    p = engine.from_text("jack-rabbits", text)
    assert _pays(p) == {"pay 2S+3S+AH+2H+2D+2C"}
    p.push_text("pay 2S+2H+2D+2C+3S+AH")
    assert p.hands[0] == [] and p.paid


def test_overpaying_is_a_legal_payment_with_any_cards() -> None:
    p = engine.from_text("jack-rabbits", "1:9S,5H,2D 2:4S turn=1 phase=act dice=1,2")
    # the price is 3: any set worth 3 or more, a card too many included
    assert _pays(p) == {
        "pay 9S",
        "pay 5H",
        "pay 9S+5H",
        "pay 9S+2D",
        "pay 5H+2D",
        "pay 9S+5H+2D",
    }
    acquire = {str(m) for m in p.legal_moves if str(m).startswith("acquire KS")}
    assert acquire == set()  # ten points of spades: the 9 alone is not enough
    q = engine.from_text("jack-rabbits", "1:9S,5S,2S 2:4S turn=1 phase=act dice=1,2")
    acquire = {str(m) for m in q.legal_moves if str(m).startswith("acquire KS")}
    assert acquire == {"acquire KS 5S+9S", "acquire KS 2S+9S", "acquire KS 2S+5S+9S"}


def test_the_first_ace_paid_is_kept_in_front_of_the_player_not_discarded() -> None:
    p = engine.from_text("jack-rabbits", "1:AD,AS,5H 2:4S turn=1 phase=act dice=6,6")
    p.push_text("pay AS+AD")  # 11 + 1: the first is worth eleven, the other one
    assert p.aces[0] == "AS" and p.discard == ["AD"]
    assert "AS" not in p.pile() and "spent=1:AS" in p.to_text()
    assert engine.from_text("jack-rabbits", p.to_text()) == p
    # it is never drawn again, even when the pile reloads from the discard
    p.push_text("end")
    outcomes = {str(m) for m, _ in p.chance_outcomes()}
    assert "draw=AS" not in outcomes and "draw=AD" not in outcomes


def test_a_later_ace_is_discarded_and_worth_one() -> None:
    p = engine.from_text("jack-rabbits", "1:AD,5H 2:4S turn=1 phase=act dice=3,3 spent=1:AS")
    assert _pays(p) == {"pay 5H+AD"}  # 5 + 1 pays 6; the 5 alone does not
    p.push_text("pay 5H+AD")
    assert p.aces[0] == "AS" and p.discard == ["5H", "AD"]
