"""Map card (spec B1): a double-sided dungeon map of floors of six spaces, for the bag-draw game.

Each side is written as one line per floor, spaces separated by blanks:

    .        empty space            .torch   empty space with a decoration (no effect)
    x        obstacle (rubble)      sword!   mandatory feature (red ring)   chest?  optional feature (white ring)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from mazmorra.errors import Problem, Severity
from mazmorra.icons import IconSet
from mazmorra.kinds import ComponentModel, Kind, register
from mazmorra.model import Component, Deck, Pack

FLOORS = {"entrance": 3, "depths": 2}  # floors per side, by variant
SPACES_PER_FLOOR = 6
SIDES = ("front", "back")
_TOKEN = re.compile(r"^(?:(?P<empty>\.)(?P<deco>[a-z][a-z0-9_-]*)?|(?P<obstacle>x)|"
                    r"(?P<feature>[a-z][a-z0-9_-]*)(?P<ring>[!?]))$")
SPACE_SYNTAX = ". (empty), .icon (decorated empty), x (rubble), icon! (mandatory feature), icon? (optional feature)"


class Space(BaseModel):
    """One space of a floor, as templates see it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["empty", "obstacle", "mandatory", "optional"]
    icon: str | None = None  # the decoration of an empty space, or the chip face of a feature


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
    return {"type": "mandatory" if m["ring"] == "!" else "optional", "icon": m["feature"]}


def _parse_floor(value: Any) -> Any:
    """'x . sword! . chest? .torch' (or a list of such tokens) -> a list of spaces."""
    tokens = value.split() if isinstance(value, str) else value
    if not isinstance(tokens, list):
        raise ValueError("a floor is one line of spaces, e.g. \". x sword! . chest? .torch\"")
    return [_parse_space(t) for t in tokens]


Floor = Annotated[list[Space], BeforeValidator(_parse_floor)]


class MapSide(BaseModel):
    """One side of a map card: a full map on its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    floors: list[Floor] = Field(min_length=1, max_length=6, description="top floor first")
    entrance: int | None = Field(None, ge=1, le=SPACES_PER_FLOOR,
                                 description="space (1..6) the entrance mark stands above; entrance maps only")


class MapCard(ComponentModel):
    variant: Literal["entrance", "depths"]
    name: str = Field(min_length=1, max_length=40, description="the place's name, printed small on both sides")
    front: MapSide
    back: MapSide


def _sides(comp: Component) -> Iterable[tuple[str, MapSide]]:
    card: MapCard = comp.data  # type: ignore[assignment]
    return ((side, getattr(card, side)) for side in SIDES)


def floors_per_variant(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Each side of an entrance map has 3 floors, each side of a depths map 2."""
    for comp in deck.components:
        want = FLOORS[comp.data.variant]  # type: ignore[attr-defined]
        for side, m in _sides(comp):
            if len(m.floors) != want:
                what = "an entrance" if comp.data.variant == "entrance" else "a depths"  # type: ignore[attr-defined]
                yield Problem("map_card.floors", f"{side}: {what} map has {want} floors on each side; this side "
                              f"has {len(m.floors)}", comp.field_loc(f"{side}.floors"), comp.id, f"{side}.floors")


def six_spaces(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Every floor is a row of exactly six spaces."""
    for comp in deck.components:
        for side, m in _sides(comp):
            for i, floor in enumerate(m.floors, 1):
                if len(floor) != SPACES_PER_FLOOR:
                    yield Problem("map_card.spaces", f"{side}: floor {i} has {len(floor)} spaces; every floor has "
                                  f"{SPACES_PER_FLOOR}", comp.field_loc(f"{side}.floors.{i - 1}"), comp.id, f"{side}.floors.{i}")


def entrance_mark(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Only entrance maps show an entrance, above their top floor."""
    for comp in deck.components:
        for side, m in _sides(comp):
            if comp.data.variant == "depths" and m.entrance is not None:  # type: ignore[attr-defined]
                yield Problem("map_card.entrance", f"{side}: a depths map has no entrance; remove 'entrance'",
                              comp.field_loc(f"{side}.entrance"), comp.id, f"{side}.entrance")


def playable_floors(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """A floor where no chip can ever be played is probably a mistake (warning)."""
    for comp in deck.components:
        for side, m in _sides(comp):
            for i, floor in enumerate(m.floors, 1):
                if floor and all(s.type in ("obstacle", "mandatory") for s in floor):
                    yield Problem("map_card.playable", f"{side}: floor {i} has no empty or optional space to play a "
                                  "chip on", comp.field_loc(f"{side}.floors.{i - 1}"), comp.id, f"{side}.floors.{i}",
                                  severity=Severity.WARNING)


def chip_faces(pack: Pack) -> set[str]:
    """The icons printed on the faces of the pack's chips."""
    return {face.icon for c in pack.components() if c.kind.name == "chip" for face in c.data.faces}  # type: ignore[attr-defined]


def features_are_chip_faces(pack: Pack) -> Iterable[Problem]:
    """A feature looks like a played chip, so its icon must be one of the pack's chip faces."""
    faces = chip_faces(pack)
    icons = IconSet.for_pack(pack.root)
    known = ", ".join(sorted(faces)) or "none: the pack has no chip deck"
    for comp in pack.components():
        if comp.kind.name != "map_card":
            continue
        for side, m in _sides(comp):
            for i, floor in enumerate(m.floors, 1):
                for j, space in enumerate(floor, 1):
                    where = f"{side}.floors.{i}.{j}"
                    if space.type in ("mandatory", "optional") and space.icon not in faces:
                        yield Problem("map_card.unknown-face", f"{side}: floor {i}, space {j}: '{space.icon}' is not a "
                                      f"chip face (faces: {known})", comp.field_loc(f"{side}.floors.{i - 1}"), comp.id, where)
                    elif space.type == "empty" and space.icon is not None and space.icon not in icons:
                        yield Problem("map_card.unknown-decoration", f"{side}: floor {i}, space {j}: no icon "
                                      f"'{space.icon}' for the decoration", comp.field_loc(f"{side}.floors.{i - 1}"), comp.id, where)


KIND = register(
    Kind(
        name="map_card",
        model=MapCard,
        template="map_card.xml.j2",
        back_template=None,
        size="88x63mm",
        translatable=("name",),
        count_field="variant",
        deck_rules=(floors_per_variant, six_spaces, entrance_mark, playable_floors),
        pack_rules=(features_are_chip_faces,),
        two_sided=True,
        summary="Double-sided dungeon map: an entrance (3 floors) or depths (2 floors) of six spaces each.",
    )
)
