"""Investigator card (spec A4): standard and exalted sides with stats, abilities and a knowledge combo."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of


class Stats(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    students: int = Field(ge=0, le=9, description="students taken at setup and when resting")
    hand: int = Field(ge=1, le=9, description="artimaña cards refilled at end of turn")
    speed: int = Field(ge=0, le=9, description="zones moved per turn")
    intelligence: int = Field(ge=1, le=9, description="cubes tried per study action")
    resistance: int = Field(ge=1, le=9, description="most stun tokens held")


class Investigator(ComponentModel):
    name: str = Field(min_length=1, max_length=30)
    title: str = Field(min_length=1, max_length=40)
    exalted_title: str = Field(min_length=1, max_length=40)
    stats: Stats
    exalted_stats: Stats
    abilities: list[str] = Field(min_length=1, max_length=3, description="standard side; '**Name:** text'")
    exalted_abilities: list[str] = Field(min_length=1, max_length=3)
    knowledge: list[str] = Field(min_length=1, max_length=5, description="knowledge combo: cube colours")


@documents(
    FAMILY,
    RuleDoc(
        "investigator.colour",
        "the knowledge combo names cube colours of game.cubes",
        "p. 11 «Cartas de Investigador» H: the knowledge combo is a set of information cubes",
    ),
)
def combo_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """investigator.colour: the knowledge combo names declared cube colours."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, card in of(deck.components, Investigator):
        yield from unknown_colours(comp, "knowledge", card.knowledge, game, "investigator.colour", "knowledge colour")


KIND = register(
    Kind(
        name="investigator",
        family=FAMILY,
        model=Investigator,
        template="investigator.xml.j2",
        back_template=None,
        two_sided=True,
        size="card",
        translatable=("name", "title", "exalted_title", "abilities", "exalted_abilities"),
        deck_rules=(combo_known,),
        summary="Investigator card: standard and exalted sides with students, hand, speed, intelligence, "
        "resistance, abilities and the knowledge combo.",
    )
)
