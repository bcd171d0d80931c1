"""The board's I/O contract and its drivers (see DESIGN.md "hardware")."""
