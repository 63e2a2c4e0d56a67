"""Alert card (spec A4): difficulty, university setup and the omega slots; the back recalls the end game."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.model import ComponentModel, Deck, Kind, Pack, of


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Setup(_Part):
    common: int = Field(ge=0, le=20, description="common students per player")
    omega: int = Field(ge=0, le=5, description="omega students")


class OmegaSlot(_Part):
    common: int = Field(ge=0, le=20, description="refill: common students per player")
    omega: int = Field(ge=0, le=5, description="refill: omega students")
    penalty: int = Field(ge=0, le=9, description="study penalty added to every zone's alert")


class Alert(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    difficulty: int = Field(ge=1, le=3, description="1 easy … 3 hard (printed as marks)")
    minutes: int = Field(ge=1, le=120, description="average game length per player, in minutes")
    setup: Setup
    slots: list[OmegaSlot] = Field(min_length=1, max_length=6, description="omega slots, filled top to bottom")


def penalties_rise(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """alert.penalty-order: the study penalty never falls from one omega slot to the next."""
    for comp, card in of(deck.components, Alert):
        for i in range(1, len(card.slots)):
            if card.slots[i].penalty < card.slots[i - 1].penalty:
                yield Problem(
                    "alert.penalty-order",
                    f"slot {i + 1}'s study penalty ({card.slots[i].penalty}) is "
                    f"lower than slot {i}'s ({card.slots[i - 1].penalty})",
                    comp.field_loc("slots"),
                    comp.id,
                    f"slots.{i + 1}.penalty",
                )


KIND = register(
    Kind(
        name="alert",
        family=FAMILY,
        model=Alert,
        template="alert.xml.j2",
        back_template="alert-back.xml.j2",
        size="card",
        translatable=("name",),
        deck_rules=(penalties_rise,),
        summary="Alert card: difficulty and length, university setup, omega slots with refills and study "
        "penalties; its back recalls the end-game rules.",
    )
)
