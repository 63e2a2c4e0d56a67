"""Clan card (spec A4): the secret clan of a game; thesis target and point modifiers per cube colour."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY, Settings, unknown_colours
from mazmorra.model import ComponentModel, Deck, Kind, Pack, of


class Clan(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    flavour: str | None = Field(None, max_length=200)
    target: int = Field(ge=1, le=99, description="points needed to present the thesis")
    modifiers: dict[str, int] = Field(default_factory=dict, description="point modifier per cube colour")


def modifiers_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """clan.colour: modifiers name declared cube colours; clan.modifier: each is -5..+5."""
    game = pack.settings_of(Settings)
    for comp, card in of(deck.components, Clan):
        yield from unknown_colours(comp, "modifiers", card.modifiers, game, "clan.colour", "modifier colour")
        for colour, n in card.modifiers.items():
            if not -5 <= n <= 5:
                yield Problem(
                    "clan.modifier",
                    f"modifier for '{colour}' must be -5..+5 (got {n})",
                    comp.field_loc("modifiers"),
                    comp.id,
                    f"modifiers.{colour}",
                )


KIND = register(
    Kind(
        name="clan",
        family=FAMILY,
        model=Clan,
        template="clan.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "flavour"),
        deck_rules=(modifiers_valid,),
        summary="Clan card: thesis target score and point modifiers per cube colour.",
    )
)
