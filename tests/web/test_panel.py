"""The player panel: the sides in words with their swatches, who plays whom, whose turn with
the dice beside it, the events and moves in words, only the buttons the game uses, a wrong move
explained from the rules; the picker's player count, options and the computer's seats; a new
game rather than a resumed one; `run -o`; the page across a daemon restart. The words are
tested on the engine's positions, the rest in Debian's chromium against a live daemon."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reedboard import engine
from reedboard.daemon import words
from reedboard.engine.names import name, side_name
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.events import Notice
from reedboard.store.games import GameStore
from tests.web.live import LiveDaemon

# -- the words, on the engine's own positions ------------------------------------------------


def test_each_side_has_its_full_name_and_a_colour() -> None:
    for game in engine.game_ids():
        for side in engine.game(game).sides:
            named = side_name(game, side)
            assert named.name != side or side.isdigit(), (game, side)  # a name, not an id
            assert named.colour.startswith("#") and len(named.colour) == 7
    assert name("fox-and-geese", "geese") == "the geese"
    assert name("fox-and-rabbit", "WR") == "White Rabbit"
    assert name("no-such-game", "x") == "x"


def test_turns_and_who_plays_whom_in_words() -> None:
    position = engine.start("fox-and-rabbit")
    assert words.turn_line(position) == "White Rabbit to throw"
    position.push(position.parse_move("dice=3,2"))
    assert words.turn_line(position) == "White Rabbit to move"
    assert words.turn_line(position, {"WR"}) == "White Rabbit (the computer) to move"
    geese = engine.start("fox-and-geese")
    assert (
        words.versus(geese, {"geese"}, 3) == "you against the computer (level 3, plays the geese)"
    )
    assert words.versus(geese, set(), 3) == "the foxes and the geese at the board, no computer"
    assert words.turn_line(engine.start("parchesi")) == "Yellow to spin"


def test_moves_and_throws_in_words() -> None:
    position = engine.start("parchesi")
    position.push(position.parse_move("spin=d6"))  # no man can enter on it: the turn passes
    assert position.is_chance()
    assert words.move_list(position) == ["double 6: no move"]
    assert words.throw_words(position.parse_move("spin=4")) == "4"
    rabbit = engine.start("fox-and-rabbit")
    rabbit.push(rabbit.parse_move("dice=3,2"))
    assert words.move_list(rabbit) == ["3 and 2: to move"]
    move = next(iter(rabbit.legal_moves))
    rabbit.push(move)
    assert words.move_list(rabbit) == [f"3 and 2: {move}"]
    assert words.last_throw(rabbit) == (3, 2)  # what the page shows after a restart
    assert words.last_throw(engine.start("fox-and-rabbit")) is None


def test_a_turn_that_passes_says_whose_throw_it_was_and_to_whom_it_passes() -> None:
    position = engine.start("parchesi", players=3)
    position.push(position.parse_move("spin=4"))  # Yellow has no man to enter with a 4
    assert position.turn == "blue" and position.is_chance()
    passed = words.notice_words(Notice(0.0, "pass", ""), position, "Parchesi")
    assert passed == "Yellow has no move with 4: the turn passes to Blue"
    assert words.dice_owner(position) == "Yellow spun 4"  # the dice shown are not Blue's
    position.push(position.parse_move("spin=5"))
    assert words.dice_owner(position) is None  # Blue's own throw, to move with
    assert words.dice_owner(engine.start("parchesi")) is None  # (no throw yet)


def test_the_end_and_the_computers_move_in_words() -> None:
    won = engine.from_text("fox-and-rabbit", "WR@e9 RF@a1 turn=RF")
    assert words.turn_line(won) == "game over: White Rabbit won (White Rabbit reached e9)"
    geese = engine.start("fox-and-geese")
    geese.push_text("9-4")
    shown = geese.move_stack[-1]
    assert words.shown_line(geese, shown, {"fox"}) == (
        "the computer moved the foxes: 9-4; carry it out on the board"
    )
    assert words.shown_line(geese, shown, {"fox"}, by_hand=True) == (
        "the computer moved the foxes: 9-4; the board is making the move"
    )


def test_a_move_names_its_side_once() -> None:
    rabbit = engine.from_text("fox-and-rabbit", "WR@c3 RF@a1 turn=RF dice=2,2")
    fox = next(m for m in rabbit.legal_moves if str(m) == "RF a1-c3")
    assert words.move_words(rabbit, fox) == "Red Fox a1-c3, taking 1"  # (not "Red Fox RF ...")
    parchesi = engine.start("parchesi")
    parchesi.push(parchesi.parse_move("spin=5"))
    assert words.move_words(parchesi, parchesi.parse_move("Y enter")) == "Yellow enter"
    assert words.move_words(engine.start("skip"), engine.start("skip").parse_move("a1-b2")) == (
        "Red a1-b2"
    )


def test_a_wrong_move_is_explained_from_the_rules() -> None:
    # McLoughlin's fox must jump: a step instead is explained so
    position = engine.game("fox-and-geese-mcloughlin").from_text(
        ".............GGFG.GGGGG.GGGGGGGGG F"
    )
    expected = position.occupied()
    assert [str(m) for m in position.legal_moves] == ["16x18"]
    stepped = (expected - {"16"}) | {"9"}
    why = words.wrong_move(position, expected, frozenset(stepped))
    assert why == "taking is compulsory: the fox must play 16x18"
    # a legal move made is no mistake; a goose moved on the fox's turn is said so
    jumped = (expected - {"16", "17"}) | {"18"}
    assert words.wrong_move(position, expected, frozenset(jumped)) is None
    geese = engine.start("fox-and-geese")
    out_of_turn = (geese.occupied() - {"14"}) | {"10"}
    assert words.wrong_move(geese, geese.occupied(), frozenset(out_of_turn)) == (
        "the goose on 14 moved, but it is the turn of the foxes"
    )
    too_far = (geese.occupied() - {"9"}) | {"3"}
    assert words.wrong_move(geese, geese.occupied(), frozenset(too_far)) == (
        "from 9, the fox may go to 4, 5 or 10, not 3"
    )
    rabbit = engine.start("fox-and-rabbit")
    moved = (rabbit.occupied() - {"a1"}) | {"a2"}
    assert words.wrong_move(rabbit, rabbit.occupied(), frozenset(moved)) == (
        "White Rabbit must throw first: press roll"
    )


def test_every_wrong_move_sentence_says_each_thing_once() -> None:
    """Over many games' positions, each piece moved where no move goes: no sentence names the
    side to move twice, nor a point twice."""
    rng = random.Random(28)
    seen = 0
    for game in ("fox-and-geese", "fox-and-geese-mcloughlin", "skip", "fox-and-rabbit"):
        position = engine.start(game)
        board = set(position.occupied())
        for _ in range(40):
            board |= {p for m in position.legal_moves for r in m.routes() for p in r}
            if position.is_over():
                break
            if not position.is_chance():
                expected = position.occupied()
                for start in sorted(expected)[:6]:
                    for to in sorted(board - expected)[:8]:
                        why = words.wrong_move(position, expected, (expected - {start}) | {to})
                        if why is None:
                            continue
                        seen += 1
                        who = words.side(position)
                        assert why.count(who) <= 1 and why.count(f" {start},") <= 1, why
                        assert why.split().count(start) + why.split().count(f"{start},") <= 1, why
            position.push(rng.choice(list(position.legal_moves)))
    assert seen > 50


def test_every_option_of_every_game_is_said_in_words() -> None:
    """The picker's options have labels, not keys (``holes left empty at the start``, not
    ``empty 16,18``), and a choice's values are words (``no diagonals``)."""
    import dataclasses
    import enum
    import tomllib
    import typing

    from reedboard.daemon.web.panel import game_choices
    from reedboard.engine.names import OPTIONS, option_name

    table = tomllib.loads(OPTIONS.read_text(encoding="utf-8"))

    for game in engine.game_ids():
        cls = engine.game(game)
        hints = typing.get_type_hints(cls.Options)
        for field in dataclasses.fields(cls.Options):
            named = option_name(game, field.name)
            assert field.name in table.get(game, {}), (game, field.name)  # listed, not guessed
            kind = hints[field.name]
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                for member in kind:
                    assert named.value(member.value) != member.value or member.value.isalpha()
                    assert named.value(member.value) in dict(named.values).values(), (game, member)
    mcloughlin = {o["key"]: o for o in game_choices("fox-and-geese-mcloughlin")["options"]}
    assert mcloughlin["empty"]["label"] == "holes left empty at the start"
    assert "16,18" in mcloughlin["empty"]["help"]
    assert mcloughlin["diagonals"]["choice_labels"] == [
        "alternate diagonals",
        "diagonals through every hole",
        "no diagonals",
    ]
    skip = {o["key"]: o for o in game_choices("skip")["options"]}
    assert skip["side_squares"]["choice_labels"] == [
        "move only when no other man can",
        "move like any other man",
    ]


def test_the_typing_example_is_a_move_even_when_it_is_time_to_throw() -> None:
    from reedboard.daemon.web.panel import example

    assert example(engine.start("fox-and-geese")) == "e.g. 9-4"
    rabbit = example(engine.start("fox-and-rabbit"))
    assert rabbit is not None and "dice=" not in rabbit
    assert rabbit.startswith("e.g. WR a1-") and rabbit.endswith(
        "(after a throw: throws come from the roll button)"
    )
    boy = engine.start("messenger-boy")  # the opening spins: no move to show
    assert example(boy) == "throws come from the roll button"


# -- `run -o KEY=VALUE` ------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REEDBOARD_WEB": "off"}
    return subprocess.run(
        [sys.executable, "-m", "reedboard", "run", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_run_takes_game_options_and_they_win_over_an_unfinished_game(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    done = run("--game", "parchesi", "--database", db)  # two players, left unfinished
    assert done.returncode == 0, done.stderr
    done = run("--game", "parchesi", "-o", "players=3", "--database", db, "--computer", "red")
    assert done.returncode == 0, done.stderr
    assert "Parchesi: you against the computer (level 3, plays Red)" in done.stdout
    store = GameStore(tmp_path / "games.sqlite3")
    games = list(store.games())
    store.close()
    assert [(g.status, len(g.position().players)) for g in games] == [
        ("abandoned", 2),
        ("playing", 3),
    ]
    bad = run("--game", "parchesi", "-o", "players=5", "--database", db)
    assert bad.returncode == 2
    assert bad.stderr.strip() == ("reedboard: error: run -o: parchesi: players: 5 is not 2, 3 or 4")


# -- in the browser ----------------------------------------------------------------------------

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from tests.web.browser import (  # noqa: E402
    browser,
    free_port,
    needs_chromium,
    open_page,
    page,
    screenshots,
)

__all__ = ["browser", "page"]  # (the fixtures, shared)

chromium = needs_chromium


def shown(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.locator(selector).all_inner_texts()
    return texts


def visible_buttons(page: Any) -> list[str]:
    used: list[str] = page.evaluate(
        "[...document.querySelectorAll('#buttons button')].filter(b => !b.hidden)"
        ".map(b => b.dataset.button)"
    )
    return used


@chromium
def test_the_panel_names_the_sides_and_the_computers_seats(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese", computer=("geese",), level=4) as live:
        open_page(page, live.url)
        assert page.inner_text("#versus") == ("you against the computer (level 4, plays the geese)")
        assert shown(page, "#sides li") == ["the foxes", "the geese (the computer)"]
        swatches = page.locator("#sides .swatch").evaluate_all(
            "ss => ss.map(s => getComputedStyle(s).backgroundColor)"
        )
        assert swatches == ["rgb(192, 40, 45)", "rgb(245, 245, 240)"]
        assert page.get_attribute('#sides li[data-side="fox"]', "aria-current") == "step"
        assert page.inner_text("#turn") == "the foxes to move"
        # the picker shows the game as it is played: its seats and level
        seats = page.locator("#seats input").evaluate_all("is => is.map(i => [i.value, i.checked])")
        assert seats == [["fox", False], ["geese", True]]
        assert page.input_value("#level") == "4"
        assert page.locator("#players-label").is_hidden()  # no player count in this game
        # only the buttons the game uses: no dice, nothing waits on `confirm`
        assert visible_buttons(page) == ["undo", "hint", "new"]
        # the fox moves (typed); the computer's reply is shown as its, not as the fox's turn
        page.fill("#move-text", "9-10")
        page.press("#move-text", "Enter")
        page.wait_for_function("document.body.dataset.state == 'carrying-out'", timeout=20000)
        # on the simulated board the board's own hand makes it: nothing for the players to
        # carry out or confirm (a real board's players are told to carry it out)
        turn = page.inner_text("#turn")
        assert turn.startswith("the computer moved the geese: ")
        assert turn.endswith("; the board is making the move")
        assert page.inner_text("#guidance") == "wait: the board is making the move shown in blue"
        assert page.inner_text("#said").startswith("the board is making the move shown: ")
        assert "confirm" not in visible_buttons(page)
        page.wait_for_function("document.body.dataset.state == 'playing'", timeout=10000)
        moves = shown(page, "#moves li")
        assert moves[0] == "9-10" and len(moves) == 2
        assert live.daemon.session.moves[0] == live.daemon.session.position.parse_move("9-10")
        events = shown(page, "#alerts li")
        assert "the foxes 9-10" in events
        assert events[0].startswith("the computer: the geese ")  # its move, said once
        assert not [e for e in events if "carr" in e]  # (not "to carry out", "carried out")
        assert all("......" not in e for e in events)  # no position text
        screenshots(page, tmp_path, "panel-computer")


@chromium
def test_parchesis_turn_dice_and_notice_agree(page: Any, tmp_path: Path) -> None:
    """Yellow spins a 4 and cannot move: Red is to spin, and the 4 still on the dice is said
    to be Yellow's (it used to stand beside "Red to spin" as if it were Red's)."""
    start = engine.start("parchesi")
    spins = [start.throw_values(start.parse_move(t)) for t in ("spin=4", "spin=5")]
    with LiveDaemon(tmp_path, "parchesi", dice=ScriptedDice(spins)) as live:
        open_page(page, live.url)
        assert page.inner_text("#turn") == "Yellow to spin"
        assert page.locator("#dice-by").is_hidden()
        page.click('button[data-button="roll"]')
        page.wait_for_function("document.body.dataset.plies == '1'")
        assert page.inner_text("#turn") == "Red to spin"
        assert page.inner_text("#guidance") == "press roll"
        assert page.inner_text("#notice") == "Yellow has no move with 4: the turn passes to Red"
        assert page.inner_text("#dice-by") == "Yellow spun 4"
        assert page.get_attribute("#dice", "aria-label") == "dice: 4 (Yellow spun 4)"
        assert page.get_attribute("#dice", "class") == "earlier"
        # Red's own spin: beside Blue's turn, no caption
        page.click('button[data-button="roll"]')
        page.wait_for_function("document.body.dataset.plies == '2'")
        assert page.inner_text("#turn") == "Red to move"
        assert page.locator("#dice-by").is_hidden()
        assert page.get_attribute("#dice", "aria-label") == "dice: 5"
        assert page.inner_text("#notice") == ""
        screenshots(page, tmp_path, "parchesi-turn")


@chromium
def test_the_pickers_options_are_in_words(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese") as live:
        open_page(page, live.url)
        page.select_option("#game", "fox-and-geese-mcloughlin")
        labels = shown(page, "#options label")
        assert any(t.startswith("holes left empty at the start") for t in labels), labels
        assert any(t.startswith("holes where geese may step sideways") for t in labels), labels
        assert not any(t.startswith(("empty", "sideways points")) for t in labels), labels
        diagonals = page.locator('#options select[data-option="diagonals"] option')
        assert diagonals.all_inner_texts() == [
            "alternate diagonals",
            "diagonals through every hole",
            "no diagonals",
        ]
        page.select_option("#game", "skip")
        labels = shown(page, "#options label")
        assert not any(t.startswith(("side limit", "max captures")) for t in labels), labels
        help_id = page.get_attribute('#options [data-option="side_limit"]', "aria-describedby")
        assert "yellow side squares" in page.inner_text(f"#{help_id}")
        # the value sent is still the engine's: a Solitaire with no diagonals
        page.select_option("#game", "solitaire")
        page.select_option('#options select[data-option="diagonals"]', label="alternate diagonals")
        page.click("#picker button[type=submit]")
        page.wait_for_selector("body[data-game='solitaire']")
        page.wait_for_function("document.querySelectorAll('#sides li').length == 1")
        assert live.daemon.session.position.option_values() == {"diagonals": "alternate"}
        screenshots(page, tmp_path, "picker-options")


@chromium
def test_messenger_boy_says_a_turn_that_passes_and_draws_the_boys_waiting(
    page: Any, tmp_path: Path
) -> None:
    """Blue's first spin finds Red on the square it reaches: the turn passes to Green, who is
    to put a boy on the board (no spin comes next, and the referee says no pass then). The boys
    waiting to start are drawn beside the board with a count; the buttons pressed are no
    events."""
    spins = [(6,), (1,), (1,), (1,), (1,)]
    with LiveDaemon(
        tmp_path, "messenger-boy", dice=ScriptedDice(spins), options={"players": 3}
    ) as live:
        open_page(page, live.url)
        assert page.get_attribute("g.waiting", "data-waiting") == "3"
        assert page.locator("g.waiting .piece-waiting").count() == 3
        for n in (1, 2, 3):  # the opening spins: Red 6, Blue 1, Green 1; Red begins
            page.click('button[data-button="roll"]')
            page.wait_for_function(f"document.body.dataset.plies == '{n}'")
        assert page.inner_text("#move-example") == "e.g. R start A"
        for n, move in ((4, "R start A"), (6, "R A1-A2"), (7, "B start A")):
            if n == 6:
                page.click('button[data-button="roll"]')
                page.wait_for_function("document.body.dataset.plies == '5'")
            page.fill("#move-text", move)
            page.press("#move-text", "Enter")
            page.wait_for_function(f"document.body.dataset.plies == '{n}'", timeout=10000)
        assert page.get_attribute("g.waiting", "data-waiting") == "1"
        sides = page.locator("g.waiting .piece-waiting").evaluate_all(
            "gs => gs.map(g => g.dataset.waitingSide)"
        )
        assert sides == ["green"]
        page.click('button[data-button="roll"]')  # Blue's 1: A2 is Red's
        page.wait_for_function("document.body.dataset.plies == '8'")
        assert page.inner_text("#turn") == "Green to move"
        assert page.inner_text("#notice") == "Blue has no move with 1: the turn passes to Green"
        events = shown(page, "#alerts li")
        assert events[0] == "Blue has no move with 1: the turn passes to Green"
        assert not any("pressed" in e for e in events), events
        screenshots(page, tmp_path, "messenger-boy-pass")


@chromium
def test_new_while_the_computers_move_is_shown_clears_it(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "fox-and-geese", computer=("geese",)) as live:
        open_page(page, live.url)
        page.fill("#move-text", "9-10")
        page.press("#move-text", "Enter")
        page.wait_for_function("document.body.dataset.state == 'carrying-out'", timeout=20000)
        page.once("dialog", lambda dialog: dialog.accept())  # (`new` asks first)
        page.click('button[data-button="new"]')
        page.wait_for_function("document.body.dataset.plies == '0'")
        page.wait_for_function("document.body.dataset.state == 'playing'", timeout=3000)
        assert page.inner_text("#turn") == "the foxes to move"
        assert live.daemon.session.decider.showing is None


@chromium
def test_the_picker_starts_a_four_player_game_anew(page: Any, tmp_path: Path) -> None:
    with LiveDaemon(tmp_path, "solitaire") as live:
        open_page(page, live.url)
        page.fill("#move-text", "5-17")
        page.press("#move-text", "Enter")
        page.wait_for_function("document.body.dataset.plies == '1'", timeout=10000)
        # `start` on the game being played begins it anew (the game left is abandoned)
        page.click("#picker button[type=submit]")
        page.wait_for_function("document.body.dataset.plies == '0'")
        assert shown(page, "#alerts li")[0] == "new game of Peg Solitaire"
        # Parchesi for four, the computer at two seats
        page.select_option("#game", "parchesi")
        assert page.locator("#players option").all_inner_texts() == ["2", "3", "4"]
        page.select_option("#players", "4")
        page.check('#seats input[value="blue"]')
        page.check('#seats input[value="green"]')
        assert page.locator("#options").is_hidden()  # (Parchesi has no other option)
        page.click("#picker button[type=submit]")
        page.wait_for_selector("body[data-game='parchesi']")
        page.wait_for_function("document.querySelectorAll('#sides li').length == 4")
        assert shown(page, "#sides li") == [
            "Yellow",
            "Blue (the computer)",
            "Red",
            "Green (the computer)",
        ]
        assert page.inner_text("#versus") == (
            "you against the computer (level 3, plays Blue and Green)"
        )
        assert page.inner_text("#turn") == "Yellow to spin"
        assert visible_buttons(page) == ["roll", "undo", "hint", "new"]
        assert live.daemon.session.position.players == ("yellow", "blue", "red", "green")
        store = GameStore(tmp_path / "games.sqlite3")
        statuses = [(g.game, g.status) for g in store.games()]
        store.close()
        assert statuses == [  # (another game picked keeps Solitaire's to resume)
            ("solitaire", "abandoned"),
            ("solitaire", "playing"),
            ("parchesi", "playing"),
        ]
        # a game's options, but never a file: Solitaire's start hole
        page.select_option("#game", "solitaire")
        page.fill('#options input[data-option="start"]', "5")
        page.click("#picker button[type=submit]")
        page.wait_for_selector("body[data-game='solitaire']")
        page.wait_for_function("!document.querySelector('.piece-at[data-piece=\"5\"]')")
        assert live.daemon.session.position.option_values() == {"start": 5}


@chromium
def test_the_page_across_a_daemon_restart(page: Any, tmp_path: Path) -> None:
    port = free_port()
    with LiveDaemon(tmp_path, "fox-and-rabbit", dice=ScriptedDice([(3, 2)]), web_port=port) as d:
        open_page(page, d.url)
        page.click('button[data-button="roll"]')
        page.wait_for_function("document.body.dataset.plies == '1'")
        assert page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.value)") == [
            "3",
            "2",
        ]
        assert page.get_attribute("#dice", "aria-label") == "dice: 3 and 2"
        # roll again before moving: said where it is seen, not only in the event list
        page.click('button[data-button="roll"]')
        page.wait_for_function("document.querySelector('#notice').textContent != ''")
        assert page.inner_text("#notice") == "the dice are thrown: make the move first"
        assert page.inner_text("#turn") == "White Rabbit to move"
    # the daemon is gone: a banner, the board greyed, every control disabled
    page.wait_for_selector("body[data-live=no]")
    assert page.locator("#banner").is_visible()
    assert "cannot be reached" in page.inner_text("#banner")
    greyed = page.evaluate("getComputedStyle(document.getElementById('board')).filter")
    assert "grayscale" in greyed
    enabled = page.evaluate(
        "[...document.querySelectorAll('main button, main select, main input')]"
        ".filter(c => !c.disabled).length"
    )
    assert enabled == 0
    screenshots(page, tmp_path, "disconnected")
    with LiveDaemon(tmp_path, "fox-and-rabbit", web_port=port):
        page.wait_for_selector("body[data-live=yes]", timeout=10000)
        assert page.locator("#banner").is_hidden()
        # the dice come back with the game: thrown, not yet moved
        assert page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.value)") == [
            "3",
            "2",
        ]
        assert page.inner_text("#turn") == "White Rabbit to move"
        assert page.is_enabled('button[data-button="undo"]')
        assert shown(page, "#moves li") == ["3 and 2: to move"]


@chromium
def test_solitaire_picked_in_the_browser_gets_its_solver(
    page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solitaire_cache: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(solitaire_cache))
    monkeypatch.setenv("REEDBOARD_SOLITAIRE_SOLVER", "on")
    with LiveDaemon(tmp_path, "fox-and-geese") as live:
        open_page(page, live.url)
        assert not [line for line in live.lines if line.startswith("solver: ")]
        page.select_option("#game", "solitaire")
        page.click("#picker button[type=submit]")
        page.wait_for_selector("body[data-game='solitaire']")
        opened = live.wait_line("solver: ", timeout=30)
        assert opened.endswith("open: hints are proofs")
        assert live.daemon.session.solved.winning is not None


@chromium
def test_the_move_list_keeps_long_lines_in_their_column(page: Any, tmp_path: Path) -> None:
    """A throw and its move (`5 and 6: WR a1-g6`) is a long line: each stays inside its own
    column (two fixed columns ran one line into the next)."""
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    game = store.new_game("fox-and-rabbit", {}, engine.start("fox-and-rabbit").to_text())
    moves = ["dice=5,6", "WR a1-g6", "dice=6,1", "RF i1-c2", "dice=2,6", "WR g6-a4"]
    for ply, move in enumerate(moves):
        store.add_move(game, ply, move)
    store.close()
    with LiveDaemon(tmp_path, "fox-and-rabbit", database=db) as live:
        open_page(page, live.url)
        page.wait_for_function("document.querySelectorAll('#moves li').length == 3")
        boxes = page.locator("#moves li").evaluate_all(
            "ls => ls.map(l => { const r = l.getBoundingClientRect(); const t = document"
            ".createRange(); t.selectNodeContents(l); const w = t.getBoundingClientRect();"
            " return [r.left, w.right, parseFloat(getComputedStyle(l).fontSize)]; })"
        )
        lefts = sorted({round(left) for left, _, _ in boxes})
        for a, b in itertools.pairwise(lefts):
            # a line's text ends before the next column's numbers begin (they stand about
            # two characters left of its lines)
            text_end = max(end for left, end, _ in boxes if round(left) == a)
            assert b - text_end >= 2 * boxes[0][2], (a, text_end, b)
