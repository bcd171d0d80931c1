"""Board layouts and pin maps as TOML data, their loader and checks (see DESIGN.md "wiring")."""
