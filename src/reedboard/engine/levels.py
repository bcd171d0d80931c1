"""The computer players' levels, 1 (a random legal move) to :data:`TOP_LEVEL` (the strongest),
and the scale of their ratings (a game's ``evaluate`` rates on it without importing the search);
what each level searches is :data:`reedboard.engine.search.LEVELS`."""

TOP_LEVEL = 5
DEFAULT_LEVEL = 3
"""The level the computer plays at when none is given."""
WIN = 1e6
"""A won game's worth, beyond any :meth:`~reedboard.engine.Position.evaluate` (less a point a
ply, so that a sooner win is worth more)."""
