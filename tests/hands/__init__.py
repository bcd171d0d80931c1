"""The hand model: ordinary players' hands on the simulated board, and the check of what the
board made of them (used by tests and benchmarks/recognition.py)."""
