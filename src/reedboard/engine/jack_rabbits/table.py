"""Jack Rabbits' table assistant (``reedboard jack-rabbits WHAT ...``): the rules as quick
answers at the table. The game is played with cards and dice, not on a sensed board."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from reedboard.engine.errors import EngineError, TableError
from reedboard.engine.jack_rabbits import cards as jr
from reedboard.engine.registry import TABLE_ASSISTANTS
from reedboard.engine.table import Arg, Question, TableAssistant


def _cards(text: str, what: str, *, royals: bool | None = None) -> list[str]:
    """Cards written ``5H,10S,AD`` (or joined by ``+``): each a card, none twice; ``royals``
    True asks for royals only."""
    if not text.strip():
        return []
    out: list[str] = []
    for item in text.replace("+", ",").split(","):
        if not item.strip():
            raise TableError(f"{what} {text!r}: an empty card between commas")
        try:
            c = jr.card(item)
        except EngineError as exc:
            raise TableError(f"{what} {text!r}: {exc}") from None
        if c in out:
            raise TableError(f"{what} {text!r}: {c} is given twice (a deck has one)")
        if royals is True and not jr.is_royal(c):
            raise TableError(f"{what} {text!r}: {c} is not a royal (J, Q or K)")
        out.append(c)
    return out


def _price(text: str) -> int:
    """THE PRICE to meet: a whole number from 1 (the dice's total is 2 to 12)."""
    if not re.fullmatch(r"[0-9]{1,4}", text.strip()) or int(text) < 1:
        raise TableError(f"--price {text!r}: THE PRICE is a whole number from 1, like 8")
    return int(text)


def _values(a: Mapping[str, Any]) -> dict[str, bool]:
    return {k: bool(a[k]) for k in ("ace_spent", "patriarchy", "permanent_ace")}


def _roll(a: Mapping[str, Any]) -> list[str]:
    if not re.fullmatch(r"\s*[1-6]\s*,\s*[1-6]\s*", a["dice"]):
        raise TableError(f"roll {a['dice']!r}: two dice, 1 to 6, like 3,5")
    dice = [int(v) for v in a["dice"].split(",")]
    hit = jr.matches(dice, _cards(a["hand"] or "", "--hand"), ace_spent=bool(a["ace_spent"]))
    return [
        f"THE PRICE: {jr.price(dice)}",
        f"THE ROLL: {'match ' + ' '.join(hit) + ': draw a prize card' if hit else 'no match'}",
    ]


def _pay(a: Mapping[str, Any]) -> list[str]:
    paid = _cards(a["cards"], "pay")
    if not paid:
        raise TableError("pay: name the cards paid, like 5H,10S")
    price = None if a["price"] is None else _price(a["price"])
    worth = jr.payment(paid, **_values(a))
    out = [f"THE PAYMENT: {worth}"]
    if price is not None:
        out.append(
            f"THE PRICE {price}: {'paid' if worth >= price else f'short by {price - worth}'}"
        )
    return out


def _acquire(a: Mapping[str, Any]) -> list[str]:
    royal = jr.card(a["royal"])
    if not jr.is_royal(royal):
        raise TableError(f"acquire {royal}: not a royal (J, Q or K)")
    paid = _cards(a["cards"], f"acquire {royal}")
    if not paid:
        raise TableError(f"acquire {royal}: name the cards paid, like 5H,6H")
    if royal in paid:
        raise TableError(f"acquire {royal}: {royal} cannot pay for itself")
    worth = jr.payment([c for c in paid if jr.suit(c) == jr.suit(royal)], **_values(a))
    ok = jr.can_acquire(royal, paid, **_values(a))
    others = [c for c in paid if jr.suit(c) != jr.suit(royal)]
    why = f" ({' '.join(others)} not of the royal's suit)" if others else ""
    return [f"THE ACQUISITION of {royal}: {worth} of 10 points{why}: {'yes' if ok else 'no'}"]


def _hand(a: Mapping[str, Any]) -> list[str]:
    held = _cards(a["cards"], "hand")
    over = len(held) - jr.HAND_LIMIT
    return [
        f"{len(held)} cards" + (f": discard {over} down to {jr.HAND_LIMIT}" if over > 0 else "")
    ]


def _wins(a: Mapping[str, Any]) -> list[str]:
    return ["yes" if jr.wins(_cards(a["royals"], "wins", royals=True), a["condition"]) else "no"]


ASSISTANT = TableAssistant(
    help=TABLE_ASSISTANTS["jack-rabbits"],
    common=(
        Arg("ace-spent", "the first ace is spent", flag=True),
        Arg("patriarchy", "optional: A 14 K 13 Q 12 J 11", flag=True),
        Arg("permanent-ace", "optional: +1 pip once spent", flag=True),
    ),
    questions=(
        Question(
            "roll",
            "THE ROLL's match and THE PRICE",
            (
                Arg("dice", metavar="A,B"),
                Arg("hand", "the cards held, like 5H,10S,AD", metavar="CARDS", option=True),
            ),
            _roll,
        ),
        Question(
            "pay",
            "what cards are worth in THE PAYMENT",
            (
                Arg("cards", metavar="CARDS"),
                Arg("price", "THE PRICE to meet (a whole number from 1)", "N", option=True),
            ),
            _pay,
        ),
        Question(
            "acquire",
            "whether cards buy a royal",
            (Arg("royal", metavar="ROYAL"), Arg("cards", metavar="CARDS")),
            _acquire,
        ),
        Question("hand", "the hand limit", (Arg("cards", metavar="CARDS"),), _hand),
        Question(
            "wins",
            "whether royals meet a winning condition",
            (
                Arg("royals", metavar="ROYALS"),
                Arg("condition", option=True, default="simple", choices=jr.CONDITIONS),
            ),
            _wins,
        ),
    ),
)
