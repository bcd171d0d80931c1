"""Jack Rabbits (docs/rules.md §6, seed 002) as a table assistant: the board is built anew each game
and nothing on it is sensed, so the engine keeps the cards and the dice.

The cards and dice as pure rules are in :mod:`reedboard.engine.jack_rabbits.cards`.

The game around them: players draw three cards; a turn is THE ROLL (two dice, a chance event,
and a prize draw on a match), then the mover may pay THE PRICE of an off-road journey and make
THE ACQUISITION, and ends the turn with THE INCREMENT (a draw). Whoever holds three royals that
meet the chosen condition may return to the citadel and wins.

Cards: rank and suit, ``2H``, ``10S``, ``AD``, ``KC``. Text form:
``1:2H,5C 2:AD,KS turn=1 phase=act dice=3,4 court=JH,… discard=… spent=1:AH paid``
(``spent=1:AH``: player 1 has spent his first ace, the ace of hearts, kept in front of him;
``court=`` may be left out: then every royal not in a hand is in the court).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from reedboard.engine.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from reedboard.engine.jack_rabbits.cards import (
    CONDITIONS,
    COURT,
    DECK_PIPS,
    HAND_LIMIT,
    PHASES,
    PIPS,
    ROYALS,
    SUITS,
    card,
    is_royal,
    matches,
    payment,
    price,
    rank,
    suit,
    wins,
)
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.position import Move, Position
from reedboard.engine.registry import register
from reedboard.engine.table import TableAssistant
from reedboard.engine.throw import Throw

# -- the game -------------------------------------------------------------------------------


@dataclass(frozen=True)
class JackRabbitsOptions:
    players: int = 2
    condition: str = "simple"
    """simple, diverse, monarchy, diverse-monarchy or tribal (ENDING THE GAME)."""
    patriarchy: bool = False
    """Optional: ace 14, K 13, Q 12, J 11."""
    permanent_ace: bool = False
    """Optional: one extra pip in every payment once the first ace is spent."""

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise InvalidOptionError(f"players: {self.players} is not 2, 3 or 4")
        if self.condition not in CONDITIONS:
            raise InvalidOptionError(
                f"condition: {self.condition!r} is not one of {', '.join(CONDITIONS)}"
            )


ROLLS: tuple[Throw, ...] = tuple(Throw((a, b)) for a in range(1, 7) for b in range(1, 7))
"""THE ROLL's 36 throws of the two dice, ``dice=1,1`` to ``dice=6,6``."""


@dataclass(frozen=True, slots=True)
class Draw(Move):
    card: str

    def __str__(self) -> str:
        return f"draw={self.card}"


@dataclass(frozen=True, slots=True)
class Act(Move):
    """A decision: ``pay 5H+6C`` (THE PRICE), ``acquire KH 5H+6H``, ``discard 3S``,
    ``end`` (then THE INCREMENT), ``return`` (to the citadel, winning)."""

    verb: str
    target: str = ""
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [self.verb, self.target, "+".join(self.cards)]
        return " ".join(p for p in parts if p)


JRMove = Throw | Draw | Act


@dataclass(frozen=True, slots=True)
class JackRabbitsState:
    """A snapshot of a Jack Rabbits game (see :class:`JackRabbits`)."""

    hands: tuple[tuple[str, ...], ...]
    turn: int
    phase: str
    dice: tuple[int, ...] | None
    court: tuple[str, ...]
    discard: tuple[str, ...]
    aces: tuple[str | None, ...]
    """Each player's first ace once spent (None: not yet)."""
    paid: bool
    winner: int | None


@register
class JackRabbits(Position[JRMove, JackRabbitsState]):
    game_id = "jack-rabbits"
    title = "Jack Rabbits (table assistant)"
    sides: ClassVar[tuple[str, ...]] = ("1", "2", "3", "4")
    Options: ClassVar[type[Any]] = JackRabbitsOptions
    dice_spec = (2, 6)
    sensed = False

    @classmethod
    def table_assistant(cls) -> TableAssistant:
        from reedboard.engine.jack_rabbits.table import ASSISTANT  # (it uses this module's rules)

        return ASSISTANT

    def __init__(
        self,
        options: Any,
        hands: list[list[str]],
        turn: int,
        phase: str,
        dice: tuple[int, ...] | None,
        court: list[str],
        discard: list[str],
        aces: list[str | None],
        paid: bool = False,
        winner: int | None = None,
    ) -> None:
        super().__init__(options)
        self.hands = hands
        self._turn = turn
        self.phase = phase
        """deal (drawing the starting hands), roll, prize, act, increment, discard."""
        self.dice = dice
        self.court = court
        self.discard = discard
        self.aces = aces
        """Each player's first ace once he has spent it: kept face up in front of him as the
        record that it is spent, out of the pile and the discard for good (None: not yet)."""
        self.paid = paid
        self.winner = winner

    @classmethod
    def _start(cls, options: Any) -> Self:
        n = options.players
        return cls(options, [[] for _ in range(n)], 0, "deal", None, list(COURT), [], [None] * n)

    @property
    def players(self) -> tuple[str, ...]:
        return self.sides[: len(self.hands)]

    @property
    def turn(self) -> str:
        if self.phase == "deal":
            return self.sides[self._dealing()]
        return self.sides[self._turn]

    def _dealing(self) -> int:
        return min(range(len(self.hands)), key=lambda i: (len(self.hands[i]), i))

    @property
    def spent(self) -> list[bool]:
        """Whether each player has spent his first ace."""
        return [a is not None for a in self.aces]

    def pile(self) -> list[str]:
        """The draw pile: every pip card not in a hand, the discard or kept as a first ace."""
        out = set(DECK_PIPS) - set(self.discard) - {a for a in self.aces if a is not None}
        for hand in self.hands:
            out -= set(hand)
        return sorted(out, key=DECK_PIPS.index)

    def is_chance(self) -> bool:
        return self.winner is None and self.phase in ("deal", "roll", "prize", "increment")

    def chance_outcomes(self) -> list[tuple[JRMove, float]]:
        if not self.is_chance():
            return []
        if self.phase == "roll":
            return [(roll, 1 / 36) for roll in ROLLS]
        pile = self.pile() or sorted(self.discard, key=DECK_PIPS.index)
        return [(Draw(c), 1 / len(pile)) for c in pile] if pile else []

    def throw(self, values: tuple[int, ...]) -> JRMove:
        if len(values) != 2 or not all(1 <= v <= 6 for v in values):
            raise InvalidMoveError(f"bad jack-rabbits roll {values}: two dice, 1 to 6")
        return ROLLS[(values[0] - 1) * 6 + values[1] - 1]

    def occupied(self) -> frozenset[str]:
        return frozenset()  # nothing on this board is sensed

    def _opts(self, player: int) -> dict[str, bool]:
        return {
            "ace_spent": self.aces[player] is not None,
            "patriarchy": self.options.patriarchy,
            "permanent_ace": self.options.permanent_ace,
        }

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[JRMove]:
        if self.winner is not None:
            return []
        if self.is_chance():
            return [m for m, _ in self.chance_outcomes()] or [Act("end")]
        me = self._turn
        hand = self.hands[me]
        if self.phase == "discard":
            return [Act("discard", c) for c in hand]
        out: list[JRMove] = []
        if wins(hand, self.options.condition):
            out.append(Act("return"))
        if not self.paid and self.dice is not None:
            for cards in self._payments(hand, price(self.dice), None):
                out.append(Act("pay", "", cards))
        for royal in self.court:
            for cards in self._payments(hand, 10, suit(royal)):
                out.append(Act("acquire", royal, cards))
        out.append(Act("end"))
        return out

    def _payments(
        self, hand: Sequence[str], amount: int, only_suit: str | None
    ) -> list[tuple[str, ...]]:
        """Every set of cards worth at least ``amount``, of any size: overpaying is fine, with
        any cards ("It's OK to overpay; you don't have to be precise")."""
        opts = self._opts(self._turn)
        pool = sorted(
            (c for c in hand if only_suit is None or suit(c) == only_suit), key=_card_order
        )
        return [
            cards
            for size in range(1, len(pool) + 1)
            for cards in itertools.combinations(pool, size)
            if payment(cards, **opts) >= amount
        ]

    def _apply(self, move: JRMove) -> None:
        me = self._turn
        if isinstance(move, Throw):
            self.dice = move.values
            self.paid = False
            hit = matches(move.values, self.hands[me], ace_spent=self.aces[me] is not None)
            self.phase = "prize" if hit else "act"
            return
        if isinstance(move, Draw):
            if not self.pile():  # the pile reloads from the discard
                self.discard = []
            if self.phase == "deal":
                self.hands[self._dealing()].append(move.card)
                if all(len(h) == 3 for h in self.hands):
                    self.phase = "roll"
                return
            self.hands[me].append(move.card)
            increment = self.phase == "increment"
            if increment:
                self.dice, self.paid = None, False  # the turn is over once the hand is nine
            if len(self.hands[me]) > HAND_LIMIT:
                self.phase = "discard"  # holding ten: discard down to nine
            elif increment:
                self._pass_turn()
            else:
                self.phase = "act"
            return
        if move.verb == "discard":
            self.hands[me].remove(move.target)
            # a royal leaving a hand goes back to the court's line, as when it is spent
            (self.court if is_royal(move.target) else self.discard).append(move.target)
            if self.dice is None:
                self._pass_turn()
            else:
                self.phase = "act"
            return
        if move.verb == "return":
            self.winner = me
            return
        if move.verb == "end":
            self.phase = "increment"
            return
        self._spend(me, move.cards)
        if move.verb == "pay":
            self.paid = True
        else:  # acquire
            self.court.remove(move.target)
            self.hands[me].append(move.target)

    def _pass_turn(self) -> None:
        self._turn = (self._turn + 1) % len(self.hands)
        self.phase = "roll"
        self.paid = False

    def _spend(self, me: int, cards: Sequence[str]) -> None:
        for c in cards:
            self.hands[me].remove(c)
            if rank(c) == "A" and self.aces[me] is None:
                self.aces[me] = c  # the first ace: kept in front of him, not discarded
            elif is_royal(c):
                self.court.append(c)  # a royal spent goes back to the court
            else:
                self.discard.append(c)

    def _save(self) -> JackRabbitsState:
        return JackRabbitsState(
            hands=tuple(tuple(h) for h in self.hands),
            turn=self._turn,
            phase=self.phase,
            dice=self.dice,
            court=tuple(self.court),
            discard=tuple(self.discard),
            aces=tuple(self.aces),
            paid=self.paid,
            winner=self.winner,
        )

    def _restore(self, state: JackRabbitsState) -> None:
        self.hands = [list(h) for h in state.hands]
        self._turn, self.phase, self.dice = state.turn, state.phase, state.dice
        self.court, self.discard, self.aces = (
            list(state.court),
            list(state.discard),
            list(state.aces),
        )
        self.paid, self.winner = state.paid, state.winner

    def evaluate(self, side: str) -> float:
        """Royals held (ten points each, the goal), then the worth of the other cards in
        hand, which pay for more."""
        me = self.sides.index(side)
        hand = self.hands[me]
        royals = sum(1 for c in hand if is_royal(c))
        rest = payment([c for c in hand if not is_royal(c)], **self._opts(me))
        return 10.0 * royals + rest / 100

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        who = self.sides[self.winner]
        return Outcome(who, Termination.CITADEL, f"player {who} returned with three royals")

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        parts = [f"{i + 1}:{','.join(h)}" for i, h in enumerate(self.hands)]
        parts += [f"turn={self._turn + 1}", f"phase={self.phase}"]
        if self.dice is not None:
            parts.append(f"dice={self.dice[0]},{self.dice[1]}")
        parts.append("court=" + ",".join(self.court))
        if self.discard:
            parts.append("discard=" + ",".join(self.discard))
        spent = [f"{i + 1}:{a}" for i, a in enumerate(self.aces) if a is not None]
        if spent:
            parts.append("spent=" + ",".join(spent))
        if self.paid:
            parts.append("paid")
        if self.winner is not None:
            parts.append(f"winner={self.winner + 1}")
        return " ".join(parts)

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        n = options.players

        def bad(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"bad jack-rabbits position {text!r}: {why}")

        def cards(token: str, s: str) -> list[str]:
            try:
                out = [card(c) for c in s.split(",") if c]
            except InvalidMoveError as exc:
                raise bad(f"{token}: {exc}") from None
            return out

        def player(token: str, s: str) -> int:
            if not re.fullmatch(r"[1-4]", s) or int(s) > n:
                raise bad(f"{token}: {s!r} is not a player (1 to {n})")
            return int(s) - 1

        hands: list[list[str]] = [[] for _ in range(n)]
        turn, phase, dice, court, discard = 0, "roll", None, None, []
        aces: list[str | None] = [None] * n
        paid, winner = False, None
        seen: set[str] = set()
        for token in text.split():
            key, _, val = token.partition("=")
            if m := re.fullmatch(r"(\d+):(\S*)", token):
                key = f"hand {m.group(1)}"
            if key in seen:
                raise bad(f"{token}: {key} is given twice")
            seen.add(key)
            if m:
                hands[player(token, m.group(1))] = cards(token, m.group(2))
            elif key == "turn":
                turn = player(token, val)
            elif key == "phase":
                if val not in PHASES:
                    raise bad(f"{token}: the phase is one of {', '.join(PHASES)}")
                phase = val
            elif key == "dice":
                if not re.fullmatch(r"[1-6],[1-6]", val):
                    raise bad(f"{token}: two dice, 1 to 6, like dice=3,4")
                dice = (int(val[0]), int(val[2]))
            elif key == "court":
                court = cards(token, val)
            elif key == "discard":
                discard = cards(token, val)
            elif key == "spent":
                for item in val.split(","):
                    who, colon, ace = item.partition(":")
                    if not colon:
                        raise bad(f"{token}: name each player's first ace, like spent=1:AH")
                    i = player(token, who)
                    (ace,) = cards(token, ace) or [""]
                    if rank(ace) != "A":
                        raise bad(f"{token}: {ace or 'nothing'} is not an ace")
                    if aces[i] is not None:
                        raise bad(f"{token}: player {i + 1} has one first ace")
                    aces[i] = ace
            elif token == "paid":
                paid = True
            elif key == "winner":
                winner = player(token, val)
            else:
                raise bad(f"unknown part {token!r}")
        if court is None:  # every royal not in a hand
            court = [c for c in COURT if not any(c in h for h in hands)]
        position = cls(options, hands, turn, phase, dice, court, discard, aces, paid, winner)
        why = position._inconsistency()
        if why:
            raise bad(why)
        return position

    def _inconsistency(self) -> str:
        """What makes this state one the game cannot reach, or ``""``."""
        places = [c for h in self.hands for c in h] + self.court + self.discard
        places += [a for a in self.aces if a is not None]
        twice = sorted({c for c in places if places.count(c) > 1}, key=_card_order)
        if twice:
            return f"{', '.join(twice)} in two places"
        if any(not is_royal(c) for c in self.court):
            return "the court holds royals only (J, Q, K)"
        if any(is_royal(c) for c in self.discard):
            return "a royal spent goes back to the court, not the discard"
        missing = [c for c in COURT if c not in places]
        if missing:
            return f"{', '.join(missing)} neither in the court nor in a hand"
        me, hand = self._turn, self.hands[self._turn]
        for i, h in enumerate(self.hands):
            limit = HAND_LIMIT + 1 if self.phase == "discard" and i == me else HAND_LIMIT
            if len(h) > limit:
                return f"player {i + 1} holds {len(h)} cards (the hand limit is {HAND_LIMIT})"
        if self.phase == "deal":
            sizes = [len(h) for h in self.hands]
            if me or self.dice or self.discard or self.paid or any(self.spent):
                return "while dealing nothing else has happened (turn=1, no dice, discard, spent)"
            if any(is_royal(c) for h in self.hands for c in h):
                return "the starting hands are drawn from the pile (no royals)"
            if sizes != sorted(sizes, reverse=True) or sizes[0] - sizes[-1] > 1 or sizes[0] > 3:
                return "the deal gives three cards each, one at a time from player 1"
            if sizes[-1] == 3:
                return "the deal is over: phase=roll"
        elif self.phase == "roll":
            if self.dice is not None or self.paid:
                return "phase=roll comes before the dice (no dice, not paid)"
        elif self.phase == "discard":
            if len(hand) != HAND_LIMIT + 1:
                return f"phase=discard: player {me + 1} holds {len(hand)} cards, not ten"
        elif self.dice is None:
            return f"phase={self.phase} comes after THE ROLL: give the dice"
        if self.paid and self.dice is None:
            return "paid comes after THE ROLL: give the dice"
        if self.phase == "prize" and (
            self.paid or not matches(self.dice or (), hand, ace_spent=self.spent[me])
        ):
            return "phase=prize needs a card in hand that a die matches (and nothing paid)"
        if self.winner is not None:
            if self.winner != me or self.phase != "act":
                return f"winner={self.winner + 1}: the winner returns on his own turn (phase=act)"
            if not wins(hand, self.options.condition):
                return (
                    f"winner={self.winner + 1}: his royals do not meet the"
                    f" {self.options.condition} condition"
                )
        return ""

    def parse_move(self, text: str) -> JRMove:
        t = " ".join(text.split())
        if m := re.fullmatch(r"(?:dice=)?([1-6]),([1-6])", t):
            return self.throw((int(m.group(1)), int(m.group(2))))
        if t.startswith("draw="):
            return Draw(card(t[5:]))
        words = t.split()
        if words and words[0] in ("end", "return") and len(words) == 1:
            return Act(words[0])
        if len(words) == 2 and words[0] == "discard":
            return Act("discard", card(words[1]))
        if len(words) == 2 and words[0] == "pay":
            return Act(
                "pay", "", tuple(sorted((card(c) for c in words[1].split("+")), key=_card_order))
            )
        if len(words) == 3 and words[0] == "acquire":
            return Act(
                "acquire",
                card(words[1]),
                tuple(sorted((card(c) for c in words[2].split("+")), key=_card_order)),
            )
        raise InvalidMoveError(
            f"bad jack-rabbits move {text!r}: expected dice=3,4, draw=5H, 'pay 5H+6C',"
            " 'acquire KH 5H+6H', 'discard 3S', 'end' or 'return'"
        )


def _card_order(c: str) -> tuple[int, int]:
    order = PIPS + ROYALS
    return (SUITS.index(suit(c)), order.index(rank(c)))
