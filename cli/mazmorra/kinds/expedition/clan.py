"""Clan card (spec A4): the secret clan of a game; thesis target and point modifiers per cube colour."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of


class Clan(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    flavour: str | None = Field(None, max_length=200)
    target: int = Field(ge=1, le=99, description="points needed to present the thesis")
    modifiers: dict[str, int] = Field(default_factory=dict, description="point modifier per cube colour")


@documents(
    FAMILY,
    RuleDoc(
        "clan.colour",
        "modifiers name cube colours of game.cubes",
        "p. 15 «Carta de Clan»: score modifiers for each kind of information cube",
    ),
    RuleDoc(
        "clan.every-colour",
        "a clan gives a modifier (0 included) for every cube colour",
        "p. 5 and p. 15 «Carta de Clan»: the clan card modifies the value of each information cube",
    ),
    RuleDoc(
        "clan.modifier",
        "each modifier is −5 to +5",
        "not in the rulebook: a bound against typing mistakes (the printed cube values are 2 to 6, p. 18)",
    ),
)
def modifiers_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """clan.colour: modifiers name declared cube colours; clan.every-colour: one for each colour;
    clan.modifier: each is -5..+5."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, card in of(deck.components, Clan):
        yield from unknown_colours(comp, "modifiers", card.modifiers, game, "clan.colour", "modifier colour")
        missing = [c for c in game.cubes if c not in card.modifiers] if game is not None else []
        if missing:
            yield Problem(
                "clan.every-colour",
                f"no modifier for {', '.join(missing)}: a clan modifies every kind of cube (write 0 for none)",
                comp.field_loc("modifiers"),
                comp.id,
                "modifiers",
            )
        for colour, n in card.modifiers.items():
            if not -5 <= n <= 5:
                yield Problem(
                    "clan.modifier",
                    f"modifier for '{colour}' must be -5..+5 (got {n})",
                    comp.field_loc(f"modifiers.{colour}"),
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
