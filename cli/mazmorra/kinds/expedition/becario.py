"""Becario card (spec A4): an advanced student an artimaña card grants; bonus points and shields."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of


class Becario(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    points: int = Field(ge=0, le=10, description="end-game bonus points")
    effect: str = Field(min_length=1, max_length=300, description="effect while held, with {icon:N} tokens")
    shields: list[str] = Field(default_factory=list, max_length=3, description="protected cube colours")


@documents(
    FAMILY,
    RuleDoc(
        "becario.shield",
        "shield colours are cube colours of game.cubes, none twice",
        "p. 23 «Cubos de Información protegidos»: coloured shields protect the holder's cubes of those colours",
    ),
)
def shields_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """becario.shield: shield colours are cube colours the pack declares, none twice."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, card in of(deck.components, Becario):
        yield from unknown_colours(comp, "shields", card.shields, game, "becario.shield", "shield colour")
        for i, colour in enumerate(card.shields):
            if colour in card.shields[:i]:
                yield Problem(
                    "becario.shield",
                    f"shield colour '{colour}' is listed twice",
                    comp.field_loc(f"shields.{i}"),
                    comp.id,
                    "shields",
                )


@documents(
    FAMILY,
    RuleDoc(
        "becario.copies",
        "each becario card exists in exactly one copy",
        "p. 23 «Cartas de Becario»: there is only one copy of each; playing its card again steals it",
    ),
)
def one_copy_each(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """becario.copies: one copy of each becario (the card that grants it steals it from its holder)."""
    for comp, _card in of(deck.components, Becario):
        if comp.data.copies != 1:
            yield Problem(
                "becario.copies",
                f"each becario exists once (it is stolen, never duplicated); this one has copies: {comp.data.copies}",
                comp.field_loc("copies"),
                comp.id,
                "copies",
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
        deck_rules=(shields_known, one_copy_each),
        summary="Becario card: an advanced student granted by an artimaña card; end-game points, effect, "
        "protected cube colours.",
    )
)
