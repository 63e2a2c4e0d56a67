"""The rotating-rooms family (spec D): two-sided room tiles on a square grid (walls and portcullises
on edges, pit traps, one rotation gear), the starting lines, round character and item tokens, and each
player's action, combat and jump cards.

Its kinds are declared in YAML (`kinds/*.yaml` beside this file) and registered as built-in kinds; what
needs code (rooms that pair up, each player's card set) is in `rules.py`. Its part of pack.yaml's
`game:` section names the player colours and the card set every colour holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field

from mazmorra.kinds import register_family, register_shipped_kinds
from mazmorra.model.colour import Colour
from mazmorra.model.content import Family, Strict, setting_name


class Player(Strict):
    colour: Colour = Field(description="print colour of the player's tokens and cards")
    mark: str = Field(
        "",
        max_length=2,
        description="a symbol printed on the player's tokens, lines and cards, the same in every language, so that "
        "colour is not the only way to tell players apart (print.colour-only)",
    )


class CardSet(Strict):
    """The cards each player colour holds."""

    action: list[Annotated[int, Field(ge=1, le=9)]] = Field(
        min_length=1,
        max_length=9,
        description="the action cards, by their number of actions: a 2 for the first turn, and every one playable "
        "in the first cycle (player_card.first-cycle)",
    )
    combat: list[Annotated[int, Field(ge=0, le=9)]] = Field(
        min_length=1, max_length=20, description="the combat cards, by their bonus (+0 returns to its owner)"
    )
    jump: int = Field(ge=0, le=9, description="how many jump cards")


class RoomsSettings(Strict):
    """The rotating-rooms kinds' game-wide settings (pack.yaml `game:`)."""

    players: dict[Annotated[str, setting_name("player colour")], Player] = Field(
        min_length=2, max_length=8, description="player colours: name -> print colour"
    )
    card_set: CardSet = Field(description="the action, combat and jump cards each player colour holds")


FAMILY = register_family(
    Family(
        "rooms",
        "Rotating rooms (spec D): two-sided room tiles with walls, portcullises, pit traps and a rotation gear; "
        "starting lines; character and item tokens; action, combat and jump cards per player colour.",
        settings=RoomsSettings,
        reference=Path(__file__).with_name("reference.yaml"),
    )
)

register_shipped_kinds(Path(__file__).parent)
