"""Panic card (spec A4): revealed at maximum alert; restriction, university refill and its effects."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import ID_PATTERN, ComponentModel, Kind, register
from mazmorra.kinds._expedition import components
from mazmorra.model import Pack


class Panic(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    dungeon: bool = Field(False, description="only for this pack's dungeon (prints the dungeon icon)")
    boss: str | None = Field(None, pattern=ID_PATTERN, description="only with this boss (its id)")
    restriction: str | None = Field(None, max_length=60, description="the restriction as players read it")
    omega: int = Field(0, ge=0, le=3, description="omega students always kept in the university")
    common: int = Field(0, ge=0, le=20, description="refill: common students per player")
    effects: list[str] = Field(min_length=1, max_length=5, description="the rules that apply once revealed")


def boss_known(pack: Pack) -> Iterable[Problem]:
    """panic.boss: a panic card restricted to a boss names a boss card of the pack, and says so."""
    bosses = {c.id for c in components(pack, "boss")}
    for comp in components(pack, "panic"):
        card: Panic = comp.data  # type: ignore[assignment]
        if card.boss is not None and card.boss not in bosses:
            yield Problem("panic.boss", f"restricted to boss '{card.boss}', which no boss card defines (known: "
                          f"{', '.join(sorted(bosses)) or 'none'})", comp.field_loc("boss"), comp.id, "boss")
        if card.boss is not None and not card.restriction:
            yield Problem("panic.boss", "a card restricted to a boss prints it: add `restriction:` (e.g. \"Solo "
                          "con …\")", comp.field_loc("boss"), comp.id, "restriction")


KIND = register(
    Kind(
        name="panic",
        model=Panic,
        template="panic.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "restriction", "effects"),
        pack_rules=(boss_known,),
        summary="Panic card: dungeon/boss restriction, university refill and the effects of maximum alert.",
    )
)
