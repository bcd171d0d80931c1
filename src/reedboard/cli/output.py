"""What the command line writes: a closed standard output (``reedboard moves GAME | head -1``)
silences what is left, it never says "Broken pipe"."""

from __future__ import annotations

import os
import sys


def silence_stdout() -> None:
    """Standard output is a closed pipe: send what is left nowhere, so that neither we nor
    Python's exit says "Broken pipe"."""
    import contextlib  # here, not at every start

    with contextlib.suppress(OSError, ValueError, AttributeError):  # a test's capture: no file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def say(text: str) -> None:
    """The daemon's output: a closed standard output (``| head``) silences it, the game goes
    on."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        silence_stdout()
