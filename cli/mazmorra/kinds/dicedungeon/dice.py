"""Die expressions (`1d12`, `2d12`, `1d6+1`, `1d12+1d4-2`): parsed once into a typed value that
knows its bounds, its exact outcome distribution and how to roll itself."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property
from math import prod

from mazmorra.support import limits

MAX_DICE = limits.DICE  # dice in one expression
MAX_FACES = limits.DIE_FACES
MAX_MODIFIER = limits.DICE_MODIFIER
MAX_SPAN = limits.DICE_SPAN  # possible totals: a table of more outcomes is not a table a player reads

_TERM = re.compile(r"\s*([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")


class DiceError(ValueError):
    """A die expression that cannot be rolled, with the reason in words."""


@dataclass(frozen=True)
class Die:
    """`count` dice of `faces` faces, added (or subtracted when `sign` is -1)."""

    count: int
    faces: int
    sign: int = 1


@dataclass(frozen=True)
class Dice:
    """A sum of dice and a constant: what a table is rolled with."""

    dice: tuple[Die, ...]
    modifier: int = 0

    @property
    def lowest(self) -> int:
        return self.modifier + sum(d.count if d.sign > 0 else -d.count * d.faces for d in self.dice)

    @property
    def highest(self) -> int:
        return self.modifier + sum(d.count * d.faces if d.sign > 0 else -d.count for d in self.dice)

    @property
    def combinations(self) -> int:
        """How many equally likely ways the dice can fall (144 for 2d12)."""
        return prod(d.faces**d.count for d in self.dice)

    @cached_property
    def ways(self) -> dict[int, int]:
        """Exact distribution: each possible total -> in how many of `combinations` ways it comes up."""
        dist = {self.modifier: 1}
        for d in self.dice:
            for _ in range(d.count):
                nxt: dict[int, int] = {}
                for total, n in dist.items():
                    for face in range(1, d.faces + 1):
                        key = total + d.sign * face
                        nxt[key] = nxt.get(key, 0) + n
                dist = nxt
        return dict(sorted(dist.items()))

    def chance(self, low: int, high: int) -> int:
        """In how many of `combinations` ways the total falls in low..high."""
        return sum(n for total, n in self.ways.items() if low <= total <= high)

    def roll(self, rng: random.Random) -> tuple[tuple[int, ...], int]:
        """Every die as it fell (in the expression's order) and the total."""
        faces = tuple(rng.randint(1, d.faces) for d in self.dice for _ in range(d.count))
        signs = [d.sign for d in self.dice for _ in range(d.count)]
        return faces, self.modifier + sum(s * f for s, f in zip(signs, faces))

    def __str__(self) -> str:
        parts = [f"{'-' if d.sign < 0 else '+'}{d.count}d{d.faces}" for d in self.dice]
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        return "".join(parts).lstrip("+")


def parse_dice(text: str) -> Dice:
    """'2d12', 'd6', '1d6+1', '1d12+1d4-2' -> Dice; DiceError saying what is wrong otherwise."""
    source = str(text).strip()
    if not source:
        raise DiceError("no die given; write e.g. 1d12 or 2d12")
    pos, dice, modifier = 0, [], 0
    while pos < len(source):
        m = _TERM.match(source, pos)
        if m is None or m.end() == pos or (pos > 0 and not m.group(1)):
            raise DiceError(f"'{source}' is not a die expression; write e.g. 1d12, 2d12 or 1d6+1")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            modifier += sign * int(m.group(4))
        else:
            count = int(m.group(2) or "1")
            faces = int(m.group(3))
            if count < 1:
                raise DiceError(f"'{source}': roll at least one die (got {count}d{faces})")
            if faces < 2:
                raise DiceError(f"'{source}': a die has at least 2 faces (got d{faces})")
            if faces > MAX_FACES:
                raise DiceError(f"'{source}': a die has at most {MAX_FACES} faces (got d{faces})")
            dice.append(Die(count, faces, sign))
        pos = m.end()
    if not dice:
        raise DiceError(f"'{source}' rolls no die; write e.g. 1d12")
    if sum(d.count for d in dice) > MAX_DICE:
        raise DiceError(f"'{source}': at most {MAX_DICE} dice")
    if abs(modifier) > MAX_MODIFIER:
        raise DiceError(f"'{source}': the modifier is at most ±{MAX_MODIFIER}")
    found = Dice(tuple(dice), modifier)
    if found.highest - found.lowest + 1 > MAX_SPAN:
        raise DiceError(f"'{source}' has {found.highest - found.lowest + 1} possible totals; at most {MAX_SPAN}")
    return found
