"""Rules of the dice-dungeon family that look across its kinds: run once per pack holding any."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from mazmorra.errors import Problem, did_you_mean
from mazmorra.kinds import family_rule
from mazmorra.kinds.dicedungeon import FAMILY
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.model.content import Component, Pack


def tables(pack: Pack) -> dict[str, tuple[Component, DiceTable]]:
    """The pack's dice tables by id."""
    return {comp.id: (comp, table) for comp, table in pack.of(DiceTable)}


@family_rule(FAMILY)
def references(pack: Pack) -> Iterable[Problem]:
    """dice_table.unknown-table: a row's `then` names a table of the pack; dice_table.cycle: following
    `then` from a table never comes back to it (a roll that would never end)."""
    known = tables(pack)
    for comp, table in known.values():
        for i, row in enumerate(table.rows):
            if row.then is not None and row.then not in known:
                yield Problem(
                    "dice_table.unknown-table",
                    f"row {i + 1} ({row.roll.text()}) says to roll on table '{row.then}', which the pack does not "
                    f"have{did_you_mean(row.then, known)} (tables: {', '.join(known) or 'none'})",
                    comp.field_loc(f"rows.{i}"),
                    comp.id,
                    f"rows.{i + 1}.then",
                )
    for start in known:
        path = _loop(start, known)
        if path is not None and path[0] == start and start == min(path[:-1]):  # each loop reported once
            chain = " → ".join(path)
            for here, nxt in pairwise(path):  # at every row that takes the roll round the loop
                comp, table = known[here]
                for i, row in enumerate(table.rows):
                    if row.then == nxt:
                        yield Problem(
                            "dice_table.cycle",
                            f"row {i + 1} ({row.roll.text()}) rolls on '{nxt}', and rolling never ends: {chain}",
                            comp.field_loc(f"rows.{i}"),
                            comp.id,
                            f"rows.{i + 1}.then",
                        )


def _loop(start: str, known: dict[str, tuple[Component, DiceTable]]) -> list[str] | None:
    """The first chain of `then` references from `start` that comes back to a table already on it."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    done: set[str] = set()  # tables whose every chain was followed (no loop from them): not again
    while stack:
        here, path = stack.pop()
        if here in done:
            continue
        done.add(here)
        for row in known[here][1].rows:
            nxt = row.then
            if nxt is None or nxt not in known:
                continue
            if nxt in path:
                return path[path.index(nxt) :] + [nxt]
            stack.append((nxt, path + [nxt]))
    return None


@family_rule(FAMILY)
def one_table_per_role(pack: Pack) -> Iterable[Problem]:
    """dice_table.role: the generator rolls one table for each role, so no two tables share one."""
    seen: dict[str, str] = {}
    for comp, table in pack.of(DiceTable):
        if table.role is None:
            continue
        if table.role in seen:
            yield Problem(
                "dice_table.role",
                f"table '{seen[table.role]}' is already the {table.role} table; give this one another role or none",
                comp.field_loc("role"),
                comp.id,
                "role",
            )
        else:
            seen[table.role] = comp.id
