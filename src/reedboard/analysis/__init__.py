"""Analyses that run a compiled program: McLoughlin's Fox and Geese solved whole.

Not in the engine, which stays pure rules (no I/O, no processes): a solver here builds a small
C program from the source shipped beside it, once, into the user's cache folder (a plain
``pip install`` needs no compiler), runs it, and keeps what it writes in files. The engine's
rules are its reference: the tests check the C move generator against them move by move.
"""
