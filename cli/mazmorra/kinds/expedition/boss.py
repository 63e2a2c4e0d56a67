"""Boss card (spec A4): one card, two profiles (one per side), each with its zone modifier and texts."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.kinds.expedition.zone_tile import Effect, effect_problems
from mazmorra.model import ComponentModel, Deck, Kind, Pack

SIDE_FIELDS = ("title", "sighting", "activation", "encounter")


class Boss(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    front_title: str = Field(min_length=1, max_length=40, description="profile on the front")
    front_alert: int = Field(0, ge=0, le=9, description="+N to the alert of the boss's zone")
    front_effect: Effect | None = Field(None, description="a zone effect the boss adds to its zone")
    front_sighting: str = Field(min_length=1, max_length=300)
    front_activation: str = Field(min_length=1, max_length=300)
    front_encounter: str = Field(min_length=1, max_length=300)
    back_title: str = Field(min_length=1, max_length=40, description="profile on the back")
    back_alert: int = Field(0, ge=0, le=9)
    back_effect: Effect | None = None
    back_sighting: str = Field(min_length=1, max_length=300)
    back_activation: str = Field(min_length=1, max_length=300)
    back_encounter: str = Field(min_length=1, max_length=300)


def zone_effects_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.effect: the effect a profile adds to the boss's zone is a valid zone effect."""
    for comp in deck.components:
        for side in ("front", "back"):
            eff = getattr(comp.data, f"{side}_effect")
            if eff is not None:
                yield from effect_problems(comp, f"{side}_effect", eff)


KIND = register(
    Kind(
        name="boss",
        family=FAMILY,
        model=Boss,
        template="boss.xml.j2",
        back_template=None,
        two_sided=True,
        size="card",
        translatable=("name",) + tuple(f"{s}_{f}" for s in ("front", "back") for f in SIDE_FIELDS),
        deck_rules=(zone_effects_known,),
        summary="Boss card: two profiles, one per side, each with a zone modifier, sighting, activation and "
        "encounter texts.",
    )
)
