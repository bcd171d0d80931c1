"""One game shared by two boards: what this board sends and how it judges what it receives.

No network here: :class:`RemoteGame` hears the session's events, hands messages to a ``send``
callback (reedboard/daemon/remote/link.py publishes them) and is given the messages that arrive.
Every move from the other board is checked by this board's own engine before the referee
plays it as a move from a remote source (``Session.play(move, "remote", now)``), lit for the
local player to carry out. A move that is illegal, not the next ply, for another position, or
for a side this board plays is refused with one ``remote-refused`` line and never applied; a
copy of a move already played is dropped silently. Each board's whole game is retained on the
broker, so a board that missed messages (a restart, a broker down) catches up from the other
board's state, move by move, each checked the same way.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reedboard import engine
from reedboard.daemon.remote.fairdice import ForgedReveal, Secret, check_reveal, combine
from reedboard.daemon.remote.keys import BoardKey, Pins, fingerprint, proof_of_invite, verify
from reedboard.daemon.remote.message import VERSION, topic
from reedboard.daemon.remote.settings import SEP, RemoteSettings
from reedboard.engine import Move, Position
from reedboard.hardware.board_io import ButtonEvent
from reedboard.referee.events import (
    Abandoned,
    GameEvent,
    MoveCommitted,
    NewGame,
    RemoteNotice,
    Resumed,
    Takeback,
    Thrown,
)
from reedboard.referee.session import PlayError, Session

log = logging.getLogger("reedboard")

MAX_PEERS = 4
"""Boards whose state and presence are kept (the other board, and a name it had before): a
board new beyond this is refused, so no flood of senders grows memory."""
EARLY = ("state", "takeback")
"""The messages kept from a board whose key is not yet pinned, the last of each kind, for
when its presence comes: the retained ones (a broker may hand a joining board another's
retained state before its retained presence). The rest are refused as before."""
MAX_SAID = 512
"""Lines said once that are remembered (then forgotten together)."""

Send = Callable[[str, dict[str, Any], bool], None]
"""``send(topic, message, retain)``: hand a message to the link (dropped while it is down:
the retained state carries the game across)."""


@dataclass
class Exchange:
    """One throw being agreed (reedboard/daemon/remote/fairdice.py)."""

    ply: int
    xid: str
    mine: Secret
    sides: int
    count: int
    theirs_commit: str | None = None
    theirs: Secret | None = None
    peer: str = ""
    early_reveal: dict[str, Any] | None = None
    revealed: bool = False
    my_message: dict[str, Any] | None = None
    """This board's signed commitment."""
    their_message: dict[str, Any] | None = None
    """The other board's signed commitment."""
    fixed_at: float | None = None
    """When both commitments were held and this board revealed: the throw is fixed from
    then, and no other exchange is made for its ply."""
    withheld_said: bool = False
    waited: float = 0.0
    """Seconds waited for the other board's reveal while the link was up and the other board
    online (a broker down is nobody's withholding)."""
    looked: float | None = None


@dataclass
class Waiting:
    """A move (or agreed throw) from the other board waiting for the board to be free."""

    ply: int
    text: str
    after: str | None = None
    seat: str | None = None
    proof: dict[str, Any] | None = None
    sender: str = ""


@dataclass
class Peers:
    states: dict[str, dict[str, Any]] = field(default_factory=dict)
    presence: dict[str, str] = field(default_factory=dict)
    connections: dict[str, str] = field(default_factory=dict)
    """The id of each board's last online presence: a new one is a new connection, even
    with no offline between (a broker that died sent no will)."""
    early: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """Each board's last retained message of each kind (:data:`EARLY`) heard before its key
    was pinned: checked and heard once it is (refused then, in a line, if another key signed
    them), before a newer one of their kind would be."""


class RemoteGame:
    def __init__(
        self,
        session: Session,
        settings: RemoteSettings,
        send: Send,
        *,
        clock: Callable[[], float] = time.monotonic,
        later: Callable[[Callable[[], None]], None] | None = None,
        key: BoardKey | None = None,
        pins: Pins | None = None,
    ) -> None:
        self.session = session
        self.key = key or BoardKey.generate()
        """This board's key: it signs every message sent (the link signs them)."""
        self.pins = pins or Pins(None)
        """The keys trusted for the other seats (reedboard/daemon/remote/keys.py)."""
        self.settings = settings
        self.me = settings.board
        self.seats = settings.seats
        self.match = settings.match
        self.send = send
        self.clock = clock
        self.later = later or (lambda f: f())
        """Runs a callback once the event being delivered is done (the link's loop)."""
        self.epoch = self.pins.epoch
        """Takebacks both boards agreed: a message from before one is stale."""
        self.peers = Peers()
        self.proofs: dict[int, dict[str, Any]] = {}
        """Each agreed throw's ply: both boards' commitments and reveals."""
        self.exchange: Exchange | None = None
        self.waiting: Waiting | None = None
        self.asked: int | None = None
        """A takeback this board asked for: to this ply."""
        self.asked_id = ""
        """Its request's id: an answer names it (an old answer retained is no answer)."""
        self.offered: tuple[str, int, str] | None = None
        """The other board's takeback request: (board, ply, its id)."""
        self._answered: deque[str] = deque(maxlen=64)
        """The requests answered (one heard again, retained, is not asked again)."""
        self.owed: dict[str, Any] | None = None
        """This board's last takeback message (request or answer), sent again when the link
        comes back (one made while it was down is not lost)."""
        self.foreign: set[int] = set()
        """Plies where this board's players moved a side the other board plays."""
        self.known = 0
        """Plies the store has made durable (events heard): the state sent never holds more."""
        self._said: set[str] = set()
        self.link_up = False
        """Whether the link is connected (the link says so)."""
        self.abandoned: str | None = None
        """The board that abandoned the game (withheld its reveal past the timeout)."""
        self.dirty = True
        session.events.subscribe(self._heard)

    # -- this board's game, sent -------------------------------------------------------------

    def _heard(self, event: GameEvent) -> None:
        """A session event (the store has it): send this board's moves, note the game's
        length. Runs inside the session's delivery: nothing here plays into the session."""
        if isinstance(event, MoveCommitted | Thrown):
            self.known = event.ply + 1
        elif isinstance(event, Takeback):
            self.known = event.ply
        elif isinstance(event, NewGame):
            self.known = 0
        elif isinstance(event, Resumed):
            self.known = event.moves
        if isinstance(event, MoveCommitted) and event.source != "remote":
            self._own_move(event)
        elif isinstance(event, Thrown) and event.ply not in self.proofs:
            self.later(
                lambda: self.say(
                    "remote-dice",
                    f"throw {event.move} at ply {event.ply} was not agreed with the other board:"
                    " press undo",
                )
            )
        if isinstance(event, MoveCommitted | Thrown | Takeback | NewGame | Resumed):
            self.dirty = True

    def _own_move(self, event: MoveCommitted) -> None:
        before = self.position_at(event.ply)
        if before is None:
            return
        mover = str(before.turn)
        if event.extends:
            self.later(
                lambda: self.say(
                    "remote-refused",
                    f"{event.move} extends a jump the other board already has: press undo"
                    " and make the whole chain",
                )
            )
            return
        if mover not in self.seats:
            self.foreign.add(event.ply)
            self.later(
                lambda: self.say(
                    "remote-seat",
                    f"{event.move} is {mover}'s move, played on the other board: press undo",
                )
            )
            return
        after = before.copy(stack=False)
        after.push(event.move)
        self.send(
            topic(self.match, "moves", self.me),
            self._stamp(
                "move",
                ply=event.ply,
                move=str(event.move),
                after=after.to_text(),
                seat=mover,
            ),
            False,
        )

    def position_at(self, ply: int) -> Position[Any, Any] | None:
        position = self.session.position
        extra = len(position.move_stack) - ply
        if extra < 0:
            return None
        before = position.copy()
        for _ in range(extra):
            before.pop()
        return before

    def state(self) -> dict[str, Any]:
        """This board's game as far as its store has it, for ``state/<board>``."""
        position = self.session.position
        # a move made here for the other board's side is not this board's to tell
        stack = position.move_stack[: min([self.known, *self.foreign])]
        start = position.copy()
        for _ in range(len(position.move_stack)):
            start.pop()
        now = start.copy()
        for move in stack:
            now.push(move)
        throws = {str(p): proof for p, proof in self.proofs.items() if p < len(stack)}
        return self._stamp(
            "state",
            options=start.option_values(),
            start=start.to_text(),
            moves=[str(m) for m in stack],
            position=now.to_text(),
            throws=throws,
            seats=list(self.seats),
            keys={**self.pins.keys, **dict.fromkeys(self.seats, self.key.public)},
        )

    def _stamp(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A message of this board's, signed by its key."""
        return self.key.sign(
            {
                "v": VERSION,
                "kind": kind,
                "game": self.session.game_id,
                "match": self.match,
                "epoch": self.epoch,
                "sender": self.me,
                "id": secrets.token_hex(8),
                **fields,
            }
        )

    def say(self, what: str, detail: str, once: bool = False) -> None:
        """One line to the players (an event on the session's bus): one line however the
        message it names was made, at most 300 characters."""
        detail = " ".join(detail.split())[:300]
        if once:
            if f"{what}:{detail}" in self._said:
                return
            if len(self._said) >= MAX_SAID:  # (bounded: a flood of bad messages is no leak)
                self._said.clear()
            self._said.add(f"{what}:{detail}")
        log.info("%s: %s", what, detail)
        self.session.events.publish(RemoteNotice(self.clock(), what, detail))

    # -- the other board's messages ----------------------------------------------------------

    def trusted(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` is signed by the key pinned for its sender's seats (one is
        pinned from the first signed presence that carries it, unless an invite this board
        made says which); refused in one line otherwise, and nothing changes."""
        sender, kind = message["sender"], message["kind"]
        if sender == self.me:  # this board's own, heard back: only its key signs them
            if verify(message, self.key.public):
                return False  # (nothing to do with one's own)
            self._untrusted(message, "is signed as this board, by another key")
            return False
        seats = sender.split(SEP)
        sides = {str(p) for p in self.session.position.players}
        if any(seat in self.seats for seat in seats):
            self._untrusted(message, "names a seat played on this board")
            return False
        if not all(seat in sides for seat in seats):
            self._untrusted(message, "names a seat this game does not have")
            return False
        key = self.pins.key_for(seats)
        if key is None:  # (an invite made since this board started may say whom to pin)
            self.pins.refresh()
            key = self.pins.key_for(seats)
        if key is not None:
            if verify(message, key):
                return True
            self._untrusted(message, f"is not signed by {sender}'s key ({fingerprint(key)})")
            return False
        public = message.get("key")
        if kind in EARLY:
            self._early(message)
            return False
        if not isinstance(public, str) or not verify(message, public):
            self._untrusted(message, f"comes before any signed presence of {sender}")
            return False
        if any(seat in self.pins.keys for seat in seats):
            self._untrusted(message, "joins seats pinned to different keys")
            return False
        secret = self.pins.secret
        if secret is not None and message.get("proof") != proof_of_invite(secret, public):
            self._untrusted(message, "does not hold this board's invite")
            return False
        self.pins.pin(seats, public)
        how = "by the invite" if secret is not None else "on first sight (an invite makes it sure)"
        self.say("remote-keys", f"{sender}'s key {fingerprint(public)} is pinned {how}")
        return True

    def _early(self, message: dict[str, Any]) -> None:
        """Keep ``message`` (not yet checkable) for when its sender's key is pinned."""
        sender = message["sender"]
        if sender not in self.peers.early:
            if len(self.peers.early) >= MAX_PEERS:  # (a flood of names grows no memory)
                self._untrusted(message, f"comes before any signed presence of {sender}")
                return
            log.info("messages from %s kept until its presence pins a key", sender[:40])
        self.peers.early.setdefault(sender, {})[message["kind"]] = message

    def take(self, message: dict[str, Any]) -> None:
        """Check ``message`` and hear it, with those kept for its sender until its key was
        pinned (the link's way in for each message from the broker): a presence first, then
        the kept ones; otherwise the kept ones first, but for one of its own kind (older)."""
        if not self.trusted(message):
            return
        sender, kind = message["sender"], message["kind"]
        kept = [m for k, m in self.peers.early.pop(sender, {}).items() if k != kind]
        if kind == "presence":
            self.receive(message)
        for early in kept:
            if self.trusted(early):
                self.receive(early)
        if kind != "presence":
            self.receive(message)

    def _untrusted(self, message: dict[str, Any], why: str) -> None:
        self.say(
            "remote-refused",
            f"a {message['kind']} from {message['sender'][:40]} {why}: ignored",
            once=True,
        )

    def receive(self, message: dict[str, Any]) -> None:
        """A checked message (reedboard/daemon/remote/message.py) from the broker."""
        if message["sender"] == self.me:
            return
        if message.get("game", self.session.game_id) != self.session.game_id:
            self.say(
                "remote-refused",
                f"{message['sender']} plays {message['game']}, this board"
                f" {self.session.game_id}: its messages are ignored",
                once=True,
            )
            return
        kind = message["kind"]
        sender = message["sender"]
        if (
            kind in ("presence", "state")
            and sender not in self.peers.presence
            and sender not in self.peers.states
            and len(set(self.peers.presence) | set(self.peers.states)) >= MAX_PEERS
        ):
            self.say(
                "remote-refused",
                f"a {kind} from {sender[:40]}: more boards than a match has; ignored",
                once=True,
            )
            return
        if kind == "presence":
            self._presence(message)
            return
        if message["epoch"] < self.epoch:
            return  # from before a takeback both boards agreed
        if kind == "state":
            if message["epoch"] > self.epoch:
                asked = self.asked
                if (
                    asked is not None
                    and message["epoch"] == self.epoch + 1
                    and len(message["moves"]) <= asked
                ):  # the other board took back as asked while this one was away (its answer
                    # may come after its state): take back here too
                    self.asked = None
                    self._take_back(asked)
                else:  # a takeback needs this board's word: it gave none
                    self.say(
                        "remote-refused",
                        f"{message['sender']}'s state counts {message['epoch']} takebacks, this"
                        f" board agreed to {self.epoch}: not followed",
                        once=True,
                    )
                    return
            self.peers.states[message["sender"]] = message
        elif kind == "move":
            self._move(message)
        elif kind == "commit":
            self._commit(message)
        elif kind == "reveal":
            self._reveal(message)
        elif kind == "takeback":
            self._takeback(message)
        self.step()

    def _presence(self, message: dict[str, Any]) -> None:
        board, status = message["sender"], message["status"]
        ident = message.get("id")
        again = (
            status == "online"
            and isinstance(ident, str)
            and self.peers.connections.get(board, ident) != ident
        )  # (back on a new connection, though no offline came between)
        if status == "online" and isinstance(ident, str):
            self.peers.connections[board] = ident
        was = self.peers.presence.get(board)
        if was == status and not again:
            return
        self.peers.presence[board] = status
        if status == "online":
            if was != "online":
                self.say("remote-online", f"the other board ({board}) is here")
            self.dirty = True  # it may have lost our state (a broker restarted empty)
            if self.exchange is not None:  # nor did it see this board's part of a throw
                self._resend(self.exchange)  # sent while it was away
        elif was is not None:
            self.say("remote-offline", f"the other board ({board}) has gone: playing on here")
        else:
            self.say("remote-offline", f"the other board ({board}) is not connected")

    def _move(self, message: dict[str, Any]) -> None:
        ply, text = message["ply"], message["move"]
        stack = self.session.position.move_stack
        if ply < len(stack):
            if str(stack[ply]) != text:
                self._refuse(message, f"ply {ply} here is {stack[ply]}")
            elif ply in self.foreign:  # made here by the wrong board, but it is the other's
                self.foreign.discard(ply)  # move indeed: the state sent may go past it
                self.dirty = True
            return  # a copy of a move played: nothing to do
        if ply > len(stack):
            if ply == len(stack) + 1 and self.session.position.is_chance():
                self.waiting = Waiting(
                    ply, text, message["after"], message["seat"], None, message["sender"]
                )
                return  # the throw before it is still being agreed here
            self._refuse(message, f"out of order: this board is at ply {len(stack)}")
            return
        self.waiting = Waiting(
            ply, text, message["after"], message["seat"], None, message["sender"]
        )

    def _refuse(self, message: dict[str, Any], why: str) -> None:
        what = message.get("move", message["kind"])
        self.say(
            "remote-refused",
            f"{what} (ply {message.get('ply')}) from {message['sender']}: {why}; not played",
            once=True,
        )

    def step(self) -> None:
        """Play what the other board has that this one lacks, one move at a time, when the
        board is free: a waiting move, else the next move of the other board's state."""
        position = self.session.position
        ply = len(position.move_stack)
        if self.abandoned is not None:
            return  # the game was recorded as abandoned: nothing more is played
        if self.exchange is not None and self.exchange.ply < ply:
            self.exchange = None  # its throw was made (from a state)
        pending = self.waiting
        if pending is not None and pending.ply < ply:
            self.waiting = pending = None
        if pending is None:
            pending = self._from_states(ply)
        if pending is None or pending.ply != ply:
            return
        if self._apply(pending) is not False:
            self.waiting = None
        if len(self.session.position.move_stack) > ply:
            self.dirty = True

    def _from_states(self, ply: int) -> Waiting | None:
        ours: list[str] | None = None  # made only when some board is ahead (polled often)
        for board, state in self.peers.states.items():
            theirs = state["moves"]
            if state["epoch"] != self.epoch or len(theirs) <= ply:
                continue
            if ours is None:
                ours = [str(m) for m in self.session.position.move_stack]
            if state["start"] != self.start_text() or theirs[:ply] != ours:
                diverge = next(
                    (i for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b),
                    None,
                )
                where = "its start" if diverge is None else f"ply {diverge}"
                self.say(
                    "remote-refused",
                    f"the game on {board} differs from this board's at {where}: not followed",
                    once=True,
                )
                continue
            text = theirs[ply]
            if not isinstance(text, str):
                continue
            proof = state["throws"].get(str(ply))
            return Waiting(ply, text, None, None, proof if isinstance(proof, dict) else None, board)
        return None

    def start_text(self) -> str:
        start = self.session.position.copy()
        for _ in range(len(start.move_stack)):
            start.pop()
        return start.to_text()

    def _apply(self, p: Waiting) -> bool | None:
        """True: played; False: the board is busy (tried again); None: refused."""
        session = self.session
        position = session.position
        message = {"kind": "move", "move": p.text, "ply": p.ply, "sender": p.sender}
        try:
            move = position.parse_move(p.text)
        except engine.EngineError as exc:
            self._refuse(message, str(exc))
            return None
        if position.is_chance():
            if p.proof is None:
                if self.exchange is None or self.exchange.ply != p.ply:
                    self._refuse(message, "a throw comes only from both boards' reveals")
                return False if self.exchange is not None else None
            try:
                values = self.check_proof(p.proof, p.ply)
            except ForgedReveal as exc:
                self._refuse(message, f"forged dice: {exc}")
                return None
            if position.throw_values(move) != values:
                self._refuse(message, f"the reveals make {values}, not {p.text}")
                return None
            return self._play(move, p.ply, p.proof)
        mover = str(position.turn)
        if mover in self.seats:
            self._refuse(message, f"it is {mover}'s turn, and {mover} plays on this board")
            return None
        if p.seat is not None and p.seat != mover:
            self._refuse(message, f"sent as {p.seat}'s move, but it is {mover}'s turn")
            return None
        if move not in position.legal_moves:
            self._refuse(message, f"illegal in {position.to_text()}")
            return None
        if p.after is not None:
            after = position.copy(stack=False)
            after.push(move)
            if after.to_text() != p.after:
                self._refuse(message, f"it leaves {after.to_text()}, not {p.after}")
                return None
        return self._play(move, p.ply, None)

    def _play(self, move: Move, ply: int, proof: dict[str, Any] | None) -> bool:
        if proof is not None:
            self.proofs[ply] = proof
        try:
            self.session.play(move, "remote", self.clock())
        except PlayError:
            if proof is not None:
                del self.proofs[ply]
            return False  # the board is busy: tried again once it is free
        return True

    # -- dice --------------------------------------------------------------------------------

    def check_proof(self, proof: dict[str, Any], ply: int) -> tuple[int, ...]:
        """A throw's record for ``ply`` checked against this board's own key and the other
        board's pinned one (module :func:`check_proof`)."""
        commits = proof.get("commits")
        others = [b for b in commits if b != self.me] if isinstance(commits, dict) else []
        if len(others) != 1:
            raise ForgedReveal(f"a throw's record must hold {self.me}'s commitment and one other")
        theirs = self.pins.key_for(others[0].split(SEP))
        if theirs is None:
            raise ForgedReveal(f"{others[0][:40]}'s key is not pinned here")
        keys = {self.me: self.key.public, others[0]: theirs}
        floor = max((e for p, e in self.pins.retaken if p <= ply), default=0)
        values = check_proof(proof, self.session.position, keys, ply, floor)
        seen = self.pins.revealed_against(ply, str(proof.get("xid")))
        their_commit = commits[others[0]] if isinstance(commits, dict) else None
        said = their_commit if isinstance(their_commit, dict) else {}
        if seen is None or (said.get("epoch"), said.get("hash")) != seen:
            raise ForgedReveal(
                f"ply {ply}'s record is not the exchange this board revealed in"
                f" ({others[0][:40]}'s commitment differs from the one it saw)"
            )
        return values

    def throw(self) -> bool:
        """This board's `roll`: start agreeing a throw when its side is to throw. True when
        the press is remote play's (a throw due), False when the referee should have it."""
        position = self.session.position
        if not position.is_chance():
            return False
        if str(position.turn) not in self.seats:
            self.say("remote-dice", f"it is {position.turn}'s throw, on the other board")
            return True
        if self.abandoned is not None:
            self.say("remote-dice", f"the game was abandoned by {self.abandoned}: no throw")
            return True
        ply = len(position.move_stack)
        exchange = self.exchange
        if exchange is not None and exchange.ply == ply:  # the same exchange, sent again
            self._resend(exchange)
            if exchange.fixed_at is not None:
                self._say_withheld(exchange)
            else:
                self.say("remote-dice", "throwing with the other board (asked again)")
            return True
        self._join(ply, secrets.token_hex(8))
        if self.link_up:
            self.say("remote-dice", "throwing with the other board")
        else:
            self.say("remote-dice", "the broker is not reached: the throw is made when it is")
        return True

    def _resend(self, exchange: Exchange) -> None:
        """Send this board's part of ``exchange`` again (a message may have been lost)."""
        if exchange.my_message is not None:
            self.send(topic(self.match, "dice", self.me), exchange.my_message, False)
        if exchange.revealed:
            self._send_reveal(exchange)

    def connected(self) -> None:
        """The link (re)connected: an exchange under way, and the last takeback message, are
        sent again."""
        if self.exchange is not None:
            self._resend(self.exchange)
        if self.owed is not None:
            self.send(topic(self.match, "takeback", self.me), self.owed, True)

    def _say_withheld(self, exchange: Exchange) -> None:
        left = max(0, round(self.settings.reveal_timeout - exchange.waited))
        self.say(
            "remote-dice",
            f"ply {exchange.ply}'s throw is fixed: waiting for {exchange.peer}'s reveal"
            f" ({left} s before the game is recorded as abandoned by {exchange.peer})",
        )

    def tick(self) -> None:
        """Look at the clock: a reveal withheld past the timeout (counted while the link is
        up and the other board online) abandons the game."""
        exchange = self.exchange
        if exchange is not None and exchange.ply != len(self.session.position.move_stack):
            self.exchange = exchange = None  # its throw was made (from a state), or taken back
        if exchange is None or exchange.fixed_at is None or self.abandoned is not None:
            return
        now = self.clock()
        last, exchange.looked = exchange.looked, now
        online = self.peers.presence.get(exchange.peer) != "offline"
        if last is not None and self.link_up and online:
            exchange.waited += now - last
        waited = exchange.waited
        if waited >= self.settings.reveal_timeout:
            self.abandoned = exchange.peer
            self.exchange = None
            detail = (
                f"{exchange.peer} withheld its dice reveal for ply {exchange.ply} for"
                f" {int(waited)} s: the game is recorded as abandoned by {exchange.peer}"
            )
            self.say("remote-abandoned", detail)
            self.session.events.publish(Abandoned(self.clock(), exchange.peer, detail))
        elif not exchange.withheld_said and waited >= min(5.0, self.settings.reveal_timeout / 2):
            exchange.withheld_said = True
            self._say_withheld(exchange)

    def _join(self, ply: int, xid: str) -> Exchange | None:
        spec = self.session.position.dice_spec
        if spec is None:
            return None
        count, sides = spec
        exchange = Exchange(ply, xid, Secret.draw(count, sides), sides, count)
        self.exchange = exchange
        exchange.my_message = self._stamp("commit", ply=ply, xid=xid, hash=exchange.mine.commitment)
        self.send(topic(self.match, "dice", self.me), exchange.my_message, False)
        return exchange

    def _commit(self, message: dict[str, Any]) -> None:
        position = self.session.position
        ply, xid = message["ply"], message["xid"]
        if ply != len(position.move_stack) or not position.is_chance():
            return  # an exchange for a throw already made (or taken back)
        if self.abandoned is not None:
            return
        exchange = self.exchange
        if exchange is not None and exchange.ply == ply and exchange.fixed_at is not None:
            if xid != exchange.xid:  # fixed: a board that withholds gets no new exchange
                self.say(
                    "remote-dice",
                    f"{message['sender']} asks to throw ply {ply} anew: refused, the throw is"
                    f" fixed; waiting for its reveal",
                    once=True,
                )
            elif message["hash"] == exchange.theirs_commit:
                self._send_reveal(exchange)  # its copy: it may have missed the reveal
            return
        if exchange is None or exchange.ply != ply:
            exchange = self._join(ply, xid)
        elif exchange.xid != xid:
            if exchange.theirs_commit is None and xid > exchange.xid:
                return  # both pressed roll: the lower id goes on, the other board joins it
            exchange = self._join(ply, xid)  # theirs goes on (nothing of this board's shown)
        if exchange is None:
            return
        exchange.theirs_commit, exchange.peer = message["hash"], message["sender"]
        exchange.their_message = message
        if not exchange.revealed:
            exchange.revealed = True
            exchange.fixed_at = self.clock()
            # kept before the reveal leaves: a throw's record is taken only for an exchange
            # this board revealed in, with the commitment it saw (the other board cannot sign
            # another after seeing this board's values)
            self.pins.reveal(ply, exchange.xid, self.epoch, message["hash"])
            self._send_reveal(exchange)
        if exchange.early_reveal is not None:
            early, exchange.early_reveal = exchange.early_reveal, None
            self._reveal(early)

    def _send_reveal(self, exchange: Exchange) -> None:
        self.send(
            topic(self.match, "dice", self.me),
            self._stamp(
                "reveal",
                ply=exchange.ply,
                xid=exchange.xid,
                nonce=exchange.mine.nonce.hex(),
                values=list(exchange.mine.values),
            ),
            False,
        )

    def _reveal(self, message: dict[str, Any]) -> None:
        exchange = self.exchange
        if exchange is None or exchange.xid != message["xid"] or exchange.ply != message["ply"]:
            return  # an exchange given up (the other board started it anew)
        if exchange.theirs_commit is None:
            exchange.early_reveal = message  # came before its commitment: checked then
            return
        try:
            theirs = check_reveal(
                exchange.theirs_commit,
                message["nonce"],
                message["values"],
                exchange.count,
                exchange.sides,
            )
        except ForgedReveal as exc:
            self.say(
                "remote-refused",
                f"dice reveal from {message['sender']} for ply {exchange.ply}: {exc};"
                f" the throw stays fixed: waiting for {exchange.peer}'s true reveal",
            )
            return
        exchange.theirs = theirs
        values = combine(exchange.mine.values, theirs.values, exchange.sides)
        assert exchange.my_message is not None and exchange.their_message is not None
        proof = {
            "xid": exchange.xid,
            "commits": {self.me: exchange.my_message, exchange.peer: exchange.their_message},
            "reveals": {
                self.me: {"nonce": exchange.mine.nonce.hex(), "values": list(exchange.mine.values)},
                exchange.peer: {"nonce": theirs.nonce.hex(), "values": list(theirs.values)},
            },
        }
        self.exchange = None
        move = self.session.position.throw(values)
        self.waiting = Waiting(exchange.ply, str(move), None, None, proof, exchange.peer)

    # -- takebacks ---------------------------------------------------------------------------

    def button(self, button: str) -> bool:
        """A button pressed on this board: True when remote play takes it (a throw to agree,
        a takeback to ask for or answer), False when the referee should have it."""
        if button == "roll":
            return self.throw()
        if button == "undo":
            stack = self.session.position.move_stack
            moved = [ply for ply, m in enumerate(stack) if m.points()]
            if not moved or moved[-1] in self.foreign:
                return False  # a move the other board never had: undone here alone
            if self.offered is not None:
                self._answer(True)
                return True
            self.asked = moved[-1]
            request = self._stamp("takeback", what="request", ply=moved[-1])
            self.asked_id = request["id"]
            self._send_takeback(request)
            self.say("remote-takeback", f"asked the other board to take back to ply {moved[-1]}")
            return True
        if button == "confirm" and self.offered is not None:
            self._answer(False)
            return True
        return False

    def _answer(self, accept: bool) -> None:
        assert self.offered is not None
        board, ply, request = self.offered
        self.offered = None
        self._answered.append(request)
        what = "accept" if accept else "refuse"
        self._send_takeback(self._stamp("takeback", what=what, ply=ply, request=request))
        if accept:
            self._take_back(ply)
        else:
            self.say("remote-takeback", f"refused {board}'s takeback")

    def _send_takeback(self, message: dict[str, Any]) -> None:
        """Retained (a board that was away hears it when it returns), and owed until the link
        has been up since (one made while it was down is sent when it is back)."""
        self.owed = message
        self.send(topic(self.match, "takeback", self.me), message, True)

    def _takeback(self, message: dict[str, Any]) -> None:
        what, ply, board = message["what"], message["ply"], message["sender"]
        if what == "request":
            if ply >= len(self.session.position.move_stack):
                return
            if message["id"] in self._answered or (
                self.offered is not None and self.offered[2] == message["id"]
            ):
                return  # the same request heard again (retained): asked once
            self.offered = (board, ply, message["id"])
            self.say(
                "remote-takeback",
                f"{board} asks to take back to ply {ply}: undo accepts, confirm refuses",
            )
        elif (
            what in ("accept", "refuse")
            and self.asked == ply
            and message.get("request") == self.asked_id
        ):
            self.asked = None
            self.owed = None
            self.send(topic(self.match, "takeback", self.me), {}, True)  # the request answered
            if what == "accept":
                self._take_back(ply)
            else:
                self.say("remote-takeback", f"{board} refused the takeback")

    def _take_back(self, ply: int) -> None:
        """Both boards agreed: the referee takes back to ``ply`` (its undo, guiding the
        pieces back), and a new epoch begins."""
        self.epoch += 1
        self.pins.epoch = self.epoch  # (kept: a restarted board counts them still)
        self.pins.retaken.append((ply, self.epoch))  # (a throw at or past it: this epoch on)
        self.pins.save()
        self.waiting, self.exchange = None, None
        session = self.session
        while len(session.position.move_stack) > ply:
            before = len(session.position.move_stack)
            session.on_event(ButtonEvent("undo", self.clock()), self.clock())
            if len(session.position.move_stack) >= before:
                break
        self.foreign = {p for p in self.foreign if p < ply}
        self.proofs = {p: v for p, v in self.proofs.items() if p < ply}
        self.dirty = True
        self.say("remote-takeback", f"taken back to ply {ply}")


def check_proof(
    proof: dict[str, Any],
    position: Position[Any, Any],
    keys: dict[str, str],
    ply: int,
    epoch: int = 0,
) -> tuple[int, ...]:
    """An agreed throw's record checked whole: each board's commitment signed by its key
    (``keys``: board -> public key; the checking board's own among them, so a record holds
    its own commitment or is refused), for ``ply``, one exchange, an epoch from ``epoch`` on,
    and each reveal matching its commitment. The throw it makes; ForgedReveal otherwise."""
    if position.dice_spec is None:
        raise ForgedReveal(f"{position.game_id} has no dice")
    count, sides = position.dice_spec
    commits, reveals = proof.get("commits"), proof.get("reveals")
    if not isinstance(commits, dict) or not isinstance(reveals, dict) or len(commits) != 2:
        raise ForgedReveal("a throw's record needs two boards' commitments and reveals")
    if set(commits) != set(keys):
        raise ForgedReveal(f"a throw's record must hold {' and '.join(sorted(keys))}'s commitments")
    xid = proof.get("xid")
    secrets_: list[Secret] = []
    for board, committed in sorted(commits.items()):
        reveal = reveals.get(board)
        if not isinstance(committed, dict) or not isinstance(reveal, dict):
            raise ForgedReveal(f"no commitment or reveal of {board}")
        if not verify(committed, keys[board]):
            raise ForgedReveal(f"{board}'s commitment is not signed by its key")
        if (
            committed.get("kind") != "commit"
            or committed.get("sender") != board
            or committed.get("ply") != ply
            or committed.get("xid") != xid
            or not isinstance(committed.get("epoch"), int)
            or committed["epoch"] < epoch
        ):
            raise ForgedReveal(f"{board}'s commitment is for another throw")
        nonce, values, hashed = reveal.get("nonce"), reveal.get("values"), committed.get("hash")
        if (
            not isinstance(nonce, str)
            or not isinstance(values, list)
            or not isinstance(hashed, str)
        ):
            raise ForgedReveal(f"{board}'s reveal has no nonce or values")
        secrets_.append(check_reveal(hashed, nonce, values, count, sides))
    return combine(secrets_[0].values, secrets_[1].values, sides)
