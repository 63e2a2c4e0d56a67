"""The exploration procedure's decisions as the rulebook states them (seed 004, «Exploración de la
mazmorra»): what each table's result makes, which ways a corridor's end leaves by, where doors may
stand, where a door out of a room leads, when a quest room may come and when a search finds a door.

One implementation for both sides: `generator.py` rolls and places by these decisions, and the
re-check of a stored map (`procedure.py`) replays its recorded rolls against the same ones, so a
map `generate` writes and a map `validate` accepts follow one procedure.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazmorra.kinds.dicedungeon import DungeonRules
from mazmorra.kinds.dicedungeon.dice import Dice, DiceError, parse_dice
from mazmorra.kinds.dicedungeon.plan import LEFT, RIGHT

# «Descubriendo la mazmorra»: stairs down, an empty corridor of two sections, a T junction.
START = ("entrance", "corridor", "corridor", "junction")
CORRIDORS = ("corridor", "special-corridor")
ROOMS = ("room", "special-room", "lair", "quest")

# «Tabla de final de pasillo»: the piece each end is, and the ways on it leaves by, seen walking in.
END_PIECE = {
    "x-junction": "junction",
    "t-junction": "junction",
    "turn-left": "corner",
    "turn-right": "corner",
    "stairs-down": "stairs-down",
    "stairs-up": "stairs-up",
    "special": "special-end",
}
END_WAYS: dict[str, tuple[str, ...] | None] = {
    "x-junction": ("ahead", "left", "right"),
    "t-junction": ("left", "right"),
    "turn-left": ("left",),
    "turn-right": ("right",),
    "stairs-down": (),
    "stairs-up": (),
    "dead-end": (),
    "special": None,  # «final especial»: whatever end the GM chooses
}

# «Tabla de habitaciones»: the room each result is.
ROOM_OF = {"empty": "room", "special": "special-room", "lair": "lair", "quest": "quest"}

# «Tabla de características de pasillo», «Colocación de puertas»: doors rolled; None is the GM's choice.
DOORS: dict[str, int | None] = {
    "empty": 0,
    "no-doors": 0,
    "one-door": 1,
    "two-doors": 2,
    "gm-choice": None,
}


def sections(outcome: str | None) -> int:
    """Corridor sections a length result makes («Longitud de pasillo»: 1 to 3; 12, the special
    corridor, is one piece the GM chooses)."""
    if outcome is not None and outcome.isdigit():
        return int(outcome)
    return 1


def ways_on(end: str | None, heading: str) -> tuple[str, ...] | None:
    """The sides a corridor's end piece leaves by, walking `heading` into it; None when the GM chooses."""
    turns = END_WAYS.get(end or "special")
    if turns is None:
        return None
    side = {"ahead": heading, "left": LEFT[heading], "right": RIGHT[heading]}
    return tuple(side[t] for t in turns)


def door_leads(total: int) -> str:
    """Where a door out of a room leads («Descubriendo la mazmorra»: even a corridor, odd a room)."""
    return "corridor" if total % 2 == 0 else "room"


def quest_allowed(lairs: int, rooms: int, rules: DungeonRules) -> bool:
    """A quest room may come («Habitación de Gesta»: not before 2 lairs or 8 rooms, whichever is first)."""
    return lairs >= rules.quest_lairs or rooms >= rules.quest_rooms


def search_finds(total: int, rules: DungeonRules) -> bool:
    """A search roll finds a secret door («Puertas secretas»: 10 or more)."""
    return total >= rules.search_target


def door_sides(kind: str, long_x: bool, dead_end: str | None = None) -> tuple[str, ...]:
    """The walls of a piece a door may stand on («Colocación de puertas»): a corridor's long walls
    (and, at the GM's option, `dead_end`: the short wall closing a dead end), any wall of a room, none
    of a corner, junction, stairs or special end (the procedure places no door there)."""
    if kind in CORRIDORS:
        return (("n", "s") if long_x else ("e", "w")) + ((dead_end,) if dead_end else ())
    if kind in ROOMS:
        return ("n", "e", "s", "w")
    return ()


@dataclass(frozen=True)
class Rolled:
    """What a recorded roll's dice say on their own: within the die, and their total."""

    ok: bool
    total: int
    why: str = ""


def dice_say(die: str, faces: list[int]) -> Rolled:
    """Whether `faces` can fall on `die` (as many dice, each within its faces) and what they add up to."""
    try:
        dice: Dice = parse_dice(die)
    except DiceError as exc:
        return Rolled(False, 0, str(exc))
    each = [(d.faces, d.sign) for d in dice.dice for _ in range(d.count)]
    if len(faces) != len(each):
        return Rolled(False, 0, f"{die} rolls {len(each)} dice, the roll records {len(faces)}")
    for face, (n, _) in zip(faces, each):
        if not 1 <= face <= n:
            return Rolled(False, 0, f"a d{n} shows 1 to {n}, the roll records {face}")
    return Rolled(True, dice.modifier + sum(sign * face for face, (_, sign) in zip(faces, each)))


def same_die(a: str, b: str) -> bool:
    """Two die expressions roll the same (`1D12` is `1d12`, `d6` is `1d6`)."""
    try:
        return str(parse_dice(a)) == str(parse_dice(b))
    except DiceError:
        return a.strip().lower() == b.strip().lower()
