"""Game options: each game declares a frozen dataclass; these helpers build and check it.

Options come from Python (typed values) or from the command line (``key=value`` strings);
either way an unknown key or a bad value raises :class:`InvalidOptionError` naming the key.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from reedboard.engine.errors import InvalidOptionError

T = TypeVar("T")


def make_options(cls: type[T], game_id: str, values: Mapping[str, object]) -> T:
    """Build the options dataclass ``cls`` from ``values``; strings are converted by field type."""
    if not values:
        return cls()  # every field has a default; the common case, on every start position
    fields, hints = _fields(cls)
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise InvalidOptionError(f"{game_id}: unknown option {key!r} (options: {known})")
        kwargs[key] = _convert(game_id, key, hints[key], value)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InvalidOptionError(f"{game_id}: {exc}") from None


_FIELDS: dict[type[Any], tuple[dict[str, dataclasses.Field[Any]], dict[str, Any]]] = {}


def _fields(cls: type[Any]) -> tuple[dict[str, dataclasses.Field[Any]], dict[str, Any]]:
    """The fields of an options class by name, and their resolved types (slow to resolve:
    once a class)."""
    if cls not in _FIELDS:
        fields = {f.name: f for f in dataclasses.fields(cls)}
        _FIELDS[cls] = (fields, typing.get_type_hints(cls))
    return _FIELDS[cls]


FILE = {"file": True}
"""Field metadata of an option whose value names a file:
``orders: str = field(default="", metadata=FILE)``."""


def file_options(cls: type[object]) -> tuple[str, ...]:
    """The names of the options dataclass ``cls``'s fields that name a file."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("file"))  # type: ignore[arg-type]


def _convert(game_id: str, key: str, hint: Any, value: object) -> object:
    if not isinstance(value, str):
        return _checked(game_id, key, hint, value)
    where = f"{game_id}: option {key}={value!r}"
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value.lower() in ("", "none"):
            return None
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
        origin = typing.get_origin(hint)
    try:
        if hint is bool:
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected true or false")
        if hint is int:
            return int(value)
        if origin is tuple:
            (item, *_rest) = typing.get_args(hint)
            parts = [p for p in value.replace(" ", "").split(",") if p]
            return tuple(item(p) for p in parts)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return hint(value)
    except ValueError as exc:
        raise InvalidOptionError(f"{where}: {exc}") from None
    return value


def _checked(game_id: str, key: str, hint: Any, value: object) -> object:
    """A typed value (from Python, a trace header or the store's JSON): of the field's type,
    or an InvalidOptionError naming the key; a list stands for a tuple."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
        origin = typing.get_origin(hint)
    if hint is bool:
        ok = isinstance(value, bool)
        want = "true or false"
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        want = "a whole number"
    elif origin is tuple:
        ok = isinstance(value, (list, tuple)) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
        want = "a list of whole numbers"
        if ok:
            value = tuple(value)  # type: ignore[arg-type]
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        ok = isinstance(value, hint)
        want = "one of " + ", ".join(str(m.value) for m in hint)
    else:
        ok = isinstance(value, hint) if isinstance(hint, type) else True
        want = getattr(hint, "__name__", str(hint))
    if not ok:
        raise InvalidOptionError(f"{game_id}: option {key}={value!r}: expected {want}")
    return value
