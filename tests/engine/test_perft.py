"""Perft regression: the move generator must count exactly the leaves in the .perft files.

Each file line is ``POSITION ; [opt KEY=VALUE KEY=VALUE] ; D1 n ; D2 n ...``. The shallow depths are
also recounted by the independent reference model, so the files are not just the engine's word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reedboard import engine
from tests.engine.reference import Ref

HERE = Path(__file__).parent / "perft"
REFERENCE_DEPTH = 3


def entries() -> list[tuple[str, str, dict[str, str], dict[int, int]]]:
    out = []
    for path in sorted(HERE.glob("*.perft")):
        for line in path.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            text, *fields = (f.strip() for f in line.split(";"))
            options: dict[str, str] = {}
            counts: dict[int, int] = {}
            for field in fields:
                if field.startswith("opt "):
                    for pair in field[4:].split():
                        key, _, value = pair.partition("=")
                        options[key] = value
                else:
                    depth, count = field.split()
                    counts[int(depth[1:])] = int(count)
            out.append((path.stem, text, options, counts))
    return out


ENTRIES = entries()


def test_perft_files_cover_what_the_issue_asks() -> None:
    for game, deepest in [("fox-and-geese", 4), ("fox-and-geese-mcloughlin", 4), ("solitaire", 6)]:
        mine = [e for e in ENTRIES if e[0] == game]
        start = engine.start(game).to_text()
        assert any(text == start and not opts for _, text, opts, _ in mine)
        mid = [e for e in mine if e[1] != engine.start(game, **e[2]).to_text()]
        assert len(mid) >= 3
        assert all(max(counts) >= deepest for *_, counts in mine)


@pytest.mark.parametrize(("game", "text", "options", "counts"), ENTRIES)
def test_perft(game: str, text: str, options: dict[str, str], counts: dict[int, int]) -> None:
    position = engine.from_text(game, text, **options)
    for depth, expected in counts.items():
        assert engine.perft(position, depth) == expected, f"depth {depth}"
    assert position.to_text() == text  # perft leaves the position as it found it


def _ref_perft(ref: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_ref_perft(ref.play(m), depth - 1) for m in ref.moves())


@pytest.mark.parametrize(("game", "text", "options", "counts"), ENTRIES)
def test_perft_shallow_depths_agree_with_reference_model(
    game: str, text: str, options: dict[str, str], counts: dict[int, int]
) -> None:
    o = engine.from_text(game, text, **options).options
    kw: dict[str, object] = {"diagonals": o.diagonals.value}
    if game == "fox-and-geese-mcloughlin":
        kw["sideways"] = o.sideways_points
    ref = Ref.from_text(game, text, **kw)
    for depth in range(1, REFERENCE_DEPTH + 1):
        assert _ref_perft(ref, depth) == counts[depth], f"depth {depth}"


def test_divide_sums_to_perft() -> None:
    position = engine.start("fox-and-geese")
    split = engine.divide(position, 3)
    assert sum(split.values()) == engine.perft(position, 3) == 176
    assert set(split) == {str(m) for m in position.legal_moves}
