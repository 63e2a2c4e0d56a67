"""Generated dungeons (family E): the pack's tables rolled into `seeds` dungeons (seeds first_seed,
first_seed + 1, …: the same sample every run), each measured, and each measure's spread. Sampling
only here: no exact answer is practical for a whole dungeon."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from statistics import median

from mazmorra.kinds.dicedungeon import dungeon_rules
from mazmorra.kinds.dicedungeon.dice_table import ROLES, DiceTable
from mazmorra.kinds.dicedungeon.generator import Generator
from mazmorra.kinds.dicedungeon.pieces import Dungeon
from mazmorra.kinds.dicedungeon.steps import CORRIDORS, ROOMS
from mazmorra.model.content import Pack
from mazmorra.stats.statvalues import DungeonStats, Spread


def rooms(d: Dungeon) -> int:
    return sum(a.type in ROOMS for a in d.areas)


def corridors(d: Dungeon) -> int:
    """Corridor sections (5×2 squares each in the rulebook)."""
    return sum(a.type in CORRIDORS for a in d.areas)


def dead_ends(d: Dungeon) -> int:
    """Corridor sections the corridor stops at: no other area joins them."""
    joined = {a.joins for a in d.areas}
    return sum(a.type in CORRIDORS and a.n not in joined for a in d.areas)


def doors(d: Dungeon) -> int:
    return len(d.doors)


def secret_doors(d: Dungeon) -> int:
    return sum(secret for _, secret, _ in d.doors)


def longest_path(d: Dungeon) -> int:
    """Areas walked through from the entrance to the farthest area (the map is a tree of joins)."""
    depth: dict[int, int] = {}
    for a in d.areas:  # an area joins one placed before it
        depth[a.n] = depth.get(a.joins, 0) + 1 if a.joins is not None else 1
    return max(depth.values(), default=0)


MEASURES: dict[str, Callable[[Dungeon], int]] = {
    "rooms": rooms,
    "corridor sections": corridors,
    "dead ends": dead_ends,
    "doors": doors,
    "secret doors": secret_doors,
    "longest path": longest_path,
}


def dungeon_stats(pack: Pack, seeds: int, first_seed: int) -> DungeonStats | None:
    """The spread of every measure over the sample; None when the pack cannot drive the generator."""
    tables = {comp.id: table for comp, table in pack.of(DiceTable)}
    if seeds < 1 or not {t.role for t in tables.values()} >= set(ROLES):
        return None
    rules = dungeon_rules(pack)
    found: dict[str, list[int]] = {m: [] for m in MEASURES}
    for seed in range(first_seed, first_seed + seeds):
        dungeon = Generator(tables, rules, seed).run()
        for name, measure in MEASURES.items():
            found[name].append(measure(dungeon))
    spreads = tuple(
        Spread(name, min(v), Fraction(median(v)), max(v), Fraction(sum(v), len(v))) for name, v in found.items()
    )
    return DungeonStats(seeds, first_seed, spreads)
