"""Panic card (spec A4): revealed at maximum alert; restriction, university refill and its effects."""

from __future__ import annotations

from pydantic import Field

from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.model.content import ID_PATTERN, ComponentModel, Kind


class Panic(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    dungeon: bool = Field(False, description="only for this pack's dungeon (prints the dungeon icon)")
    boss: str | None = Field(None, pattern=ID_PATTERN, description="only with this boss (its id)")
    restriction: str | None = Field(None, max_length=60, description="the restriction as players read it")
    omega: int = Field(0, ge=0, le=3, description="omega students always kept in the university")
    common: int = Field(0, ge=0, le=20, description="refill: common students per player")
    effects: list[str] = Field(min_length=1, max_length=5, description="the rules that apply once revealed")


KIND = register(
    Kind(
        name="panic",
        family=FAMILY,
        model=Panic,
        template="panic.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "restriction", "effects"),
        summary="Panic card: dungeon/boss restriction, university refill and the effects of maximum alert.",
    )
)
