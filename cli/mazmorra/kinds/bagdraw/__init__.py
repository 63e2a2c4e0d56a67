"""The bag-draw family (spec B): double-sided map cards of floors of six spaces, circular chips with
two faces, the bag each player starts with and each player's hero figure (a kind file, kinds/).

Its part of pack.yaml's `game:` section is optional: the number of players (what the setup rules
count entrance maps and bags against) and the floors of each map variant (the rulebook's 3 and 2 by
default); rules read it with `bagdraw_settings(pack)`.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from mazmorra.kinds import register_family, register_shipped_kinds
from mazmorra.model.content import Family, Pack, Strict


class Floors(Strict):
    """Floors on each side of a map card, by variant."""

    entrance: int = Field(
        default=3,
        ge=1,
        le=6,
        description="floors of an entrance map (the rulebook's 3); each floor more needs 13 mm more card "
        "(the deck's card_size: 88x76mm for 4)",
    )
    depths: int = Field(
        default=2,
        ge=1,
        le=6,
        description="floors of a depths map (the rulebook's 2); each floor more needs 13 mm more card",
    )


class BagDrawSettings(Strict):
    """The bag-draw kinds' game-wide settings (pack.yaml `game:`, all optional)."""

    players: int | None = Field(
        default=None, ge=1, le=8, description="how many play: each draws an entrance map and fills a starting bag"
    )
    floors: Floors = Field(default=Floors(), description="floors per side of entrance and depths maps")


FAMILY = register_family(
    Family(
        "bagdraw",
        "Bag-draw dungeon (spec B): map cards of six-space floors, two-faced chips drawn from a bag, the starting bag.",
        settings=BagDrawSettings,
        reference=Path(__file__).with_name("reference.yaml"),
    )
)


register_shipped_kinds(Path(__file__).parent)  # hero_figure (kinds/*.yaml)


def bagdraw_settings(pack: Pack) -> BagDrawSettings:
    """The pack's bag-draw settings, or the rulebook's when it gives none."""
    found = pack.settings_of(BagDrawSettings)
    return found if found is not None else BagDrawSettings()
