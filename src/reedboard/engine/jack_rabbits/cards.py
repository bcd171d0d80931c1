"""Jack Rabbits' cards and dice as pure rules (the game, its table assistant and the CLI use
them): card values for THE PAYMENT (royals 10, the first ace 11, later aces 1; Patriarchy: ace
14, K 13, Q 12, J 11), THE ROLL's card match (a die showing a card's value wins a prize draw;
the first ace, worth 11, never matches), THE PRICE (the dice's total; overpaying is fine), THE
ACQUISITION (ten points of the royal's suit), the hand limit (ten cards: discard to nine) and
the winning conditions. Cards: rank and suit, ``2H``, ``10S``, ``AD``, ``KC``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from reedboard.engine.errors import InvalidMoveError

SUITS = "SHDC"
"""Spades (swords), hearts (cups), diamonds (coins), clubs (clovers)."""
PIPS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
ROYALS = ("J", "Q", "K")
DECK_PIPS: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in PIPS)
COURT: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in ROYALS)
HAND_LIMIT = 9
CONDITIONS = ("simple", "diverse", "monarchy", "diverse-monarchy", "tribal")
PHASES = ("deal", "roll", "prize", "act", "increment", "discard")
_CARD = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")


def card(text: str) -> str:
    """A card's canonical form; raises InvalidMoveError naming a bad one."""
    t = text.strip().upper()
    if not _CARD.match(t):
        raise InvalidMoveError(f"bad card {text!r}: rank A 2-10 J Q K and suit S H D C, like 10H")
    return t


def rank(c: str) -> str:
    return c[:-1]


def suit(c: str) -> str:
    return c[-1]


def is_royal(c: str) -> bool:
    return rank(c) in ROYALS


def value(c: str, *, first_ace: bool, patriarchy: bool = False) -> int:
    """What a card is worth in THE PAYMENT. ``first_ace``: an ace now would be the player's
    first ace spent (worth 11, or 14 under Patriarchy); later aces are worth 1."""
    r = rank(c)
    if r == "A":
        return (14 if patriarchy else 11) if first_ace else 1
    if r in ROYALS:
        return {"J": 11, "Q": 12, "K": 13}[r] if patriarchy else 10
    return int(r)


def payment(
    cards: Sequence[str], *, ace_spent: bool, patriarchy: bool = False, permanent_ace: bool = False
) -> int:
    """The worth of cards paid together. Only one ace can be the first; with the optional
    Permanent Ace, a player who has spent his first ace adds one pip to every payment."""
    total = 0
    first = not ace_spent
    for c in sorted(cards, key=lambda c: rank(c) != "A"):
        total += value(c, first_ace=first, patriarchy=patriarchy)
        if rank(c) == "A":
            first = False
    if permanent_ace and ace_spent:
        total += 1
    return total


def matches(dice: Sequence[int], hand: Iterable[str], *, ace_spent: bool) -> list[str]:
    """THE ROLL: the cards in hand a die shows. Pip cards 2-6 match their die; an ace matches
    a 1 only once the first ace (worth 11) has been spent; royals never match."""
    out = []
    for c in hand:
        r = rank(c)
        worth = 1 if r == "A" and ace_spent else (int(r) if r.isdigit() else 0)
        if worth in dice:
            out.append(c)
    return out


def price(dice: Sequence[int]) -> int:
    """THE PRICE of going off-road: the total on the dice."""
    return sum(dice)


def can_acquire(
    royal: str,
    cards: Sequence[str],
    *,
    ace_spent: bool,
    patriarchy: bool = False,
    permanent_ace: bool = False,
) -> bool:
    """THE ACQUISITION: ten points, all of the royal's suit."""
    return (
        all(suit(c) == suit(royal) for c in cards)
        and payment(cards, ace_spent=ace_spent, patriarchy=patriarchy, permanent_ace=permanent_ace)
        >= 10
    )


def wins(royals: Iterable[str], condition: str) -> bool:
    """Whether some three of these royals meet a winning condition."""
    held = [c for c in royals if is_royal(c)]
    for three in itertools.combinations(held, 3):
        suits = {suit(c) for c in three}
        ranks = {rank(c) for c in three}
        ok = {
            "simple": True,
            "diverse": len(suits) == 3,
            "monarchy": ranks == set(ROYALS),
            "diverse-monarchy": ranks == set(ROYALS) and len(suits) == 3,
            "tribal": len(suits) == 1,
        }[condition]
        if ok:
            return True
    return False
