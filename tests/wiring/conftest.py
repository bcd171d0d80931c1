"""The wiring tests write only to temporary folders: the source tree is the same after them as
before (files not ignored by git, new or changed, are named)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tree() -> set[str] | None:
    """Untracked files not ignored, and changed files; None outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return set(done.stdout.splitlines()) if done.returncode == 0 else None


@pytest.fixture(scope="package", autouse=True)
def _source_tree_untouched() -> Iterator[None]:
    before = _tree()
    yield
    after = _tree()
    if before is not None and after is not None and after - before:
        pytest.fail(f"the wiring tests wrote into the source tree: {sorted(after - before)}")
