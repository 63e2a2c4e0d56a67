"""Chip (spec B2): a circular two-faced token drawn from a player's bag; each face an icon and an optional number."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.bagdraw import FAMILY
from mazmorra.model.colour import Colour
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, Strict, of

ICON_PATTERN = r"^[a-z][a-z0-9_-]*$"


class ChipFace(Strict):
    icon: str = Field(pattern=ICON_PATTERN, description="icon name (bundled or the pack's icons/)")
    number: int | None = Field(None, ge=0, le=99, description="value printed under the icon")
    color: Colour | None = Field(None, description="face colour (default by icon)")

    @property
    def key(self) -> str:
        """How a bag names this face: icon, or icon:number."""
        return self.icon if self.number is None else f"{self.icon}:{self.number}"


class Chip(ComponentModel):
    name: str = Field(min_length=1, max_length=40, description="what players call the chip, e.g. Sword / Chest")
    faces: tuple[ChipFace, ChipFace] = Field(description="exactly two faces: front, back")

    @property
    def key(self) -> str:
        """The chip as a bag lists it: face/face."""
        return "/".join(f.key for f in self.faces)


def faces_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Every face shows an icon that exists (bundled or in the pack's icons/)."""
    icons = IconSet.for_pack(pack.root)
    for comp, chip in of(deck.components, Chip):
        for i, face in enumerate(chip.faces, 1):
            if face.icon not in icons:
                yield Problem(
                    "chip.unknown-icon",
                    f"face {i}: no icon '{face.icon}' (known: {', '.join(icons.names())})",
                    comp.field_loc(f"faces.{i - 1}.icon"),
                    comp.id,
                    f"faces.{i}.icon",
                )


def chips_distinct(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Two chips with the same faces would be the same chip: a bag could not tell them apart."""
    seen: dict[frozenset[str], str] = {}
    for comp, chip in of(deck.components, Chip):
        key = frozenset(f.key for f in chip.faces)
        if key in seen:
            yield Problem(
                "chip.duplicate",
                f"same faces as chip '{seen[key]}'; raise its copies instead",
                comp.field_loc("faces"),
                comp.id,
                "faces",
            )
        else:
            seen[key] = comp.id


KIND = register(
    Kind(
        name="chip",
        family=FAMILY,
        model=Chip,
        template="chip.xml.j2",
        back_template=None,
        size="25x25mm",
        shape="round",
        translatable=("name",),
        deck_rules=(faces_known, chips_distinct),
        two_sided=True,
        reads_settings=False,
        summary="Round two-faced chip: an icon and an optional number on each face.",
    )
)
