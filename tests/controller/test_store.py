"""The game store keeps every committed move durable: WAL, a full sync on every commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.store import GameStore


def test_the_store_on_disk_is_wal_with_full_sync(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    try:
        assert store.pragma("journal_mode") == "wal"
        assert store.pragma("synchronous") == 2  # FULL: the WAL is synced at every commit
        with pytest.raises(ValueError, match="not a pragma name"):
            store.pragma("synchronous; DROP TABLE moves")
    finally:
        store.close()
