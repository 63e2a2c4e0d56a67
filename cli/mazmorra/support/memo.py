"""Results of the stages before layout kept between builds: a check's findings, a parsed file.

A `Memo` is a persistent store (the build's cache folder, `<output>/.cache/`, written atomically
and checked against its own hash when read: layout/cache/facecache.py) with the tool's own hash in every
key, so a new version of the code never reads what an older one stored. Values are plain data
(str, int, tuples, lists, dicts). Stages below the layout use it through this small protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from mazmorra.support import keys


class Store(Protocol):
    """Where a memo's entries live: `get` gives None for an absent or damaged entry."""

    def get(self, k: str) -> Any | None: ...

    def put(self, k: str, value: Any) -> None: ...


@dataclass
class Memo:
    """A store and the tool's hash; `read` and `written` count entries (tests count, never time). A
    `deferred` memo keeps what it is given until `flush` (a command that may still stop before its
    build begins writes nothing to the output folder)."""

    store: Store
    salt: bytes
    deferred: bool = False
    read: int = 0
    written: int = 0
    missed: list[str] = field(default_factory=list)  # what was looked up and not found, by kind
    _pending: dict[str, Any] = field(default_factory=dict)

    def key(self, *parts: bytes | str) -> str:
        """One key for these parts and the tool's hash (support/keys.py: the scheme every store uses)."""
        return keys.key(self.salt, *parts)

    def get(self, kind: str, k: str) -> Any | None:
        """The value stored under `k`, or None."""
        value = self._pending[k] if k in self._pending else self.store.get(k)
        if value is None:
            self.missed.append(kind)
        else:
            self.read += 1
        return value

    def put(self, k: str, value: Any) -> None:
        if self.deferred:
            self._pending[k] = value
            return
        self.store.put(k, value)
        self.written += 1

    def flush(self) -> None:
        """Store what was kept back, and from now on store at once."""
        self.deferred = False
        pending, self._pending = self._pending, {}
        for k, value in pending.items():
            self.put(k, value)
