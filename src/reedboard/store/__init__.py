"""The game store (SQLite), its writer thread and the recorder that feeds it."""
