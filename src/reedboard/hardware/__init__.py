"""The board's I/O contract and its drivers (see docs/design.md "hardware")."""
