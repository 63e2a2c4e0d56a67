"""The dice-dungeon family (spec E): dice tables a dungeon is rolled from at the table, and the
maps `mazmorra generate` rolls from them, printed at miniature scale as posters.

Its part of pack.yaml's `game:` section is `dungeon:`, the sizes and thresholds of the procedure
(the rulebook's by default, so a pack may leave it out); rules and the generator read it with
`dungeon_rules(pack)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator

from mazmorra.kinds import register_family
from mazmorra.model.content import Family, Pack, Strict
from mazmorra.model.units import parse_length
from mazmorra.support.limits import COMPONENT_MM

MAX_PRINT_MM = COMPONENT_MM  # the largest component a pack may hold (units.parse_size)
MAP_FRAME_MM = 10.0  # around the squares of a printed map
MAP_HEADER_MM = 34.0  # above them: title, seed and legend
SQUARE_MM = (6.0, 50.0)  # a printed square: below 6 mm an area's number (5.5 pt) no longer fits beside its walls
MAP_SQUARES = 200  # squares a map spans at most either way (a map's cols and rows)


Side = Annotated[int, Field(ge=1, le=20)]  # squares a piece is on one side
Piece = tuple[Side, Side]


class DungeonRules(Strict):
    """How a dungeon is generated and printed: the rulebook's sizes unless the pack says otherwise."""

    square: str = Field(
        default="25mm",
        description="printed size of one square (25mm, 1in …), 6 to 50 mm: smaller squares cannot "
        "hold an area's number at a legible size",
        json_schema_extra={"mm": list(SQUARE_MM)},
    )
    section: Piece = Field(default=(5, 2), description="a corridor section, squares long × wide")
    corner: Piece = Field(default=(2, 2), description="corners, junctions, stairs and special ends")
    room: Piece = Field(default=(5, 5), description="empty and special rooms")
    big_room: Piece = Field(default=(10, 5), description="lairs and quest rooms, long × wide")
    door: int = Field(default=2, ge=1, le=4, description="squares a door spans")
    quest_lairs: int = Field(default=2, ge=0, le=20, description="a quest room before this many lairs becomes a lair …")
    quest_rooms: int = Field(default=8, ge=0, le=60, description="… unless this many rooms were revealed first")
    door_die: str = Field(default="1d6", description="rolled on leaving a room by a door: even a corridor, odd a room")
    search_die: str = Field(default="1d12", description="rolled to search one wall for a secret door")
    search_target: int = Field(default=10, ge=1, le=100, description="… a secret door is found on this total or more")
    search_tries: int = Field(
        default=12, ge=1, le=100, description="walls searched at a dead end before the heroes give up"
    )
    rooms: int = Field(
        default=12, ge=1, le=60, description="default of `generate --rooms`: the quest room comes by then"
    )
    rare_row: float = Field(
        default=1.0,
        ge=0,
        le=100,
        description="`mazmorra stats` flags a dice table row less likely than this percentage (docs/numbers.md)",
    )

    @field_validator("square")
    @classmethod
    def _square(cls, v: str) -> str:
        return check_square(v)

    @field_validator("door_die", "search_die")
    @classmethod
    def _die(cls, v: str) -> str:
        from mazmorra.kinds.dicedungeon.dice import parse_dice

        parse_dice(v)
        return v

    @property
    def square_mm(self) -> float:
        return parse_length(self.square)

    @property
    def max_squares(self) -> int:
        """The most squares a map may span on either side and still be printable (2 m), at most MAP_SQUARES."""
        return most_squares(self.square_mm)


def check_square(v: str) -> str:
    """A square's printed size, within SQUARE_MM (a located error at the setting otherwise)."""
    mm = parse_length(v)
    low, high = SQUARE_MM
    if not low <= mm <= high:
        raise ValueError(
            f"a square prints between {low:g} and {high:g} mm (got {mm:g} mm): below {low:g} mm an area's number "
            "no longer fits at a legible size"
        )
    return v


def most_squares(square_mm: float) -> int:
    """The most squares a map of `square_mm` squares spans either way: printable (2 m) and at most MAP_SQUARES."""
    return min(MAP_SQUARES, int((MAX_PRINT_MM - 2 * MAP_FRAME_MM - MAP_HEADER_MM) // square_mm))


class DiceDungeonSettings(Strict):
    """The family's keys of pack.yaml `game:`."""

    dungeon: DungeonRules = Field(
        default=DungeonRules(), description="generated dungeons: piece sizes, square size, quest rule"
    )


FAMILY = register_family(
    Family(
        "dicedungeon",
        "Dungeons rolled from dice tables (spec E): dice tables with checked ranges and odds, and maps "
        "rolled from them by `mazmorra generate`, printed at miniature scale over as many pages as they need.",
        settings=DiceDungeonSettings,
        former_names=("generated",),
        reference=Path(__file__).with_name("reference.yaml"),
    )
)


def dungeon_rules(pack: Pack) -> DungeonRules:
    """The pack's dungeon settings, or the rulebook's when it gives none."""
    found = pack.settings_of(DiceDungeonSettings)
    return found.dungeon if found is not None else DungeonRules()
