"""A least-recently-used cache that keeps a result only once its arguments are asked for again.

A one-shot build lays out each text once: an ordinary cache would fill with results nobody reads
again (a 10,000-card deck's parsed paragraphs held 11 MB for 2 hits). The live preview lays the same
texts out at every edit: there the second build finds them cached. What is remembered of a first
request is its arguments' hash, in a bounded first-in-first-out table (a collision only caches early).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache, wraps
from typing import Generic, TypeVar

R = TypeVar("R")
V = TypeVar("V")


def kept_when_asked_again(maxsize: int, remembered: int = 4096) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Decorate a function of hashable positional arguments: its result is computed on the first
    request, and cached (an LRU of `maxsize`) from the second on; `remembered` first requests are
    kept (their hashes) at most."""

    def decorate(fn: Callable[..., R]) -> Callable[..., R]:
        cached = lru_cache(maxsize=maxsize)(fn)
        asked: dict[int, None] = {}

        @wraps(fn)
        def call(*args: Hashable) -> R:
            h = hash(args)
            if h in asked:
                return cached(*args)
            asked[h] = None
            if len(asked) > remembered:
                del asked[next(iter(asked))]  # the oldest first request is forgotten
            return fn(*args)

        def cache_clear() -> None:
            cached.cache_clear()
            asked.clear()

        call.cache_clear = cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call

    return decorate


class ByIdentity(Generic[V]):
    """What was computed from an object many faces share (the ops a template element makes once:
    layout/elements/registry.py, layout/text/textbox.py), found again by the object's identity, not
    by comparing it (hashing a frozen op costs more than most computations it would save). Each
    entry holds its object, so its id is never another object's while it is kept; at `most` entries
    the table starts afresh (what is shared is soon computed again; a one-off is not kept long)."""

    def __init__(self, most: int):
        self.most = most
        self.table: dict[int, tuple[object, V]] = {}

    def get(self, obj: object) -> V | None:
        hit = self.table.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else None

    def put(self, obj: object, value: V) -> V:
        if len(self.table) >= self.most:
            self.table.clear()
        self.table[id(obj)] = (obj, value)
        return value


__all__ = ["ByIdentity", "kept_when_asked_again"]
