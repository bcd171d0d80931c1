"""Files: reading one a user names, bounded, and writing one whole or not at all.

Reading a file a user names, bounded: a regular file only (a FIFO, ``/dev/zero`` or a device
is refused at once, never read or waited on), and at most a size cap.

Every file reedboard reads from a user (a config, a layout, a build, Messenger Boy's orders, a
trace) comes through :func:`read_bounded`; the errors are :class:`OSError` with ``strerror``
saying what is wrong, so each caller's one line names the file as it does for any unreadable
one. :func:`write_atomic` writes a file reedboard keeps (a solved table, the black box, pinned
keys) so that a power cut or a full disk leaves the old one whole.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

MAX_FILE = 4 * 1024 * 1024
"""The largest config, layout, build or orders file (each is a few kB)."""
MAX_TRACE = 256 * 1024 * 1024
"""The largest trace (hours of play are a few MB)."""
MAX_DEPTH = 16
"""Tables and lists nested deeper than this in a TOML file are refused (ours nest 3)."""

KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def read_bounded(path: str | Path, limit: int = MAX_FILE) -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes; OSError otherwise
    (its ``strerror`` says why: ``not a regular file (a FIFO)``, ``larger than 4 MB``)."""
    try:  # looked at before it is opened: opening a device can do something (a watchdog
        mode = os.stat(path).st_mode  # armed, a serial line's board reset)
    except ValueError as exc:  # a NUL in the name
        raise OSError(errno.EINVAL, f"not a file name ({exc})") from None
    if not stat.S_ISREG(mode):
        raise OSError(
            errno.EINVAL, f"not a regular file ({KINDS.get(stat.S_IFMT(mode), 'not a file')})"
        )
    try:  # O_NONBLOCK: a FIFO put there since opens without waiting for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except ValueError as exc:
        raise OSError(errno.EINVAL, f"not a file name ({exc})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = KINDS.get(stat.S_IFMT(mode), "not a file")
            raise OSError(errno.EINVAL, f"not a regular file ({kind})")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 16):
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"larger than {_size(limit)}")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether tables and lists in ``value`` nest deeper than ``limit`` (walked without
    recursion)."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit} bytes"


def write_atomic(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` so that it holds either the old contents or the new, whole: ``write``
    fills a temporary file beside it (mode 0600), which is synced, then renamed over it, and
    the rename made durable where the OS allows. The temporary file is removed on failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
