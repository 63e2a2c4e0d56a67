"""The exploration procedure re-checked on a stored map, generated or drawn by hand (rulebook E,
«Exploración de la mazmorra»): every recorded roll replayed against the procedure (`replay.py`, on
the decisions the generator makes too: `steps.py`), and every table the generator needs."""

from __future__ import annotations

from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.dicedungeon import FAMILY, dungeon_rules
from mazmorra.kinds.dicedungeon.dice_table import ROLES, DiceTable
from mazmorra.kinds.dicedungeon.dungeon_map import DungeonMap
from mazmorra.kinds.dicedungeon.replay import Replay
from mazmorra.model.content import Pack

ROLLED = "(maps with recorded rolls)"
EXPLORE = "«Exploración de la mazmorra»"


@family_rule(
    FAMILY,
    RuleDoc(
        "dungeon_map.dice",
        f"every recorded roll's dice can fall on its die (as many dice, each within its faces) and add up to its total {ROLLED}",
        f"{EXPLORE}: the leader rolls on the tables; «Longitud de pasillo» and the other tables name their die",
    ),
    RuleDoc(
        "dungeon_map.rolls",
        "a roll names a table of the pack or the door or search die, falls in the row it records with that "
        "row's outcome, and comes where the procedure rolls it: a corridor's length, features and end in turn, a "
        f"room's type, every table its row sends on to (`then`) and its doors {ROLLED}",
        "«Generación de pasillos»: length, features, end; «Generación de habitaciones»: type, then doors; «Tabla de "
        "habitaciones», Habitación especial: roll on the special rooms table",
    ),
    RuleDoc(
        "dungeon_map.shows",
        f"the table row an area prints (the GM's choice rolled for a corridor, the special room rolled) is one its roll fell in {ROLLED}",
        "«Tabla de características de pasillo»: Elección del DJ; «Tabla de habitaciones», Habitación especial: roll "
        "on the special rooms table",
    ),
    RuleDoc(
        "dungeon_map.door-leads",
        f"a door out of a room leads to a corridor on an even roll, a room on an odd one, and the map explores that {ROLLED}",
        "«Descubriendo la mazmorra»: leaving a room by a door, an even roll is a corridor, an odd one a room",
    ),
    RuleDoc(
        "dungeon_map.search",
        f"a search finds a secret door on the target or more (10), and every door found is marked searched {ROLLED}",
        "«Puertas secretas»: a roll of 10 or more finds a secret door",
    ),
    RuleDoc(
        "dungeon_map.shape",
        "each roll made the piece its row says: as many corridor sections as the length rolled, in a line, of the "
        "special kind for a 12; the end piece rolled straight on from the last section; the room rolled, reached "
        f"by a door of the area it was rolled in; every area revealed by a roll; a rule that changed it in the roll's notes {ROLLED}",
        "«Generación de pasillos», «Longitud de pasillo», «Tabla de final de pasillo», «Generación de habitaciones»",
    ),
    RuleDoc(
        "dungeon_map.ways",
        "a corridor's end piece leaves only where its end leads: an X junction ahead, left and right, a T junction "
        f"left and right, a turn to its side, stairs and dead ends nowhere (a special end as the GM chooses) {ROLLED}",
        "«Tabla de final de pasillo»: corners are pieces with exits for the turn or junction rolled",
    ),
    RuleDoc(
        "dungeon_map.door-count",
        "a corridor has the doors its features rolled (any number on the GM's choice), a room the doors rolled for "
        f"it, fewer only where a note says why; no door where no roll gave one {ROLLED}",
        "«Tabla de características de pasillo»: 1 door, 2 doors; «Colocación de puertas»: no doors, one, two",
    ),
    RuleDoc(
        "dungeon_map.start",
        "area 1 is the starting stairs, areas 2 and 3 an empty corridor of two sections in a line (no door), area 4 "
        f"the T junction that ends it, left and right its only ways on {ROLLED}",
        "«Descubriendo la mazmorra»: the heroes start on stairs down leading to an empty corridor of two "
        "sections that ends in a T junction",
    ),
    RuleDoc(
        "dungeon_map.door-wall",
        "a door stands on a corridor's long wall (or the wall closing a dead end) or on a room's wall; never on a "
        f"corner, junction, stairs or special end {ROLLED}",
        "«Colocación de puertas»: doors in a corridor go on the long walls of each section; optionally the GM puts "
        "one on the short side of a dead end",
    ),
    RuleDoc(
        "dungeon_map.door-per-wall",
        f"at most one door on each wall of a room and on each long wall of a corridor section {ROLLED}",
        "«Colocación de puertas»: no more than one door per room wall; no more than one per long wall of each "
        "corridor section",
    ),
    RuleDoc(
        "dungeon_map.secret",
        "a door onto an area revealed before it (not the area opened through it) is marked secret, and no door "
        f"opens half onto an area {ROLLED}",
        "«Colocación de puertas»: a door placed onto an area already revealed is a secret door the heroes missed",
    ),
)
def replayed(pack: Pack) -> Iterable[Problem]:
    """Every stored map with recorded rolls, replayed roll by roll against the procedure."""
    tables = {comp.id: table for comp, table in pack.of(DiceTable)}
    rules = dungeon_rules(pack)
    for comp, m in pack.of(DungeonMap):
        if m.rolls:
            yield from Replay(comp, m, tables, rules).problems()


@family_rule(
    FAMILY,
    RuleDoc(
        "dice_table.missing-role",
        "a pack that keeps dungeon maps or gives any table a role has a table for every role the generator rolls "
        "(corridor length, features and end, room type, room doors)",
        "«Generación de pasillos», «Generación de habitaciones», «Colocación de puertas»: the five tables the "
        "exploration rolls on",
    ),
)
def every_role(pack: Pack) -> Iterable[Problem]:
    """The generator's tables, all of them, wherever it could be asked to roll."""
    found = {t.role for _, t in pack.of(DiceTable) if t.role is not None}
    decks = [d for d in pack.decks if d.kind.name == "dungeon_map"]
    if not found and not decks:
        return
    missing = [r for r in ROLES if r not in found]
    if missing:
        loc = decks[0].loc if decks else next(c for c, t in pack.of(DiceTable) if t.role is not None).field_loc("role")
        yield Problem(
            "dice_table.missing-role",
            f"no dice table has role {', '.join(missing)}: `mazmorra generate` rolls on one table of each role "
            f"({', '.join(ROLES)}); give a table `role: {missing[0]}`",
            loc,
            None,
            None,
        )
