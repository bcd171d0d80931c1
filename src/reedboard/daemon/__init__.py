"""The daemon: the core loop that joins a board to a referee, and its extensions (web view,
remote play, computer players, console)."""
