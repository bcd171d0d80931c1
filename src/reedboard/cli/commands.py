"""The ``reedboard`` commands and their one-line help, in the order ``reedboard --help`` lists
them, and that list rendered without argparse: the parser (parser.py) is built from this table,
and ``reedboard --help`` prints :func:`top_help` without importing or building it (a test keeps
the two renderings the same)."""

from __future__ import annotations

import os
import sys

from reedboard.engine.registry import TABLE_ASSISTANTS

DESCRIPTION = "An augmented wooden board for old board games: rules engine and daemon."

COMMANDS: dict[str, str] = {
    "games": "list the game ids, one a line",
    "perft": "count the leaf positions to a depth (the count is last)",
    "moves": "list the legal moves, one a line",
    "wiring": "board wiring: diagram, pin table, parts list, check and drilling templates",
    "run": "the daemon (on the simulated board without a build)",
    "watch": "follow a remote match read-only, a line per move",
    "invite": "an invite code for the other board (or a spectator), passed by hand",
    "doctor": "what stands between this machine and a working board, a line each",
    "report": "one archive for a bug report (versions, config, doctor; secrets blanked)",
    "broker-files": "a Mosquitto password file and ACL for a match",
    "firmware": "the Pico firmware: its config, installing it",
    **TABLE_ASSISTANTS,
    "demo": "a scripted game through the whole stack, drawn here",
    "replay": "feed a recorded sensor trace through the controller",
    "history": "list stored games, or print one as text",
    "hint": "the suggested move, or none",
    "analyse": "Peg Solitaire solved, or who wins McLoughlin's Fox and Geese (proof search)",
    "apply": "play moves and print the position and outcome as JSON",
}

USAGE = "usage: reedboard [-h] [--version] COMMAND ..."
SAME_AS_ARGPARSE = ((3, 11), (3, 12), (3, 13))
"""The Pythons whose argparse lays the list out as :func:`top_help` does (a test checks each it
runs on); on others (3.14 colours it) argparse prints it."""
OPTIONS = (
    ("-h, --help", "show this help message and exit"),
    ("--version", "show program's version number and exit"),
)


def _chunks(text: str) -> list[tuple[str, str]]:
    """The pieces ``textwrap`` may break a line between, each with what joins it to the one
    before: words (a space), and a hyphenated word after its hyphen when two letters come
    before it and a letter after (``read-`` ``only``, joined by nothing)."""
    out: list[tuple[str, str]] = []
    for word in text.split():
        start, glue = 0, " "
        for i in range(2, len(word) - 2):
            before = word[i - 2 : i].isalpha() or (
                i >= 3 and _letter_hyphen_letter(word[i - 3 : i])
            )
            after = word[i + 1 : i + 3].isalpha() or _letter_hyphen_letter(word[i + 1 : i + 4])
            if word[i] == "-" and before and after:
                out.append((word[start : i + 1], glue))
                start, glue = i + 1, ""
        out.append((word[start:], glue))
    return out


def _letter_hyphen_letter(text: str) -> bool:
    return len(text) == 3 and text[0].isalpha() and text[1] == "-" and text[2].isalpha()


def _wrap(text: str, width: int) -> list[str]:
    """``textwrap.wrap(text, width)`` for one line of help, its spaces single, no word longer
    than ``width`` and no ``--`` inside a word (without importing textwrap and re: milliseconds
    at every start); tests check it against textwrap, and the list against argparse."""
    lines: list[str] = []
    line = ""
    for chunk, glue in _chunks(text):
        if line and len(line) + len(glue) + len(chunk) > width:
            lines.append(line)
            line = chunk
        else:
            line = line + glue + chunk if line else chunk
    return [*lines, line] if line else lines


def columns() -> int:
    """The terminal's width as argparse takes it (``shutil.get_terminal_size``)."""
    try:
        width = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            width = 0
    return width or 80


def top_help(width: int | None = None) -> str | None:
    """``reedboard --help`` as argparse renders it for a terminal ``width`` wide (None: this
    one); None when too narrow to render here (argparse then wraps the usage line too) or on a
    Python not checked against."""
    if sys.version_info[:2] not in SAME_AS_ARGPARSE:
        return None
    width = (columns() if width is None else width) - 2
    if width < len(USAGE) + 2:
        return None
    # the help column: the longest entry and its indent, as argparse measures it (3.13 counts
    # the commands' own indent, 4; 3.11 and 3.12 the list's, 2), capped at 24
    indent = 4 if sys.version_info >= (3, 13) else 2
    longest = max(len("COMMAND") + 2, *(len(n) + indent for n in COMMANDS), 10 + 2)
    position = max(min(longest + 2, min(24, width - 20)), 0)

    def item(indent: int, name: str, text: str) -> list[str]:
        room = position - indent - 2
        lines = _wrap(text, max(width - position, 11))
        if len(name) <= room:
            first = [f"{' ' * indent}{name:<{room}}  {lines[0]}"]
        else:
            first = [f"{' ' * indent}{name}", f"{' ' * position}{lines[0]}"]
        return first + [f"{' ' * position}{line}" for line in lines[1:]]

    out = [USAGE, "", *_wrap(DESCRIPTION, width), "", "positional arguments:"]
    out.append("  COMMAND")
    for name, text in COMMANDS.items():
        out += item(4, name, text)
    out += ["", "options:"]
    for name, text in OPTIONS:
        out += item(2, name, text)
    return "\n".join(out) + "\n"
