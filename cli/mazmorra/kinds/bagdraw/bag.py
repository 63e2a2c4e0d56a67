"""Starting bag (spec B2): which chips, and how many of each, a player starts with; printed as a reference card.

A bag names each chip by its two faces ("sword/chest", "coin:2/potion"), the way a player sees it,
so the card can draw the faces without looking the chip up.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from mazmorra.kinds import register
from mazmorra.kinds.bagdraw import FAMILY
from mazmorra.model.content import ComponentModel, Kind

_FACE = re.compile(r"^(?P<icon>[a-z][a-z0-9_-]*)(?::(?P<number>\d{1,2}))?$")


class FaceRef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    icon: str
    number: int | None = None

    @property
    def key(self) -> str:
        return self.icon if self.number is None else f"{self.icon}:{self.number}"


def _parse_chip_ref(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    parts = [p.strip() for p in value.split("/")]
    faces = []
    for part in parts:
        m = _FACE.match(part)
        if m is None:
            raise ValueError(f"'{value}' is not a chip: write its two faces as icon/icon (a number as icon:2)")
        faces.append({"icon": m["icon"], "number": int(m["number"]) if m["number"] else None})
    if len(faces) != 2:
        raise ValueError(f"'{value}': a chip has two faces, written icon/icon")
    return {"faces": faces}


class ChipRef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    faces: tuple[FaceRef, FaceRef]

    @property
    def key(self) -> frozenset[str]:
        return frozenset(f.key for f in self.faces)

    def __str__(self) -> str:
        return "/".join(f.key for f in self.faces)


class BagEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    chip: Annotated[ChipRef, BeforeValidator(_parse_chip_ref, json_schema_input_type=str | ChipRef)]
    count: int = Field(ge=1, le=99)


class Bag(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    note: str | None = Field(None, max_length=160, description="a short reminder printed under the list")
    players: int = Field(1, ge=1, le=8, description="how many players each start with this bag")
    total: int = Field(ge=1, le=99, description="declared number of chips in the bag")
    chips: list[BagEntry] = Field(min_length=1, max_length=12)


KIND = register(
    Kind(
        name="bag",
        family=FAMILY,
        model=Bag,
        template="bag.xml.j2",
        back_template="bag-back.xml.j2",
        size="poker",
        translatable=("name", "note"),
        reads_settings=False,
        summary="A player's starting bag: chips and counts, printed as a reference card.",
    )
)
