"""The simulated board: runner, traces and the trace generator (a careful hand)."""
