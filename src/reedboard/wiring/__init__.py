"""Board layouts and pin maps as TOML data, their loader and checks (docs/design.md, "wiring")."""
