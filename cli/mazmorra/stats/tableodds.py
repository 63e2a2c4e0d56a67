"""Dice tables (family E and any kind with a die): each row's exact chance, the distribution of every
die expression the pack rolls, and which rows are rarer than the pack's line."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from mazmorra.kinds.dicedungeon import DiceDungeonSettings, dungeon_rules
from mazmorra.kinds.dicedungeon.dice import DiceError, parse_dice
from mazmorra.kinds.dicedungeon.dice_table import ROLES, DiceTable
from mazmorra.model.content import Pack
from mazmorra.stats.statvalues import Distribution, RowOdds, TableStats

DEFAULT_RARE = Fraction(1, 100)  # a row less likely than 1 % is flagged, unless the pack says otherwise


def rare_line(pack: Pack) -> Fraction:
    """The chance under which a row is flagged rare: the pack's `game: dungeon: rare_row:` (a percentage), else 1 %."""
    found = pack.settings_of(DiceDungeonSettings)
    return Fraction(str(found.dungeon.rare_row)) / 100 if found is not None else DEFAULT_RARE


def table_stats(pack: Pack, texts: Mapping[str, Mapping[str, str]], rare: Fraction) -> tuple[TableStats, ...]:
    """Every dice table's rows with their chance; `texts` gives a component's texts in the language
    asked for (name, results.1 …), by id."""
    out = []
    for comp, table in pack.of(DiceTable):
        dice = table.dice
        if dice is None:
            continue  # validation says why the die cannot be rolled
        own = texts.get(comp.id, {})
        rows = []
        for i, row in enumerate(table.rows):
            ways = dice.chance(row.roll.low, row.roll.upto(dice))
            chance = Fraction(ways, dice.combinations)
            said = own.get(f"results.{i + 1}") or row.result or (f"→ {row.then}" if row.then else "")
            rows.append(RowOdds(row.roll.text(), said, ways, dice.combinations, chance, chance < rare))
        out.append(TableStats(comp.id, own.get("name", table.name), str(dice), tuple(rows)))
    return tuple(out)


def distributions(pack: Pack) -> tuple[Distribution, ...]:
    """Each die expression the pack rolls (its tables', the generator's door die when they drive it),
    once, in order."""
    seen: dict[str, Distribution] = {}
    tables = [table for _, table in pack.of(DiceTable)]
    dies = [table.die for table in tables]
    if {t.role for t in tables} >= set(ROLES):  # the tables drive the generator, which rolls its door die
        dies.append(dungeon_rules(pack).door_die)
    for text in dies:
        try:
            dice = parse_dice(text)
        except DiceError:
            continue
        key = str(dice)
        if key not in seen:
            total = dice.combinations
            seen[key] = Distribution(key, tuple((t, Fraction(n, total)) for t, n in dice.ways.items()))
    return tuple(seen.values())
