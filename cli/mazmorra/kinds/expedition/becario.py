"""Becario card (spec A4): an advanced student an artimaña card grants; bonus points and shields."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY, Settings, unknown_colours
from mazmorra.model import ComponentModel, Deck, Kind, Pack, of


class Becario(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    points: int = Field(ge=0, le=10, description="end-game bonus points")
    effect: str = Field(min_length=1, max_length=300, description="effect while held, with {icon:N} tokens")
    shields: list[str] = Field(default_factory=list, max_length=3, description="protected cube colours")


def shields_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """becario.shield: shield colours are cube colours the pack declares, none twice."""
    game = pack.settings_of(Settings)
    for comp, card in of(deck.components, Becario):
        yield from unknown_colours(comp, "shields", card.shields, game, "becario.shield", "shield colour")
        if len(set(card.shields)) != len(card.shields):
            yield Problem(
                "becario.shield",
                "a shield colour is listed twice",
                comp.field_loc("shields"),
                comp.id,
                "shields",
            )


KIND = register(
    Kind(
        name="becario",
        family=FAMILY,
        model=Becario,
        template="becario.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "effect"),
        deck_rules=(shields_known,),
        summary="Becario card: an advanced student granted by an artimaña card; end-game points, effect, "
        "protected cube colours.",
    )
)
