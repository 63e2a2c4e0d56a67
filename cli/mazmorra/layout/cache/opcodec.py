"""Faces, ops and problems as plain tuples derived from their dataclass fields (what marshal can
store and what the face cache keeps), and back: no registry, so a new op class in `contracts` needs
no change here."""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mazmorra import contracts, errors
from mazmorra.errors import Loc
from mazmorra.support.reuse import ByIdentity

CLASSES = (contracts, errors)  # the modules whose dataclasses and enums an entry may hold
_DC, _EN, _TU, _PA, _TL = "\0dc", "\0en", "\0tu", "\0pa", "\0tl"  # tags of the tuple encoding

_PLAIN = frozenset((str, int, float, bool, type(None)))
_SHAPES: dict[type, tuple[tuple[str, str, str], Callable[[Any], Any]] | None] = {}  # None: not a dataclass
_OPS = frozenset(
    v for k, v in vars(contracts).items() if k.endswith("Op") and isinstance(v, type) and dataclasses.is_dataclass(v)
)
_ENCODED: ByIdentity[Any] = ByIdentity(4096)  # an op many faces share (a template's frame, a label), encoded once


def _shape(cls: type) -> tuple[tuple[str, str, str], Callable[[Any], Any]] | None:
    """A dataclass's tag (with its module and name) and a getter of its fields' values as a tuple
    (looked up once per class: encoding is per op)."""
    if cls not in _SHAPES:
        if dataclasses.is_dataclass(cls):
            names = [f.name for f in dataclasses.fields(cls)]
            get = operator.attrgetter(*names) if len(names) > 1 else (lambda v: tuple(getattr(v, n) for n in names))
            _SHAPES[cls] = ((_DC, cls.__module__, cls.__name__), get)
        else:
            _SHAPES[cls] = None
    return _SHAPES[cls]


def encode(value: Any, locs: dict[Loc, str] | None = None) -> Any:
    """A face, problem or op (any dataclass or enum of `CLASSES`, nested in tuples and lists) as
    plain tuples marshal can store; a Loc found in `locs` as the field it is the text of, so that a
    problem reads the component's current line after an edit moved it."""
    cls = type(value)
    if cls in _PLAIN:
        return value
    if cls is tuple:
        items = tuple([v if type(v) in _PLAIN else encode(v, locs) for v in value])
        return (_TU, *items) if items and type(items[0]) is str and items[0].startswith("\0") else items
    if locs and cls is Loc and value in locs:
        return (_TL, locs[value])
    if cls in _OPS:  # an op holds no Loc: its encoding is its own
        hit = _ENCODED.table.get(id(value))  # ByIdentity.get, inline: asked for every op of every face
        if hit is not None and hit[0] is value:
            return hit[1]
        return _ENCODED.put(value, _encoded(value, _shape(cls), locs))
    shape = _shape(cls)
    if shape is not None:
        return _encoded(value, shape, locs)
    if isinstance(value, enum.Enum):
        return (_EN, cls.__module__, cls.__name__, value.value)
    if cls is list:
        return [encode(v, locs) for v in value]
    if isinstance(value, Path):
        return (_PA, str(value))
    return value


def _encoded(value: Any, shape: tuple[tuple[str, str, str], Callable[[Any], Any]] | None, locs: Any) -> Any:
    """A dataclass as its tag and its fields' values, each encoded."""
    assert shape is not None
    tag, get = shape
    values = get(value)
    for v in values:  # most ops hold plain values only (an empty tuple is its own encoding): as they are
        if type(v) not in _PLAIN and v != ():
            return (*tag, *[v if type(v) in _PLAIN else encode(v, locs) for v in values])
    return tag + values


_DECODABLE: dict[tuple[str, str], tuple[type, tuple[str, ...]]] = {}


def _class(module: str, name: str) -> type:
    return _decodable(module, name)[0]


def _decodable(module: str, name: str) -> tuple[type, tuple[str, ...]]:
    """A class an entry names, if it is one of `CLASSES`' dataclasses or enums, with its fields."""
    if (module, name) not in _DECODABLE:
        allowed = {m.__name__: m for m in CLASSES}
        cls = getattr(allowed[module], name, None) if module in allowed else None
        if not isinstance(cls, type) or not (dataclasses.is_dataclass(cls) or issubclass(cls, enum.Enum)):
            raise ValueError(f"not a class a face is made of: {module}.{name}")
        fields = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else ()
        _DECODABLE[(module, name)] = (cls, fields)
    return _DECODABLE[(module, name)]


def decode(value: Any, text_loc: Callable[[str | None], Loc | None] | None = None) -> Any:
    """The inverse of `encode`; a text's place read again through `text_loc`."""
    if type(value) is list:
        return [decode(v, text_loc) for v in value]
    if type(value) is not tuple or not value:
        return value
    tag = value[0]
    if tag == _DC:
        cls, names = _decodable(value[1], value[2])
        if len(names) != len(value) - 3:
            raise ValueError(f"{cls.__name__}: {len(value) - 3} values for {len(names)} fields")
        obj: Any = object.__new__(cls)
        lazy = cls is contracts.Face  # a face's ops are decoded when first read (contracts.Face.lazy_ops)
        for n, v in zip(names, value[3:]):
            if lazy and n == "ops":
                continue
            object.__setattr__(obj, n, v if type(v) in _PLAIN else decode(v, text_loc))  # frozen or slotted alike
        if lazy:
            object.__setattr__(obj, "lazy_ops", functools.partial(decode, value[3 + names.index("ops")], text_loc))
        return obj
    if tag == _EN:
        return _class(value[1], value[2])(value[3])
    if tag == _TL:
        if text_loc is None:
            raise ValueError("a text's place without the component to read it from")
        return text_loc(value[1])
    if tag == _PA:
        return Path(value[1])
    if tag == _TU:
        value = value[1:]
    return tuple([v if type(v) in _PLAIN else decode(v, text_loc) for v in value])
