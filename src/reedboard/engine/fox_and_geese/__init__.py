"""Fox and Geese on the cross board: the two-fox game (seed 001) and McLoughlin's (seeds 003/004).

docs/rules.md §1a and §1b. McLoughlin's game is the two-fox game with a few hooks overridden:
one fox, forward-only geese, compulsory maximal jump chains, a six-geese win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from reedboard.engine.cross import (
    EMPTY,
    HOLES,
    STEPS,
    Cross33Position,
    CrossMove,
    Diagonals,
    forward_targets,
)
from reedboard.engine.errors import InvalidOptionError, InvalidPositionError, SolverError
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.registry import register

if TYPE_CHECKING:
    from reedboard.engine.solved import Analysis

FOX = ord("F")
GOOSE = ord("G")


@dataclass(frozen=True)
class FoxAndGeeseOptions:
    diagonals: Diagonals = Diagonals.ALTERNATE
    """Which diagonal lines the board has (docs/rules.md §1: alternate by default)."""


@register
class FoxAndGeese(Cross33Position):
    """Two foxes against 24 geese; jumping is optional and every prefix of a chain is a move."""

    game_id = "fox-and-geese"
    title = "Fox and Geese (two foxes)"
    sides = ("fox", "geese")
    turn_chars = "FG"
    piece_chars = "FG"
    Options: ClassVar[type[Any]] = FoxAndGeeseOptions

    foxes = 2
    """How many foxes the game has."""
    geese = 24
    """How many geese the game starts with (a position never has more)."""
    start_text = "......GGF.FGGGGGGGGGGGGGGGGGGGGGG F"
    must_jump = False
    """McLoughlin: a fox that can jump must, and must finish its chain."""

    def __init__(self, options: Any, cells: bytes, turn: int) -> None:
        super().__init__(options, cells, turn)
        self._targets = self.board.steps
        """Per hole, where a goose there may step (along any line)."""
        self._rated: tuple[tuple[bytes | float, ...], float] | None = None
        """The last rating made: (the cells and weights it was made with, the foxes' points)."""

    @classmethod
    def _start(cls, options: Any) -> Self:
        return cls._from_text(cls.start_text, options)

    def _check(self, text: str) -> None:
        if self.count("F") != self.foxes:
            raise InvalidPositionError(
                f"bad {self.game_id} position {text!r}: {self.count('F')} foxes on the board,"
                f" the game has {self.foxes}"
            )
        if self.count("G") > self.geese:
            raise InvalidPositionError(
                f"bad {self.game_id} position {text!r}: {self.count('G')} geese,"
                f" the game has {self.geese}"
            )

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[CrossMove]:
        if self._finished_by_material() is not None:
            return []
        if self._turn == 0:
            return self._fox_moves()
        return self._goose_moves()

    def _fox_holes(self) -> list[int]:
        """``holes_of("F")``, found faster (a fox or two among 33 holes)."""
        cells, found = self.cells, []
        at = cells.find(FOX, 1)
        while at != -1:
            found.append(at)
            at = cells.find(FOX, at + 1)
        return found

    def _fox_moves(self) -> list[CrossMove]:
        steps: list[CrossMove] = []
        chains: list[CrossMove] = []
        cells = self.cells
        for fox in self._fox_holes():
            row = STEPS[fox]
            for to in self.board.steps[fox]:
                if cells[to] == EMPTY:
                    steps.append(row[to])
            cells[fox] = EMPTY  # lifted: a chain may cross or land on its own start
            self._chains(fox, [fox], chains)
            cells[fox] = FOX
        if self.must_jump and chains:
            return chains
        return steps + chains

    def _chains(self, at: int, path: list[int], out: list[CrossMove]) -> None:
        """Every jump chain from ``at`` (geese taken off as they are jumped, then put back)."""
        cells = self.cells
        extended = False
        for over, land in self.board.jumps[at]:
            if cells[over] == GOOSE and cells[land] == EMPTY:
                extended = True
                cells[over] = EMPTY
                path.append(land)
                if not self.must_jump:
                    out.append(CrossMove(tuple(path), jump=True))
                self._chains(land, path, out)
                path.pop()
                cells[over] = GOOSE
        if self.must_jump and not extended and len(path) > 1:
            out.append(CrossMove(tuple(path), jump=True))

    def fox_mobility(self) -> int:
        """How many moves the foxes would have if it were their turn (for evaluation): as
        ``len(self._fox_moves())``, counted without making the moves."""
        cells, board = self.cells, self.board
        steps = chains = 0
        for fox in self._fox_holes():
            steps += sum(cells[to] == EMPTY for to in board.steps[fox])
            cells[fox] = EMPTY
            chains += self._count_chains(fox, 0)
            cells[fox] = FOX
        if self.must_jump and chains:
            return chains
        return steps + chains

    def _count_chains(self, at: int, depth: int) -> int:
        """How many moves :meth:`_chains` makes from ``at`` after ``depth`` jumps."""
        cells = self.cells
        count = 0
        extended = False
        for over, land in self.board.jumps[at]:
            if cells[over] == GOOSE and cells[land] == EMPTY:
                extended = True
                cells[over] = EMPTY
                if not self.must_jump:
                    count += 1
                count += self._count_chains(land, depth + 1)
                cells[over] = GOOSE
        if self.must_jump and not extended and depth:
            count += 1
        return count

    search_depth = 2
    """A hint looks at the move and every reply."""

    def fox_region(self) -> set[int]:
        """The holes the foxes stand on or could walk to, step by step (their pen: the foxes
        stepping about inside it do not change it; only a goose or a jump does)."""
        cells, steps = self.cells, self.board.steps
        todo = self._fox_holes()
        seen = set(todo)
        while todo:
            for to in steps[todo.pop()]:
                if cells[to] == EMPTY and to not in seen:
                    seen.add(to)
                    todo.append(to)
        return seen

    def fox_room(self) -> int:
        """How many empty holes the foxes could walk to, step by step (the geese close it)."""
        return len(self.fox_region()) - self.foxes

    def open_room(self, pen: set[int] | None = None) -> int:
        """How many of the foxes' empty holes (:meth:`fox_room`) the geese could not close
        by *closing steps*, one after another in the best order, whoever stands where inside
        the pen (``pen``: :meth:`fox_region`, given when already at hand).

        A closing step takes a goose from outside the pen (the *filler*) onto a hole of the
        pen, the pen's hole then empty, and shrinks the pen by that hole. The hole the filler
        leaves must not let a fox out: either it touches no other hole of the pen and is the
        landing of no jump from one, or the foxes can stand where neither touches it nor
        jumps into it and a goose (again touching no hole of the pen, no landing of a jump
        from one) steps in behind at once. The pen's shape alone decides this (every hole
        next to the pen holds a goose), so the answer is kept per shape. 0 means the geese
        can close the pen to the last hole and trap the foxes once they leave the right holes
        empty; a pen with room but no closing step (foxes shuffling in an arm's corner, every
        goose that could come in opening a hole or a jump behind it) can never be closed as
        it stands, and the geese must open it again. A pen in pieces (a fox shut in alone)
        is counted piece by piece, each with the foxes in it (a fox cannot walk from one
        piece to another), and a filler must not leave a hole by another piece either."""
        if pen is None:
            pen = self.fox_region()
        cache = _OPEN_CACHES.setdefault(id(self._targets), {})
        if len(cache) > 100_000:
            cache.clear()
        whole = frozenset(pen)
        pieces = self._pieces(whole)
        if len(pieces) == 1:
            return self._open(whole, self.foxes, frozenset(), cache)
        return sum(self._open(piece, k, whole - piece, cache) for piece, k in pieces)

    def _pieces(self, pen: frozenset[int]) -> list[tuple[frozenset[int], int]]:
        """The pen's pieces (joined by steps), each with the foxes in it: a fox shut in
        alone (its own piece) cannot stand in another piece."""
        steps, cells = self.board.steps, self.cells
        pieces, left = [], set(pen)
        while left:
            todo = [left.pop()]
            piece = set(todo)
            while todo:
                for to in steps[todo.pop()]:
                    if to in left:
                        left.discard(to)
                        piece.add(to)
                        todo.append(to)
            pieces.append((frozenset(piece), sum(1 for h in piece if cells[h] == FOX)))
        return pieces

    def _open(
        self,
        pen: frozenset[int],
        foxes: int,
        walls: frozenset[int],
        cache: dict[tuple[frozenset[int], int, frozenset[int]], int],
    ) -> int:
        """:meth:`open_room` of one piece ``pen`` holding ``foxes``, beside ``walls``: the
        other pieces' holes, where other foxes stand or may walk, so a filler may not leave
        a hole they touch or jump into."""
        key = (pen, foxes, walls)
        if key in cache:
            return cache[key]
        room = len(pen) - foxes
        best = max(room, 0)
        for hole in pen if room > 0 else ():
            if not self._closable(pen, hole, foxes, walls):
                continue
            best = min(best, self._open(pen - {hole}, foxes, walls, cache))
            if best == 0:
                break
        cache[key] = best
        return best

    def _closable(self, pen: frozenset[int], hole: int, foxes: int, walls: frozenset[int]) -> bool:
        """Whether a goose can close ``hole`` of ``pen`` (see :meth:`open_room`)."""
        board, targets = self.board, self._targets
        rest = pen - {hole}
        for filler in board.steps[hole]:
            if filler in pen or filler in walls or hole not in targets[filler]:
                continue
            if walls and (
                any(h in walls for h in board.steps[filler])
                or any(land in walls for _, land in board.jumps[filler])
            ):
                continue  # a fox of another piece could get out there
            bad = {h for h in board.steps[filler] if h in rest}
            bad.update(land for _, land in board.jumps[filler] if land in rest)
            if not bad:
                return True
            if len(rest) - len(bad) < foxes:
                continue  # wherever the foxes stand, one is by the hole left
            for goose in board.steps[filler]:
                if goose in pen or goose in walls or goose == hole or filler not in targets[goose]:
                    continue
                if any(h in rest or h in walls for h in board.steps[goose]):
                    continue
                if any(land in rest or land in walls for _, land in board.jumps[goose]):
                    continue
                return True
        return False

    advance_weight = 0.0
    """Points a row a goose has come towards the foxes' end (row 0), for the geese (0 here:
    with it the two-fox geese did not trap random foxes more often; McLoughlin's use it)."""
    room_weight = 0.5
    """Points an empty hole the foxes could walk to."""
    mobility_weight = 0.5
    """Points a move the geese could make (geese that cannot move lose)."""
    open_weight = 2.0
    """Points an empty hole of the foxes' pen the geese could not close (:meth:`open_room`):
    without it the geese close the pen greedily, often to a corner they can never shut."""
    exposed_weight = 0.0
    """Points a goose a fox could jump from some hole of its pen (:meth:`geese_exposed`), for
    the foxes (0 here; McLoughlin's use it)."""
    forced_jumps = False
    """McLoughlin: with the fox to move, the geese its jump must take are as good as taken
    (:meth:`forced_take`), so the rating counts them so."""

    dead_pen_draws = True
    """A dead pen (:meth:`dead_pen`) is rated a draw, 0, whatever the material: the foxes step
    about in it for ever and the geese shuffle outside. Without it the geese, many points up,
    kept such a pen for good."""
    dead_pen_room = 4
    """The most empty holes a dead pen has (:meth:`dead_pen`). Of every pen of up to nine
    holes, the only ones the geese cannot close at all are an arm's corner (foxes about 1,
    2 and 4, or 1-4, and their mirror images: one or two empty holes), so this is a margin,
    not a measured bound; a larger pen is open play."""
    en_prise_weight = 0.0
    """Points a goose a fox could jump at once (a goose left en prise), for the foxes (0 here,
    as :attr:`advance_weight`; one point with :attr:`open_weight` trapped random foxes in 11
    of 16 games, against 13 of 16 without)."""

    def geese_advance(self) -> int:
        """How many rows the geese have come, all together, towards row 0 (the foxes' end)."""
        cells, coords = self.cells, self.board.coords
        return sum(6 - coords[h][0] for h in HOLES if cells[h] == GOOSE)

    def dead_pen(self, pen: set[int] | None = None) -> bool:
        """Whether the foxes sit in a fortress: a small pen (room 1 to :attr:`dead_pen_room`)
        no hole of which the geese can close (:meth:`open_room`), no goose en prise, and a
        goose that can wait (:meth:`_geese_can_wait`), so that the geese can keep the pen for
        ever. (An open board with few geese left is no fortress: there every goose is the
        pen's wall and none can wait.) Judged by the pen's shape, not by where the foxes
        stand in it: a wall goose that could step to and fro while a hole stays empty is not
        counted, so a pen held by its wall alone is not a fortress here even when it is one."""
        if pen is None:
            pen = self.fox_region()
        room = len(pen) - self.foxes
        if not 0 < room <= self.dead_pen_room or self.geese_en_prise():
            return False
        if self.open_room(pen) != room:
            return False
        return self._geese_can_wait(pen)

    def _geese_can_wait(self, pen: set[int]) -> bool:
        """Whether a goose can step without opening ``pen``, wherever the foxes stand in it:
        from a hole next to no hole of it and the landing of no jump from one, to an empty
        hole (which is outside the pen, as it touches no hole of it)."""
        board, cells, targets = self.board, self.cells, self._targets
        for goose in self.holes_of("G"):
            if any(h in pen for h in board.steps[goose]):
                continue
            if any(land in pen for _, land in board.jumps[goose]):
                continue
            if any(cells[to] == EMPTY for to in targets[goose]):
                return True
        return False

    def geese_en_prise(self) -> int:
        """How many geese a fox could jump at once (each counted once)."""
        cells, jumps = self.cells, self.board.jumps
        return len(
            {
                over
                for fox in self._fox_holes()
                for over, land in jumps[fox]
                if cells[over] == GOOSE and cells[land] == EMPTY
            }
        )

    def geese_exposed(self, pen: set[int] | None = None) -> int:
        """How many geese a fox could jump from some hole of its pen (``pen``:
        :meth:`fox_region`, given when already at hand), each counted once: the geese en prise
        (:meth:`geese_en_prise`) and those the foxes could walk up to and jump. McLoughlin's
        fox must jump, so it takes such a goose when it gets there unless the geese mend the
        hole behind it first."""
        if pen is None:
            pen = self.fox_region()
        cells, jumps = self.cells, self.board.jumps
        return len(
            {
                over
                for hole in pen
                for over, land in jumps[hole]
                if cells[over] == GOOSE and cells[land] == EMPTY
            }
        )

    def forced_take(self) -> int:
        """With jumps compulsory, the most geese the fox's chains take (0 with no jump)."""
        if not self.must_jump:
            return 0
        return max((len(m.path) - 1 for m in self._fox_moves() if m.jump), default=0)

    def evaluate(self, side: str) -> float:
        """For the foxes: ten points a goose taken, a point a move the foxes could make,
        :attr:`room_weight` an empty hole they could walk to (the room the geese have not yet
        closed), :attr:`open_weight` a hole of that room the geese could not close
        (:meth:`open_room`: a pen the geese cannot trap the foxes in) and
        :attr:`en_prise_weight` a goose they could jump at once and :attr:`exposed_weight` a
        goose they could jump from anywhere in their pen, less
        :attr:`mobility_weight` a move the geese could make and :attr:`advance_weight` a
        row the geese have come towards the foxes' end; with jumps compulsory and the fox to
        move, ten points a goose its chain must take (:attr:`forced_jumps`); a fortress
        (:meth:`dead_pen`) is a draw, 0 (:attr:`dead_pen_draws`). For the geese the same,
        negated."""
        key = (
            bytes(self.cells),
            self.room_weight,
            self.mobility_weight,
            self.open_weight,
            self.en_prise_weight,
            self.exposed_weight,
            self.advance_weight,
            self.dead_pen_draws,
            self.dead_pen_room,
            self.forced_jumps,
            self._turn,
        )
        if self._rated is not None and self._rated[0] == key:  # the search asks each side
            fox = self._rated[1]
            return fox if side == "fox" else -fox
        fox = 10.0 * (self.geese - self.count("G")) + self.fox_mobility()
        pen = self.fox_region()
        fox += self.room_weight * (len(pen) - self.foxes)
        fox -= self.mobility_weight * self._goose_mobility()
        if self.open_weight:
            fox += self.open_weight * self.open_room(pen)
        if self.en_prise_weight:
            fox += self.en_prise_weight * self.geese_en_prise()
        if self.exposed_weight:
            fox += self.exposed_weight * self.geese_exposed(pen)
        if self.forced_jumps and self._turn == 0:
            fox += 10.0 * self.forced_take()
        if self.advance_weight:
            fox -= self.advance_weight * self.geese_advance()
        if self.dead_pen_draws and self.dead_pen(pen):
            fox = 0.0  # a fortress: nobody can win it as it stands
        self._rated = (key, fox)
        return fox if side == "fox" else -fox

    def _goose_mobility(self) -> int:
        """``len(self._goose_moves())``, counted without making the moves."""
        cells = self.cells
        sources = _sources(self._targets)
        return sum(
            cells[goose] == GOOSE for to in HOLES if cells[to] == EMPTY for goose in sources[to]
        )

    def _goose_moves(self) -> list[CrossMove]:
        cells = self.cells
        targets = self._targets
        return [
            STEPS[goose][to]
            for goose in self.holes_of("G")
            for to in targets[goose]
            if cells[to] == EMPTY
        ]

    # -- the end -----------------------------------------------------------------------------

    def _finished_by_material(self) -> Outcome | None:
        if self.count("G") == 0:
            return Outcome("fox", Termination.GEESE_TAKEN, "every goose taken")
        return None

    def outcome(self) -> Outcome | None:
        over = self._finished_by_material()
        if over is not None or self._legal():
            return over
        if self._turn == 0:
            return Outcome("geese", Termination.FOXES_TRAPPED, "no fox can move")
        return Outcome("fox", Termination.GEESE_BLOCKED, "no goose can move")


@dataclass(frozen=True)
class McLoughlinOptions:
    diagonals: Diagonals = Diagonals.ALTERNATE
    """Which diagonal lines the board has."""
    sideways_points: tuple[int, ...] = (7, 13)
    """Holes from which a goose may also step sideways (the sheet's double cross-lines)."""
    empty: tuple[int, ...] = (16, 18)
    """The two holes of 14-33 (not 17) left empty at the start."""

    def __post_init__(self) -> None:
        for hole in self.sideways_points:
            if hole not in HOLES:
                raise InvalidOptionError(f"sideways_points: there is no hole {hole} (1-33)")
        home = [h for h in range(14, 34) if h != 17]
        if len(self.empty) != 2 or len(set(self.empty)) != 2:
            raise InvalidOptionError(f"empty: give two different holes, not {self.empty}")
        for hole in self.empty:
            if hole not in home:
                raise InvalidOptionError(
                    f"empty: hole {hole} is not one of the geese's holes 14-33 (17 is the fox's)"
                )


@register
class McLoughlinFoxAndGeese(FoxAndGeese):
    """One fox against 17 forward-only geese; the fox must jump, to the end of the chain."""

    game_id = "fox-and-geese-mcloughlin"
    title = "Fox and Geese (McLoughlin Bros.)"
    Options = McLoughlinOptions
    foxes = 1
    geese = 17
    must_jump = True
    geese_left_to_win = 6
    advance_weight = 0.25
    """A quarter point a row the geese have come (they never step back, so a solid front
    that keeps coming closes the fox in before they run out of moves)."""
    en_prise_weight = 1.0
    """A point a goose the fox could jump at once (whoever is to move; with the fox to move,
    :attr:`forced_jumps` also counts the geese its chain must take)."""
    exposed_weight = 2.0
    """Two points a goose the fox could jump from anywhere in its pen: the fox must jump, so
    even a random fox takes it when it wanders there, and a goose taken leaves a hole it may
    slip through behind the geese, who can never come back. (A goose en prise counts here
    too, so it costs three points with :attr:`en_prise_weight`, and ten more when the fox is
    to move, :attr:`forced_jumps`; when the fox must jump now, geese it could only reach by
    walking count all the same.) With it the geese won 60 of 60
    games against a random fox on fresh seeds where they had won 48 (one point: 55; three:
    60), and 98 of 100 more."""
    forced_jumps = True
    """On: the jumps are compulsory. With it and a point a goose en prise (not two, as before)
    the geese won 54 of 60 games against a random fox on the kept seeds (53 before) and 95 of
    120 on fresh ones (92): not worse, and no more than noise better."""
    dead_pen_draws = False
    """(Off: the pen term is; and geese that cannot step back lose a pen they cannot close,
    when they run out of moves.)"""
    open_weight = 0.0
    """None here: with two points a hole the geese could not close (:meth:`open_room`, over
    their forward steps) they won 18 of 20 games against a random fox, as without, at twice
    the thinking time."""

    def proved_move(self, effort: int) -> CrossMove | None:
        """The geese's move in the shipped winning strategy while the position is in it
        (reedboard/engine/fox_and_geese/strategy.py: the game solved whole); the fox's, while
        its every move leads into the strategy, the one that makes the geese's win take
        longest (:meth:`longest_move`); else a win proved by the proof search
        (reedboard/engine/fox_and_geese/solver.py): late in the game, when the geese have
        little room left, it settles a position in milliseconds."""
        if (move := self.strategy_move() or self.longest_move()) is not None:
            return move
        from reedboard.engine.fox_and_geese import solver as solver  # (it imports this module)

        try:
            solver.check_options(self.options)
        except SolverError:  # options under which geese may step back and forth
            return None
        return solver.best_move(self, expansions=effort)

    def proof_words(self, move: CrossMove) -> str | None:
        """``geese win with 24-17`` when ``move`` is the shipped strategy's here."""
        if move == self.strategy_move():
            return f"geese win with {move}"
        return None

    def strategy_move(self) -> CrossMove | None:
        """The geese's move in the shipped winning strategy (proved: every fox reply from
        the start ends in a geese win), or None when the position is not in it."""
        if self._turn != 1:
            return None
        from reedboard.engine.fox_and_geese import strategy

        plan = strategy.shipped()
        return None if plan is None else plan.move(self)

    def longest_move(self) -> CrossMove | None:
        """The fox's move after which the geese's win under the shipped strategy takes the
        most plies (the deepest line of its tree, from its shipped depths), or None when a
        fox move leads out of the strategy (a goose has strayed from it, or other options)."""
        if self._turn != 0:
            return None
        from reedboard.engine.fox_and_geese import strategy

        plan = strategy.shipped()
        return None if plan is None else plan.longest_move(self)

    @classmethod
    def analysis(cls) -> Analysis | None:
        """Who wins, proved within a time budget (reedboard/engine/fox_and_geese/solver.py)."""
        from reedboard.engine.fox_and_geese import solver as solver

        return solver.ProofSearch(cls)

    @classmethod
    def _start(cls, options: Any) -> Self:
        cells = bytearray(b"." * 34)
        for hole in range(14, 34):
            cells[hole] = GOOSE
        cells[17] = FOX
        for hole in options.empty:
            cells[hole] = EMPTY
        return cls(options, bytes(cells), 0)

    @classmethod
    def start_from(cls, occupied: frozenset[str], **options: object) -> Self | None:
        """The fox on 17 and 17 geese on 14-33: the two holes left empty are the player's."""
        geese_holes = {str(h) for h in range(14, 34)} - {"17"}
        if "17" not in occupied or len(occupied) != 18 or not occupied - {"17"} <= geese_holes:
            return None
        empty = tuple(sorted(int(h) for h in geese_holes - occupied))
        return cls.start(**{**options, "empty": empty})

    def __init__(self, options: Any, cells: bytes, turn: int) -> None:
        super().__init__(options, cells, turn)
        self._targets = forward_targets(options.diagonals, options.sideways_points)

    def _finished_by_material(self) -> Outcome | None:
        left = self.count("G")
        if left <= self.geese_left_to_win:
            return Outcome("fox", Termination.SIX_GEESE_LEFT, f"{left} geese left")
        return None


_OPEN_CACHES: dict[int, dict[tuple[frozenset[int], int, frozenset[int]], int]] = {}
"""Per goose-step table (by identity: the tables are made once), and per piece of a pen, its
foxes and the other pieces: :meth:`FoxAndGeese.open_room`."""

_SOURCE_CACHE: dict[int, tuple[tuple[int, ...], ...]] = {}


def _sources(targets: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Per hole, the holes from which a goose may step there (``targets`` turned round);
    kept per goose-step table, by identity."""
    key = id(targets)
    if key not in _SOURCE_CACHE:
        sources: list[list[int]] = [[] for _ in targets]
        for hole in HOLES:
            for to in targets[hole]:
                sources[to].append(hole)
        _SOURCE_CACHE[key] = tuple(tuple(s) for s in sources)
    return _SOURCE_CACHE[key]
