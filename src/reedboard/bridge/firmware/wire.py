# The line framing of the Pico link, the same file on both ends: the firmware (MicroPython on the
# Pico and its Unix port) and the Pi (CPython) import it. Every function here is total: any
# bytes in, a value or None out, never an exception. reedboard/bridge/PROTOCOL.md writes it down.
#
# Keep it to what MicroPython has: no typing, no dataclasses, no int.bit_length, and no integer
# above 2**30 in the hot paths (the Pico's small ints are 31 bits; bigger ones are allocated).
# Annotations are fine (MicroPython parses and ignores them; they use builtins only), so the
# Pi's `mypy --strict` checks this file with the rest of reedboard.bridge.

VERSION = "rb3"
MAX_LINE = 200
BUTTONS = ("roll", "undo", "hint", "confirm", "new")
GROUPS_PER_LINE = 4
HEX = "0123456789abcdef"

try:
    from binascii import crc32 as _native_crc32

    NATIVE_CRC32 = True
except ImportError:  # a MicroPython built without binascii.crc32
    NATIVE_CRC32 = False

_LO: list[int] = []
_HI: list[int] = []


def _tables() -> None:
    # the CRC-32 table split into 16-bit halves, so the Pico never makes a big integer
    for n in range(256):
        hi, lo = 0, n
        for _ in range(8):
            carry = lo & 1
            lo = (lo >> 1) | ((hi & 1) << 15)
            hi >>= 1
            if carry:
                lo ^= 0x8320
                hi ^= 0xEDB8
        _LO.append(lo)
        _HI.append(hi)


def crc32hex_py(data: bytes) -> str:
    """CRC-32 (IEEE 802.3, as zlib's) of ``data`` in eight lowercase hex digits, in pure Python
    on 16-bit halves: what a MicroPython without ``binascii.crc32`` uses."""
    if not _LO:
        _tables()
    hi = lo = 0xFFFF
    for byte in data:
        i = (lo ^ byte) & 0xFF
        lo = _LO[i] ^ (((hi & 0xFF) << 8) | (lo >> 8))
        hi = _HI[i] ^ (hi >> 8)
    return hexw(hi ^ 0xFFFF, 4) + hexw(lo ^ 0xFFFF, 4)


def crc32hex(data: bytes) -> str:
    """CRC-32 of ``data`` (bytes) in eight lowercase hex digits (``123456789``: ``cbf43926``)."""
    if not NATIVE_CRC32:
        return crc32hex_py(data)
    return "%08x" % (_native_crc32(data) & 0xFFFFFFFF)


def hexw(value: int, width: int) -> str:
    """``value`` in lowercase hex, zero-padded to ``width`` digits."""
    text = "%x" % value
    return "0" * (width - len(text)) + text


def unhex(text: str, start: int, width: int) -> int:
    """The value of ``width`` lowercase hex digits of ``text`` from ``start``, or -1 if they are
    not all there or not all lowercase hex."""
    if start < 0 or start + width > len(text) or width < 1:
        return -1
    value = 0
    for i in range(start, start + width):
        digit = HEX.find(text[i])
        if digit < 0:
            return -1
        value = (value << 4) | digit
    return value


def fields(body: str, kind: str, widths: tuple[int, ...]) -> list[int] | None:
    """The values of ``body``'s hex fields if it is exactly ``kind`` followed by one field of
    each width, each after one space; else None."""
    n = len(kind)
    for w in widths:
        n += 1 + w
    if len(body) != n or body[: len(kind)] != kind:
        return None
    out: list[int] = []
    i = len(kind)
    for w in widths:
        if body[i] != " ":
            return None
        value = unhex(body, i + 1, w)
        if value < 0:
            return None
        out.append(value)
        i += 1 + w
    return out


def frame(body: str | bytes) -> bytes:
    """The wire form of a body (str or bytes): ``BODY*CCCCCCCC\\n``."""
    data = body.encode() if isinstance(body, str) else body
    return data + b"*" + crc32hex(data).encode() + b"\n"


def check(line: bytes) -> str | None:
    """The body (str) of a framed line given without its newline, or None if it is damaged:
    too short or long, a byte outside 0x20-0x7E, no ``*`` nine bytes from the end, a ``*`` in
    the body, or a checksum that is not the body's CRC-32 in lowercase hex."""
    n = len(line)
    if n < 10 or n > MAX_LINE or line[n - 9] != 0x2A:
        return None
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            return None
    body = line[: n - 9]
    if b"*" in body or bytes(line[n - 8 :]) != crc32hex(body).encode():
        return None
    return body.decode()


class LineParser:
    """Feed bytes in chunks split anywhere; :meth:`feed` returns the bodies of the good lines.
    A line that is too long (its bytes are skipped up to its newline, whatever its length),
    empty, or fails :func:`check` goes to :meth:`rejected` (which counts it in ``bad``)."""

    def __init__(self) -> None:
        self.buf = b""
        self.skipping = False
        self.bad = 0

    def rejected(self, line: bytes | None) -> None:
        """A damaged line (None: one too long to keep). Subclasses may look at it."""
        self.bad += 1

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        start = 0
        n = len(data)
        while start < n:
            i = data.find(b"\n", start)
            if i < 0:
                if not self.skipping:
                    self.buf += data[start:]
                    if len(self.buf) > MAX_LINE:
                        self.buf = b""
                        self.skipping = True
                        self.rejected(None)
                return out
            if self.skipping:
                self.skipping = False
            else:
                line = self.buf + data[start:i]
                self.buf = b""
                if len(line) > MAX_LINE:
                    self.rejected(None)
                else:
                    body = check(line)
                    if body is None:
                        self.rejected(line)
                    else:
                        out.append(body)
            start = i + 1
        return out
