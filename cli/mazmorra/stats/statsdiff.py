"""`mazmorra stats --since REV`: every figure of the earlier revision beside today's, matched by its
key (a figure's key does not depend on the language), and which of them moved."""

from __future__ import annotations

from dataclasses import dataclass

from mazmorra.stats.statslines import Figure


@dataclass(frozen=True)
class Moved:
    """A figure before and now (None: the revision did not have it, or no longer has it)."""

    key: str
    section: str
    label: str
    before: str | None
    now: str | None


def beside(before: tuple[Figure, ...], now: tuple[Figure, ...]) -> tuple[Moved, ...]:
    """Every figure that moved, in today's order, then the ones only the earlier revision had."""
    earlier = {line.key: line for line in before}
    keys = {line.key for line in now}
    moved = [
        Moved(line.key, line.section, line.label, earlier[line.key].value if line.key in earlier else None, line.value)
        for line in now
        if line.key not in earlier or _differs(earlier[line.key], line)
    ]
    moved += [Moved(b.key, b.section, b.label, b.value, None) for b in before if b.key not in keys]
    return tuple(moved)


def _differs(a: Figure, b: Figure) -> bool:
    if a.number is not None and b.number is not None:
        return a.number != b.number
    return a.value != b.value
