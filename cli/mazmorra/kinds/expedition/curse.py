"""Curse card (spec A3): an effect while held and an end-game penalty."""

from __future__ import annotations

from pydantic import Field

from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.model.content import ComponentModel, Kind


class Curse(ComponentModel):
    name: str = Field(min_length=1, max_length=60)
    effect: str = Field(min_length=1, max_length=400)
    penalty: int = Field(le=0, ge=-20, description="end-game penalty in points (0 or negative)")
    omega: bool = False


KIND = register(
    Kind(
        name="curse",
        family=FAMILY,
        reads_settings=False,
        model=Curse,
        template="curse.xml.j2",
        back_template="curse-back.xml.j2",
        size="card",
        translatable=("name", "effect"),
        summary="Curse card: an effect while held and a negative end-game penalty.",
    )
)
