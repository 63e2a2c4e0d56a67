"""Map card (spec B1): a double-sided dungeon map of floors of six spaces, for the bag-draw game.

Each side is written as one line per floor, spaces separated by blanks:

    .        empty space            .torch   empty space with a decoration (no effect)
    x        obstacle (rubble)      sword!   mandatory feature (red ring)   chest?  optional feature (white ring)
    monster:2!  a feature showing a numbered chip face (the number printed beside the icon)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from mazmorra.errors import Problem, Severity
from mazmorra.kinds import register
from mazmorra.kinds.bagdraw import FAMILY, bagdraw_settings
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of

FLOORS = {"entrance": 3, "depths": 2}  # floors per side, by variant
SPACES_PER_FLOOR = 6
SIDES = ("front", "back")
_TOKEN = re.compile(
    r"^(?:(?P<empty>\.)(?P<deco>[a-z][a-z0-9_-]*)?|(?P<obstacle>x)|"
    r"(?P<feature>[a-z][a-z0-9_-]*)(?::(?P<number>\d{1,2}))?(?P<ring>[!?]))$"
)
SPACE_SYNTAX = (
    ". (empty), .icon (decorated empty), x (rubble), icon! (mandatory feature), icon? (optional feature), "
    "icon:2! (a numbered face)"
)


class Space(BaseModel):
    """One space of a floor, as templates see it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["empty", "obstacle", "mandatory", "optional"]
    icon: str | None = None  # the decoration of an empty space, or the chip face of a feature
    number: int | None = None  # a feature's chip face number (monster:2!), printed beside its icon

    @property
    def face(self) -> str | None:
        """The chip face a feature shows, as a bag names it: icon, or icon:number."""
        return self.icon if self.number is None else f"{self.icon}:{self.number}"


def _parse_space(token: Any) -> Any:
    if isinstance(token, dict):
        return token
    if not isinstance(token, str):
        raise ValueError(f"a space is a short text like {SPACE_SYNTAX}")
    m = _TOKEN.match(token)
    if m is None:
        raise ValueError(f"unknown space '{token}'; write {SPACE_SYNTAX}")
    if m["empty"]:
        return {"type": "empty", "icon": m["deco"]}
    if m["obstacle"]:
        return {"type": "obstacle"}
    number = int(m["number"]) if m["number"] else None
    return {"type": "mandatory" if m["ring"] == "!" else "optional", "icon": m["feature"], "number": number}


def _parse_floor(value: Any) -> Any:
    """'x . sword! . chest? .torch' (or a list of such tokens) -> a list of spaces."""
    tokens = value.split() if isinstance(value, str) else value
    if not isinstance(tokens, list):
        raise ValueError('a floor is one line of spaces, e.g. ". x sword! . chest? .torch"')
    return [_parse_space(t) for t in tokens]


Floor = Annotated[list[Space], BeforeValidator(_parse_floor, json_schema_input_type=str | list[str | Space])]


class MapSide(BaseModel):
    """One side of a map card: a full map on its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    floors: list[Floor] = Field(min_length=1, max_length=6, description="top floor first")
    entrance: int | None = Field(
        None,
        ge=1,
        le=SPACES_PER_FLOOR,
        description="space (1..6) the entrance mark stands above; entrance maps only",
    )


class MapCard(ComponentModel):
    variant: Literal["entrance", "depths"]
    name: str = Field(min_length=1, max_length=40, description="the place's name, printed small on both sides")
    front: MapSide
    back: MapSide


def sides(card: MapCard) -> Iterable[tuple[str, MapSide]]:
    """Both sides of a map card, each a full map of its own."""
    return ((side, getattr(card, side)) for side in SIDES)


def floors_per_variant(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Each side of an entrance map has 3 floors, each side of a depths map 2."""
    floors = bagdraw_settings(pack).floors
    for comp, card in of(deck.components, MapCard):
        want = floors.entrance if card.variant == "entrance" else floors.depths
        for side, m in sides(card):
            if len(m.floors) != want:
                what = "an entrance" if card.variant == "entrance" else "a depths"
                yield Problem(
                    "map_card.floors",
                    f"{side}: {what} map has {want} floors on each side; this side has {len(m.floors)}",
                    comp.field_loc(f"{side}.floors"),
                    comp.id,
                    f"{side}.floors",
                )


def six_spaces(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Every floor is a row of exactly six spaces."""
    for comp, card in of(deck.components, MapCard):
        for side, m in sides(card):
            for i, floor in enumerate(m.floors, 1):
                if len(floor) != SPACES_PER_FLOOR:
                    yield Problem(
                        "map_card.spaces",
                        f"{side}: floor {i} has {len(floor)} spaces; every floor has {SPACES_PER_FLOOR}",
                        comp.field_loc(f"{side}.floors.{i - 1}"),
                        comp.id,
                        f"{side}.floors.{i}",
                    )


def entrance_mark(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Only entrance maps show an entrance, above their top floor."""
    for comp, card in of(deck.components, MapCard):
        for side, m in sides(card):
            if card.variant == "depths" and m.entrance is not None:
                yield Problem(
                    "map_card.entrance",
                    f"{side}: a depths map has no entrance; remove 'entrance'",
                    comp.field_loc(f"{side}.entrance"),
                    comp.id,
                    f"{side}.entrance",
                )


def playable_floors(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """A floor where no chip can ever be played is probably a mistake (warning)."""
    for comp, card in of(deck.components, MapCard):
        for side, m in sides(card):
            for i, floor in enumerate(m.floors, 1):
                if floor and all(s.type in ("obstacle", "mandatory") for s in floor):
                    yield Problem(
                        "map_card.playable",
                        f"{side}: floor {i} has no empty or optional space to play a chip on",
                        comp.field_loc(f"{side}.floors.{i - 1}"),
                        comp.id,
                        f"{side}.floors.{i}",
                        severity=Severity.WARNING,
                    )


KIND = register(
    Kind(
        name="map_card",
        family=FAMILY,
        model=MapCard,
        template="map_card.xml.j2",
        back_template=None,
        size="88x63mm",
        translatable=("name",),
        count_field="variant",
        deck_rules=(floors_per_variant, six_spaces, entrance_mark, playable_floors),
        two_sided=True,
        reads_settings=False,
        summary="Double-sided dungeon map: an entrance (3 floors) or depths (2 floors) of six spaces each.",
    )
)
