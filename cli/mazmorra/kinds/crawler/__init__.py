"""The deck-box crawler family (spec C): map tiles with terrain, connections and spawn points;
hero, equipment, skill, item, enemy and marker cards; a printable net for a custom enemy die.

Its kinds are declared in YAML (`kinds/*.yaml` beside this file, laid out like a pack's `kinds/`
folder) and registered as built-in kinds, so a pack names them like any other (`kind: enemy`) and
may extend them. What needs code (spawn points around the point of interest, reachable spaces, values
that must fit the marker tracks, die faces that name enemies) is in `rules.py`. Its part of pack.yaml's
`game:` section names the threat colours once per pack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field

from mazmorra.kinds import register_family, register_shipped_kinds
from mazmorra.model.colour import Colour
from mazmorra.model.content import Family, Strict, setting_name


class Threat(Strict):
    colour: Colour = Field(description="print colour")
    rank: int = Field(ge=1, le=9, description="activation order: enemies act from the lowest rank up")
    stun_immune: bool = Field(
        default=False, description="stun does not affect its enemies (the rulebook's red enemies); printed on them"
    )


class CrawlerSettings(Strict):
    """The crawler kinds' game-wide settings (pack.yaml `game:`)."""

    threats: dict[Annotated[str, setting_name("threat")], Threat] = Field(
        min_length=1, max_length=8, description="enemy threat types: print colour and activation rank per name"
    )
    players: int | None = Field(
        default=None, ge=1, le=8, description="how many play: each takes a hero, an equipment, a skill and 3 markers"
    )
    market: int = Field(default=3, ge=1, le=9, description="item cards turned face up to buy from (the rulebook's 3)")


FAMILY = register_family(
    Family(
        "crawler",
        "Deck-box crawler (spec C): map tile cards with terrain, connections and spawn points; hero, "
        "equipment, skill, item, enemy and marker cards; a custom enemy die to fold.",
        settings=CrawlerSettings,
        reference=Path(__file__).with_name("reference.yaml"),
    )
)

register_shipped_kinds(Path(__file__).parent)
