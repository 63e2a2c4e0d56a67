"""Becario card (spec A4): an advanced student an artimaña card grants; bonus points and shields."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import ComponentModel, Kind, register
from mazmorra.kinds._expedition import components, game_of, game_rule_for, unknown_colours
from mazmorra.model import Deck, Pack


class Becario(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    points: int = Field(ge=0, le=10, description="end-game bonus points")
    effect: str = Field(min_length=1, max_length=300, description="effect while held, with {icon:N} tokens")
    shields: list[str] = Field(default_factory=list, max_length=3, description="protected cube colours")


def shields_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """becario.shield: shield colours are cube colours the pack declares, none twice."""
    game = game_of(pack)
    for comp in deck.components:
        card: Becario = comp.data  # type: ignore[assignment]
        yield from unknown_colours(comp, "shields", card.shields, game, "becario.shield", "shield colour")
        if len(set(card.shields)) != len(card.shields):
            yield Problem("becario.shield", "a shield colour is listed twice", comp.field_loc("shields"), comp.id,
                          "shields")


def every_becario_granted(pack: Pack) -> Iterable[Problem]:
    """becario.not-granted: some artimaña card grants every becario (otherwise it never enters play)."""
    granted = {getattr(c.data, "grants", None) for c in components(pack, "artimana")}
    for comp in components(pack, "becario"):
        if comp.id not in granted:
            yield Problem("becario.not-granted", f"no artimaña card grants becario '{comp.id}' (add "
                          f"`grants: {comp.id}` to one)", comp.field_loc("id"), comp.id, "id")


KIND = register(
    Kind(
        name="becario",
        model=Becario,
        template="becario.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "effect"),
        deck_rules=(shields_known,),
        pack_rules=(game_rule_for("becario"), every_becario_granted),
        summary="Becario card: an advanced student granted by an artimaña card; end-game points, effect, "
                "protected cube colours.",
    )
)
