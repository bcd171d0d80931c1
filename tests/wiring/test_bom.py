"""The parts list (``reedboard wiring bom``): every shipped build's counts come from its layout,
its build file and the games' start positions, and both formats read back."""

from __future__ import annotations

import csv
import io
import re
import tomllib
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.cli.main import main
from reedboard.wiring.bom import COLUMNS, Part, parts, pieces, to_csv, to_markdown
from reedboard.wiring.build import available, load_build

SHIPPED = [
    "pi-cross33",
    "pico-cross33",
    "pico-brier9",
    "pico-skip8",
    "pico-messenger84",
    "pico-parchesi101",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_part(rows: list[Part]) -> dict[str, Part]:
    found = {p.part: p for p in rows}
    assert len(found) == len(rows), "a part is listed twice"
    return found


def amps(spec: str) -> float:
    """The current a spec names (``5 V, 3 A or more``: 3.0)."""
    found = re.search(r"(\d+(?:\.\d+)?) A\b", spec)
    assert found, spec
    return float(found[1])


def test_every_shipped_build_has_a_parts_list() -> None:
    assert set(SHIPPED) <= set(available())


@pytest.mark.parametrize("name", SHIPPED)
def test_switches_diodes_leds_and_buttons_are_counted_from_the_build(name: str) -> None:
    build = load_build(name)
    found = by_part(parts(build))
    points = len(build.layout.points)
    assert found["reed switch"].quantity >= points + 2  # one a point, and spares
    assert found["diode"].quantity == points
    assert found["LED"].quantity == points + build.layout.dice_leds
    wired = tomllib.loads(build.path.read_text())["buttons"]
    assert found["push button"].quantity == len(set(wired) - {"bounce_ms"})
    for button in wired.keys() - {"bounce_ms"}:
        assert button in found["push button"].notes
    controller = "Raspberry Pi Pico" if build.driver == "pico" else "Raspberry Pi"
    assert found[controller].quantity == 1


@pytest.mark.parametrize("name", SHIPPED)
def test_the_supply_and_fuse_carry_the_led_budget(name: str) -> None:
    build = load_build(name)
    found = by_part(parts(build))
    budget = build.leds.max_milliamps / 1000
    supply, fuse = amps(found["5 V supply"].spec), amps(found["fuse"].spec)
    assert supply >= budget * 1.2  # with headroom
    assert budget <= fuse <= supply
    level = found["level shifter"].spec
    assert "74AHCT125" in level and "not 74hc" in level.lower()
    assert found["capacitor"].spec.startswith("1000 uF")
    assert found["resistor"].spec.startswith("330 ohm")


@pytest.mark.parametrize("name", SHIPPED)
def test_there_is_a_magnet_for_every_piece_of_every_game(name: str) -> None:
    build = load_build(name)
    magnets = by_part(parts(build))["magnet"]
    assert build.layout.games
    for game in build.layout.games:
        assert magnets.quantity >= len(engine.start(game).occupied()) + 2, game
        assert game in magnets.notes
    assert "N42" in magnets.spec and "6 x 3 mm" in magnets.spec


def test_races_count_the_men_off_the_board() -> None:
    # Parchesi: four men a colour, four colours; Messenger Boy: a man a player, 2-4 players
    # (docs/rules.md). Both start with every man off the board (or in one nest switch).
    assert pieces("parchesi")[0] == 4 * len(engine.start("parchesi", players=4).players)
    assert pieces("messenger-boy")[0] == len(engine.start("messenger-boy", players=4).players)
    assert by_part(parts(load_build("pico-parchesi101")))["magnet"].quantity >= 16
    assert by_part(parts(load_build("pico-messenger84")))["magnet"].quantity >= 4


@pytest.mark.parametrize("name", SHIPPED)
def test_the_csv_has_a_header_and_a_row_a_part(name: str) -> None:
    rows = parts(load_build(name))
    read = list(csv.reader(io.StringIO(to_csv(rows))))
    assert tuple(read[0]) == COLUMNS
    assert len(read) == len(rows) + 1
    for line, part in zip(read[1:], rows, strict=True):
        assert len(line) == len(COLUMNS)
        assert (line[0], int(line[1])) == (part.part, part.quantity)
        assert all(line[:4]), line  # part, quantity, specification and part number given


@pytest.mark.parametrize("name", SHIPPED)
def test_the_markdown_is_one_table(name: str) -> None:
    rows = parts(load_build(name))
    lines = to_markdown(rows).splitlines()
    assert len(lines) == len(rows) + 2
    assert lines[1] == "| --- " * len(COLUMNS) + "|"
    for line in lines:
        assert line.startswith("| ") and line.endswith(" |")
        assert len(re.findall(r"(?<!\\)\|", line)) == len(COLUMNS) + 1, line


def test_the_command_prints_markdown_or_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    build = load_build("pico-brier9")
    code, out, err = run(capsys, "wiring", "bom", "pico-brier9")
    assert (code, err) == (0, "")
    assert out == to_markdown(parts(build), "pico-brier9: part")
    code, out, err = run(capsys, "wiring", "bom", "pico-brier9", "--format", "csv")
    assert (code, out, err) == (0, to_csv(parts(build)), "")
    target = tmp_path / "bom.csv"
    code, out, err = run(
        capsys, "wiring", "bom", "pi-cross33", "--format=csv", "--out", str(target)
    )
    assert (code, out, err) == (0, f"wrote {target}\n", "")
    assert target.read_text() == to_csv(parts(load_build("pi-cross33")))


def test_the_command_takes_a_build_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = load_build("pico-skip8").path
    code, out, err = run(capsys, "wiring", "bom", str(path))
    assert (code, err) == (0, "")
    assert "| push button | 5 |" in out


def test_an_unknown_build_is_one_line_naming_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "wiring", "bom", "no-such-board")
    assert (code, out) == (2, "")
    assert err.startswith("reedboard: error: ") and err.count("\n") == 1
    assert "'no-such-board'" in err
    for name in available():
        assert name in err


def test_the_parts_list_in_docs_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/building.md's generated block (scripts/docs.py writes it) holds the command's table."""
    building = (Path(__file__).resolve().parents[2] / "docs" / "building.md").read_text()
    start_line = "<!-- generated by: reedboard wiring bom pi-cross33 -->\n"
    start = building.index(start_line) + len(start_line)
    end = building.index("<!-- end generated -->", start)
    code, out, _ = run(capsys, "wiring", "bom", "pi-cross33")
    assert code == 0
    assert building[start:end] == out, "regenerate: scripts/docs.py"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_magnets_go_where_the_boards_pieces_hold_them(name: str) -> None:
    # pegs in the 33-hole board's holes carry theirs in the foot; pieces that stand on the
    # Fox and Rabbit board's circles (or Skip's, Messenger Boy's, Parchesi's squares), in the base
    build = load_build(name)
    note = by_part(parts(build))["magnet"].notes
    pegged = build.layout.name == "cross33"
    assert ("in the foot of each peg" in note) == pegged
    assert ("flush in the base of each piece" in note) == (not pegged)
    if not pegged:
        assert f"stands on the board's {build.layout.surface}" in note
