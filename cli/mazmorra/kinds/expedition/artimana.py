"""Artimaña card (spec A2): typed trick cards with a main and an auxiliary effect."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.model import ID_PATTERN, ComponentModel, Deck, Kind, Pack, of

# Which auxiliary values each type carries; social and notoriedad print a fixed text instead.
AUX_BY_TYPE: dict[str, frozenset[str]] = {
    "destino": frozenset({"stealth", "alert"}),
    "subterfugio": frozenset({"stealth", "alert"}),
    "magica": frozenset({"divination"}),
    "exploracion": frozenset({"move"}),
    "social": frozenset(),
    "notoriedad": frozenset(),
}


class Artimana(ComponentModel):
    type: Literal["destino", "subterfugio", "magica", "exploracion", "social", "notoriedad"]
    name: str = Field(min_length=1, max_length=60)
    timing: Literal["normal", "instantanea", "reaccion"] = "normal"
    action: bool = Field(False, description="the main effect uses the turn's action (prints ACTION)")
    value: int = Field(ge=0, le=9, description="enhancement value, white number top-left")
    effect: str = Field(min_length=1, max_length=600, description="main effect, with {icon:N} tokens")
    aux: dict[Literal["stealth", "alert", "divination", "move"], int] = Field(
        default_factory=dict, description="auxiliary values, fixed by type"
    )
    grants: str | None = Field(None, pattern=ID_PATTERN, description="id of a becario this card grants")
    omega: bool = False


def aux_matches_type(deck: Deck, pack: Pack) -> Iterable[Problem]:
    for comp, card in of(deck.components, Artimana):
        want = AUX_BY_TYPE[card.type]
        have = set(card.aux)
        if have != want:
            if want:
                need = " and ".join(sorted(want))
                msg = (
                    f"a {card.type} card's auxiliary effect is {need}; this one has {', '.join(sorted(have)) or 'none'}"
                )
            else:
                msg = f"a {card.type} card has a fixed auxiliary effect; remove 'aux' ({', '.join(sorted(have))})"
            yield Problem("artimana.aux-type", msg, comp.field_loc("aux"), comp.id, "aux")
        for key, n in card.aux.items():
            if not 1 <= n <= 9:
                yield Problem(
                    "artimana.aux-range",
                    f"aux {key} must be 1..9 (got {n})",
                    comp.field_loc("aux"),
                    comp.id,
                    f"aux.{key}",
                )


KIND = register(
    Kind(
        name="artimana",
        family=FAMILY,
        reads_settings=False,
        model=Artimana,
        template="artimana.xml.j2",
        back_template="artimana-back.xml.j2",
        size="card",
        translatable=("name", "effect"),
        count_field="type",
        deck_rules=(aux_matches_type,),
        summary="Trick card of the Expedition game: type, timing, enhancement value, main and auxiliary effects.",
    )
)
