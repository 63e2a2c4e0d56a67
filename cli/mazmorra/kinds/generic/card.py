"""Generic card: a title, a text and an optional icon or picture; the starting point of a new pack."""

from __future__ import annotations

from pydantic import Field

from mazmorra.kinds import register
from mazmorra.model.colour import Colour
from mazmorra.model.content import ComponentModel, Kind


class Card(ComponentModel):
    name: str = Field(min_length=1, max_length=80)
    text: str = Field("", max_length=800, description="body text with inline icon tokens")
    icon: str | None = Field(None, description="an icon name drawn above the text")
    image: str | None = Field(None, description="a picture file inside the pack")
    colour: Colour = Field("#34495e", description="frame colour")


KIND = register(
    Kind(
        name="card",
        model=Card,
        template="card.xml.j2",
        back_template="card-back.xml.j2",
        size="card",
        translatable=("name", "text"),
        summary="Generic card: title, text with inline icons, optional icon or picture, frame colour.",
    )
)
