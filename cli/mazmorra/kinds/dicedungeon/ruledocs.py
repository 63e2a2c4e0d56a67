"""What each rule of the dice-dungeon family written before its rules carried their own metadata
checks, with the rulebook passage it comes from (seed 004, «Exploración de la mazmorra»): read by
`make rules-doc`."""

from __future__ import annotations

from mazmorra.kinds import RuleDoc, documents
from mazmorra.kinds.dicedungeon import FAMILY

TABLES = (
    "«Longitud de pasillo», «Tabla de características de pasillo», «Tabla de final de pasillo», «Tabla de habitaciones»"
)
MAP = "«Determinando al creador del mapa»: one hero draws the dungeon as it is revealed, to rebuild it later"
DOCS = (
    RuleDoc("dice_table.die", "the die expression can be rolled", f"{TABLES}: each table names its die (1d12, 2d12)"),
    RuleDoc("dice_table.gap", "every total the die can give falls in a row", f"{TABLES}: every roll has a result"),
    RuleDoc("dice_table.overlap", "no total falls in two rows", f"{TABLES}: every roll has one result"),
    RuleDoc(
        "dice_table.bounds", "no row asks for a total the die never gives", f"{TABLES}: rows span the die's totals"
    ),
    RuleDoc(
        "dice_table.outcome",
        "a table the generator rolls says on each row what it means in its terms",
        "«Generación de pasillos», «Generación de habitaciones»: what each result makes",
    ),
    RuleDoc(
        "dice_table.role",
        "one table for each thing the generator rolls",
        "«Generación de pasillos»: one roll on each table in turn",
    ),
    RuleDoc(
        "dice_table.unknown-table",
        "a row's `then` names a table of the pack",
        "«Tabla de habitaciones», Habitación especial: roll on the special rooms table",
    ),
    RuleDoc(
        "dice_table.cycle",
        "following `then` never comes back to a table (a roll that would never end)",
        "«Tabla de habitaciones», Habitación especial: one more roll, on another table",
    ),
    RuleDoc("dungeon_map.overlap", "no two areas of a map share a square", MAP),
    RuleDoc("dungeon_map.bounds", "every area lies inside the map's columns and rows", MAP),
    RuleDoc("dungeon_map.numbers", "areas are numbered 1, 2, 3 … in the order they were revealed", MAP),
    RuleDoc(
        "dungeon_map.joins",
        "each area joins one revealed before it; an open join touches it",
        "«Descubriendo la mazmorra»: each new area is revealed from one already reached",
    ),
    RuleDoc(
        "dungeon_map.door",
        "a door or way on stands on one area's wall; a secret door opens onto floor, a way on onto rock",
        "«Colocación de puertas»: doors go on walls; a door onto a revealed area is secret",
    ),
)


@documents(FAMILY, *DOCS)
def documented() -> None:
    """The rules above are reported by dice_table.py, dungeon_map.py and rules.py."""
