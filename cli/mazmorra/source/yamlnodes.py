"""The values a YAML file is read into: mappings and sequences that remember where each value stood.

Positions are kept compact: a container holds its file's name (one string shared by the whole
file) and one machine integer per value, line and column packed, in an array; a `Loc` is made
only when something asks for one (a problem to report). One object per YAML node cost a
10,000-card deck about 12 MB (bench/run.py's memory stages).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, MutableMapping, MutableSequence
from typing import Any, overload

from mazmorra.errors import Loc

_COL_BITS = 24
_COL_MAX = (1 << _COL_BITS) - 1
LINE_SHIFT = _COL_BITS  # a packed position moves down n lines by adding n << LINE_SHIFT


def packed(mark: Any) -> int:
    """A parser mark's line and column in one integer."""
    line: int = mark.line + 1
    col: int = min(mark.column + 1, _COL_MAX)
    return line << _COL_BITS | col


def unpacked(name: str, at: int) -> Loc:
    """The position `packed` made, in the file called `name`."""
    return Loc(name, at >> _COL_BITS, at & _COL_MAX)


class MapLocs(MutableMapping[str, Loc]):
    """A YMap's positions by key, read from its packed array; writing one turns the map's positions
    into a plain dict of `Loc`s (a map assembled by code, or a spreadsheet row's cells)."""

    __slots__ = ("_map",)

    def __init__(self, owner: YMap):
        self._map = owner

    def _index(self, key: object) -> int:
        pos = self._map._pos
        for i, k in enumerate(self._map):
            if k == key:
                return i if i < len(pos) else -1
        return -1

    def __getitem__(self, key: str) -> Loc:
        i = self._index(key)
        if i < 0:
            raise KeyError(key)
        return unpacked(self._map._name, self._map._pos[i])

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._map)[: len(self._map._pos)])

    def __len__(self) -> int:
        return min(len(self._map), len(self._map._pos))

    def __setitem__(self, key: str, value: Loc) -> None:
        self._map.locs = {**self, key: value}

    def __delitem__(self, key: str) -> None:
        table = dict(self)
        del table[key]
        self._map.locs = table


class ListLocs(MutableSequence[Loc]):
    """A YList's positions by index, read from its packed array; writing one turns them into a
    plain list of `Loc`s."""

    __slots__ = ("_list",)

    def __init__(self, owner: YList):
        self._list = owner

    @overload
    def __getitem__(self, i: int) -> Loc: ...
    @overload
    def __getitem__(self, i: slice) -> list[Loc]: ...
    def __getitem__(self, i: int | slice) -> Loc | list[Loc]:
        name, pos = self._list._name, self._list._pos
        if isinstance(i, slice):
            return [unpacked(name, at) for at in pos[i]]
        return unpacked(name, pos[i])

    def __len__(self) -> int:
        return len(self._list._pos)

    def __setitem__(self, i: Any, value: Any) -> None:
        table = list(self)
        table[i] = value
        self._list.locs = table

    def __delitem__(self, i: Any) -> None:
        table = list(self)
        del table[i]
        self._list.locs = table

    def insert(self, i: int, value: Loc) -> None:
        table = list(self)
        table.insert(i, value)
        self._list.locs = table


class _Placed:
    """Where a mapping or a sequence starts: its file's name and packed line, or a Loc given later."""

    __slots__ = ()
    _name: str
    _at: int
    _loc: Loc | None

    @property
    def loc(self) -> Loc:
        """Where it starts."""
        return self._loc if self._loc is not None else unpacked(self._name, self._at)

    @loc.setter
    def loc(self, value: Loc) -> None:
        object.__setattr__(self, "_loc", value)  # a slot of the subclass (an empty-slotted base cannot hold it)


class YMap(_Placed, dict[Any, Any]):
    """A mapping that remembers where it and each of its values stood."""

    # a pack holds one per component: no per-instance __dict__, positions packed (see _COL_BITS)
    __slots__ = ("_at", "_loc", "_locs", "_name", "_pos")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._name, self._at, self._pos = "", 0, _NO_POS
        self._loc: Loc | None = None
        self._locs: MutableMapping[str, Loc] | None = None

    @property
    def locs(self) -> MutableMapping[str, Loc]:
        """Where each value stood, by key."""
        return self._locs if self._locs is not None else MapLocs(self)

    @locs.setter
    def locs(self, value: MutableMapping[str, Loc]) -> None:
        self._locs = value

    def __delitem__(self, key: Any) -> None:
        if self._locs is None and self._pos:  # positions follow the keys' order: keep them by key from now
            self._locs = dict(MapLocs(self))
        super().__delitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        if self._locs is None and self._pos and key in self:
            self._locs = dict(MapLocs(self))
        return super().pop(key, *default)

    def popitem(self) -> tuple[Any, Any]:
        if self._locs is None and self._pos:
            self._locs = dict(MapLocs(self))
        return super().popitem()

    def clear(self) -> None:
        if self._locs is None:
            self._pos = _NO_POS
        super().clear()


class YList(_Placed, list[Any]):
    """A sequence that remembers where it and each of its items stood."""

    __slots__ = ("_at", "_loc", "_locs", "_name", "_pos")

    def __init__(self, *args: Any):
        super().__init__(*args)
        self._name, self._at, self._pos = "", 0, _NO_POS
        self._loc: Loc | None = None
        self._locs: MutableSequence[Loc] | None = None

    @property
    def locs(self) -> MutableSequence[Loc]:
        """Where each item stood, by index."""
        return self._locs if self._locs is not None else ListLocs(self)

    @locs.setter
    def locs(self, value: MutableSequence[Loc]) -> None:
        self._locs = value


_NO_POS = array("q")  # shared by every container made by code, never appended to
