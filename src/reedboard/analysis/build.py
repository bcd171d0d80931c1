"""A C program shipped as source, built once with the system compiler into the user's cache
folder, and found there again (named by a hash of its source and flags)."""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

from reedboard.errors import ControllerError

FLAGS = (("-O2", "-march=native"), ("-O2",))
"""Tried in order: the machine's own instructions first (x86's pdep/pext), plain -O2 where the
compiler does not take -march=native."""


class BuildError(ControllerError):
    """The program cannot be built here (no compiler, or it failed): one line saying why."""


def program(source: Path, folder: Path) -> Path:
    """The program built from ``source`` (a C file), kept in ``folder``; built now if missing."""
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        raise BuildError(
            f"{source.name} is built once with a C compiler, and {compiler!r} is not installed"
            " (on Debian: sudo apt-get install gcc)"
        )
    text = source.read_bytes()
    errors = []
    for flags in FLAGS:
        digest = hashlib.sha256(
            text + " ".join((compiler, *flags, platform.machine())).encode()
        ).hexdigest()[:16]
        target = folder / f"{source.stem}-{digest}"
        if target.is_file():
            return target
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
        os.close(fd)
        done = subprocess.run(
            [compiler, *flags, "-o", tmp, str(source)], capture_output=True, text=True
        )
        if done.returncode == 0:
            os.chmod(tmp, 0o755)
            os.replace(tmp, target)
            return target
        os.unlink(tmp)
        errors.append(done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"])
    raise BuildError(f"{source.name} did not build with {compiler}: {errors[-1][0]}")
