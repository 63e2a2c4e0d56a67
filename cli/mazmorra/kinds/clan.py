"""Clan card (spec A4): the secret clan of a game; thesis target and point modifiers per cube colour."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import ComponentModel, Kind, register
from mazmorra.kinds._expedition import game_of, game_rule_for, unknown_colours
from mazmorra.model import Deck, Pack


class Clan(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    flavour: str | None = Field(None, max_length=200)
    target: int = Field(ge=1, le=99, description="points needed to present the thesis")
    modifiers: dict[str, int] = Field(default_factory=dict, description="point modifier per cube colour")


def modifiers_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """clan.colour: modifiers name declared cube colours; clan.modifier: each is -5..+5."""
    game = game_of(pack)
    for comp in deck.components:
        card: Clan = comp.data  # type: ignore[assignment]
        yield from unknown_colours(comp, "modifiers", card.modifiers, game, "clan.colour", "modifier colour")
        for colour, n in card.modifiers.items():
            if not -5 <= n <= 5:
                yield Problem("clan.modifier", f"modifier for '{colour}' must be -5..+5 (got {n})",
                              comp.field_loc("modifiers"), comp.id, f"modifiers.{colour}")


KIND = register(
    Kind(
        name="clan",
        model=Clan,
        template="clan.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        translatable=("name", "flavour"),
        deck_rules=(modifiers_valid,),
        pack_rules=(game_rule_for("clan"),),
        summary="Clan card: thesis target score and point modifiers per cube colour.",
    )
)
