"""Boss card (spec A4): one card, two profiles (one per side), each with its zone modifier and texts."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.kinds.expedition.zone_tile import Effect, effect_problems
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of

SIDE_FIELDS = ("title", "sighting", "activation", "encounter")


class Boss(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    front_title: str = Field(min_length=1, max_length=40, description="profile on the front")
    front_alert: int = Field(0, ge=0, le=9, description="+N to the alert of the boss's zone")
    front_effects: list[Effect] = Field(
        default_factory=list, max_length=3, description="zone effects the boss adds to its zone"
    )
    front_sighting: str = Field(min_length=1, max_length=300)
    front_activation: str = Field(min_length=1, max_length=300)
    front_encounter: str = Field(min_length=1, max_length=300)
    back_title: str = Field(min_length=1, max_length=40, description="profile on the back")
    back_alert: int = Field(0, ge=0, le=9)
    back_effects: list[Effect] = Field(default_factory=list, max_length=3)
    back_sighting: str = Field(min_length=1, max_length=300)
    back_activation: str = Field(min_length=1, max_length=300)
    back_encounter: str = Field(min_length=1, max_length=300)


@documents(
    FAMILY,
    RuleDoc(
        "boss.effect",
        "each zone effect a profile adds to the boss's zone is a valid zone effect (type, N, letter)",
        "p. 27 «Jefe» B: the boss raises its zone's alert value or adds new zone effects to it",
    ),
)
def zone_effects_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """boss.effect: the effects a profile adds to the boss's zone are valid zone effects."""
    for comp, card in of(deck.components, Boss):
        for side, effects in (("front", card.front_effects), ("back", card.back_effects)):
            for i, eff in enumerate(effects):
                yield from effect_problems(comp, f"{side}_effects.{i}", eff, "boss.effect")


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
