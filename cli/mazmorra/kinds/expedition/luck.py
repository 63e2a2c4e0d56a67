"""Luck card (spec A4): one random draw answers a player colour and direction, a zone exit and a colour."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY, Settings, unknown_colours
from mazmorra.model import ComponentModel, Deck, Kind, Pack, of

Passage = Literal["N-left", "N-right", "E-left", "E-right", "S-left", "S-right", "W-left", "W-right"]


class Luck(ComponentModel):
    player: str = Field(description="investigator colour (a key of game.players)")
    direction: Literal["N", "E", "S", "W"] = Field(description="compass direction")
    exit: Passage = Field(description="a zone exit: side and left/right as seen from the centre")
    info: str = Field(description="an information colour (a key of game.cubes)")


def colours_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """luck.colour: the info colour is a cube colour; luck.player: the player colour is declared."""
    game = pack.settings_of(Settings)
    if game is None:
        return
    for comp, card in of(deck.components, Luck):
        yield from unknown_colours(comp, "info", [card.info], game, "luck.colour", "info colour")
        if card.player not in game.players:
            known = ", ".join(game.players) or "none declared"
            yield Problem(
                "luck.player",
                f"player colour '{card.player}' is not in game.players (known: {known})",
                comp.field_loc("player"),
                comp.id,
                "player",
            )


KIND = register(
    Kind(
        name="luck",
        family=FAMILY,
        model=Luck,
        template="luck.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        deck_rules=(colours_known,),
        summary="Luck card: a player colour with a compass direction, a zone exit and an information colour.",
    )
)
