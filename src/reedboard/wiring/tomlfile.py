"""Reading a TOML data file so that every mistake is one line naming the file, line and key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from reedboard.engine.errors import ReedboardError
from reedboard.engine.files import MAX_DEPTH, read_bounded, too_deep


class WiringError(ReedboardError, ValueError):
    """A layout or build file that cannot be used; the message is one line naming the place."""


def expand(path: Path) -> Path:
    """``path`` with ``~`` or ``~user`` expanded; WiringError (one line) where there is no
    such home folder."""
    try:
        return path.expanduser()
    except RuntimeError:  # ~nosuchuser, or no home for ~
        raise WiringError(f"{str(path)!r}: no such home folder") from None


def resolve(base: Path, text: str) -> Path:
    """A path written in a file whose folder is ``base``: ``~`` expanded, and a relative path
    taken from ``base`` (never from wherever the program was started)."""
    path = expand(Path(text))
    return path if path.is_absolute() else base / path


def find(folder: Path, name_or_path: str | Path, kind: str) -> Path:
    """A shipped file by name (``folder/NAME.toml``) or any ``.toml`` path (``~`` expanded);
    an unknown name lists the shipped ones."""
    path = Path(name_or_path)
    if path.suffix == ".toml":
        return expand(path)
    path = folder / f"{name_or_path}.toml"
    if not path.exists():
        shipped = ", ".join(sorted(p.stem for p in folder.glob("*.toml")))
        raise WiringError(f"no {kind} {str(name_or_path)!r} ({kind}s: {shipped})")
    return path


class TomlFile:
    """A parsed TOML file that can point at its own lines in error messages."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.text = read_bounded(path).decode("utf-8")
        except OSError as exc:
            raise WiringError(f"{path}: cannot read: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise WiringError(f"{path}: not UTF-8 text ({exc.reason})") from None
        try:
            self.data: dict[str, Any] = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise WiringError(f"{path}: bad TOML: {exc}") from None
        except RecursionError:  # (the parser's own limit)
            self.data = {}
        else:
            if not too_deep(self.data):
                return
        raise WiringError(f"{path}: tables or lists nested deeper than {MAX_DEPTH} levels")

    def fail(self, key: str, what: str) -> WiringError:
        """An error for the dotted ``key`` (``leds.driver``, ``points.b1.led``,
        ``matrix.rows[2]``), with the line where it is assigned when it can be found."""
        parts = key.split(".")
        section = parts[0] if len(parts) > 1 else None
        name = re.sub(r"\[\d+\]$", "", parts[1] if section else parts[0])
        line = self.line_of(name, section)
        where = f"{self.path}:{line}" if line else str(self.path)
        return WiringError(f"{where}: {key}: {what}")

    def line_of(self, key: str, section: str | None = None) -> int | None:
        """The line assigning ``key``: inside ``[section]`` when given, else at the top level;
        failing that, anywhere, or the section's header."""
        assign = re.compile(rf'^\s*"?{re.escape(key)}"?\s*=')
        header = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
        current: str | None = None
        for n, line in enumerate(self.text.splitlines(), start=1):
            if m := header.match(line):
                current = m.group(1)
            elif current == section and assign.match(line):
                return n
        if section is None:
            return None
        for n, line in enumerate(self.text.splitlines(), start=1):
            if assign.match(line) or ((m := header.match(line)) and m.group(1) == section):
                return n
        return None

    def table(
        self, key: str, source: dict[str, Any] | None = None, *, required: bool = True
    ) -> dict[str, Any]:
        src = self.data if source is None else source
        if key not in src:
            if required:
                raise self.fail(key, "missing")
            return {}
        value = src[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {value!r}")
        return value

    def need(
        self, key: str, kind: type, source: dict[str, Any] | None = None, name: str | None = None
    ) -> Any:
        """``source[key]`` (default: the top level), checked to be of ``kind``; ``name`` is the
        dotted key for messages."""
        src = self.data if source is None else source
        label = name or key
        if key not in src:
            raise self.fail(label, "missing")
        return self.check(label, src[key], kind)

    def get(self, key: str, kind: type, default: Any, source: dict[str, Any], name: str) -> Any:
        if key not in source:
            return default
        return self.check(name, source[key], kind)

    def check(self, name: str, value: Any, kind: type) -> Any:
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise self.fail(name, f"expected a whole number, got {value!r}")
        if kind is float and (not isinstance(value, int | float) or isinstance(value, bool)):
            raise self.fail(name, f"expected a number, got {value!r}")
        if kind not in (int, float) and not isinstance(value, kind):
            raise self.fail(name, f"expected a {kind.__name__}, got {value!r}")
        return value

    def no_unknown(self, source: dict[str, Any], known: tuple[str, ...], prefix: str) -> None:
        for key in source:
            if key not in known:
                name = f"{prefix}.{key}" if prefix else key
                raise self.fail(name, f"unknown key (known here: {', '.join(known)})")
