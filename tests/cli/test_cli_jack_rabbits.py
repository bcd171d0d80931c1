"""`reedboard jack-rabbits`: every argument either answers or gets one line naming what is
wrong, exit 2 (`roll a`, `pay 5H --price -5`, `wins KH,KH,KH` and their classes)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reedboard.cli.main import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["jack-rabbits", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["roll", "a"], "roll 'a': two dice, 1 to 6, like 3,5"),
        (["roll", "3,7"], "roll '3,7': two dice"),
        (["roll", "3,5,"], "roll '3,5,': two dice"),
        (["roll", "3"], "roll '3': two dice"),
        (["roll", "²,3"], "two dice"),
        (["roll", "3,5", "--hand", "5H,5H"], "--hand '5H,5H': 5H is given twice"),
        (["roll", "3,5", "--hand", "5H,1Z"], "--hand '5H,1Z': bad card '1Z'"),
        (["pay", "5H", "--price", "-5"], "--price '-5': THE PRICE is a whole number from 1"),
        (["pay", "5H", "--price", "0"], "--price '0'"),
        (["pay", "5H", "--price", "x"], "--price 'x'"),
        (["pay", "5H", "--price", "1e3"], "--price '1e3'"),
        (["pay", "5H", "--price", "9" * 30], "THE PRICE is a whole number"),
        (["pay", "5H,5H"], "pay '5H,5H': 5H is given twice"),
        (["pay", "5H,,6H"], "an empty card between commas"),
        (["pay", ""], "pay: name the cards paid"),
        (["pay", "1Z"], "bad card '1Z'"),
        (["acquire", "KH", "5H,5H"], "5H is given twice"),
        (["acquire", "KH", "KH,6H"], "KH cannot pay for itself"),
        (["acquire", "5H", "6H"], "acquire 5H: not a royal"),
        (["acquire", "KH", ""], "name the cards paid"),
        (["hand", "2H,3H,2H"], "hand '2H,3H,2H': 2H is given twice"),
        (["wins", "KH,KH,KH"], "wins 'KH,KH,KH': KH is given twice"),
        (["wins", "KH,QS,5H"], "5H is not a royal"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith("reedboard: error: ") and err.count("\n") == 1
    assert message in err


def test_the_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["pay", "5H,KS", "--price", "12"], capsys)[1] == (
        "THE PAYMENT: 15\nTHE PRICE 12: paid\n"
    )
    assert run(["acquire", "KH", "5H,6H,2S"], capsys)[1] == (
        "THE ACQUISITION of KH: 11 of 10 points (2S not of the royal's suit): no\n"
    )
    assert run(["hand", "2H,3H,4H,5H,6H,7H,8H,9H,10H,AS"], capsys)[1] == (
        "10 cards: discard 1 down to 9\n"
    )
    assert run(["wins", "KH,QS,JD", "--condition", "diverse-monarchy"], capsys)[1] == "yes\n"
    assert run(["wins", ""], capsys)[1] == "no\n"


CARDS = [f"{r}{s}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
piece = st.one_of(st.sampled_from(CARDS), st.text(alphabet="0123456789AJQKSHDCZ ,+-", max_size=4))
card_list = st.lists(piece, max_size=5).map(",".join)
argument = st.one_of(card_list, st.text(max_size=12)).filter(lambda s: not s.startswith("-"))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys: read each run
@given(
    command=st.sampled_from(["roll", "pay", "acquire", "hand", "wins"]),
    first=argument,
    second=argument,
    price=st.one_of(st.none(), st.text(max_size=6), st.integers(-20, 20).map(str)),
    flags=st.lists(st.sampled_from(["--ace-spent", "--patriarchy", "--permanent-ace"])),
)
def test_any_arguments_answer_or_give_one_line_and_exit_2(
    command: str,
    first: str,
    second: str,
    price: str | None,
    flags: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [command, first]
    if command == "acquire":
        argv.append(second)
    if command == "roll":
        argv += ["--hand", second]
    if command == "pay" and price is not None:
        argv.append(f"--price={price}")
    code, out, err = run([*argv, *flags], capsys)
    if code == 0:
        assert out and not err
    else:
        assert code == 2 and not out
        assert err.startswith("reedboard: error: ") and err.count("\n") == 1, err
