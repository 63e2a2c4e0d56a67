"""Artimaña card (spec A2): typed trick cards with a main and an auxiliary effect.

Destino cards have no main-effect text: their main effect is a second enhancement value printed in
the centre (rulebook p. 13). Every other type prints its main effect as text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY
from mazmorra.model.content import ID_PATTERN, ComponentModel, Deck, Kind, Pack, of

# Which auxiliary values each type carries; social and notoriedad print a fixed text instead.
AUX_BY_TYPE: dict[str, frozenset[str]] = {
    "destino": frozenset({"stealth", "alert"}),
    "subterfugio": frozenset({"stealth", "alert"}),
    "magica": frozenset({"divination"}),
    "exploracion": frozenset({"move"}),
    "social": frozenset(),
    "notoriedad": frozenset(),
}
# Types whose auxiliary effect is a value of the card's own, so it may carry its own timing icon; the
# social and notoriety auxiliary effects are one fixed text, the same on every card of the type.
AUX_TIMED = frozenset({"destino", "subterfugio", "magica", "exploracion"})
Timing = Literal["normal", "instantanea", "reaccion"]


class Artimana(ComponentModel):
    type: Literal["destino", "subterfugio", "magica", "exploracion", "social", "notoriedad"]
    name: str = Field(min_length=1, max_length=60)
    timing: Timing = "normal"
    action: bool = Field(False, description="the main effect uses the turn's action (prints ACTION)")
    value: int = Field(ge=0, le=9, description="enhancement value, white number top-left")
    effect: str | None = Field(
        None, min_length=1, max_length=600, description="main effect, with {icon:N} tokens (every type but destino)"
    )
    centre_value: int | None = Field(
        None, description="destino only: its main effect, the enhancement value printed in the centre"
    )
    aux: dict[Literal["stealth", "alert", "divination", "move"], int] = Field(
        default_factory=dict, description="auxiliary values, fixed by type"
    )
    aux_timing: Timing = Field("normal", description="instant or reaction icon on the auxiliary effect")
    grants: str | None = Field(None, pattern=ID_PATTERN, description="id of a becario this card grants")
    omega: bool = False


@documents(
    FAMILY,
    RuleDoc(
        "artimana.aux-type",
        "the auxiliary effect matches the type: stealth and alert values (destino, subterfugio), divination "
        "(magica), move (exploracion), none of its own (social, notoriedad print a fixed text)",
        "p. 13 «Cartas de Destino» to «Cartas de Notoriedad», Efecto Auxiliar of each type",
    ),
    RuleDoc(
        "artimana.aux-range",
        "auxiliary values are 1 to 9",
        "p. 13 «Iconos de Efectos»: each icon acts N times",
    ),
)
def aux_matches_type(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """artimana.aux-type, artimana.aux-range: the auxiliary effect the card's type prints."""
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
                    comp.field_loc(f"aux.{key}"),
                    comp.id,
                    f"aux.{key}",
                )


@documents(
    FAMILY,
    RuleDoc(
        "artimana.destino-main",
        "a destino card's main effect is a second enhancement value printed in the centre (`centre_value`, "
        "1–9), not a text; every other type has a main-effect text and no centre value",
        "p. 13 «Cartas de Destino», Efecto Principal: played for the enhancement value in the card's centre "
        "while building a stealth value",
    ),
)
def destino_main_is_a_value(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """artimana.destino-main: destino prints a centre value as its main effect; the others a text."""
    for comp, card in of(deck.components, Artimana):
        if card.type == "destino":
            if card.centre_value is None or not 1 <= card.centre_value <= 9:
                yield Problem(
                    "artimana.destino-main",
                    "a destino card's main effect is the enhancement value printed in its centre: "
                    f"give centre_value 1–9 (got {card.centre_value})",
                    comp.field_loc("centre_value"),
                    comp.id,
                    "centre_value",
                )
            if card.effect is not None:
                yield Problem(
                    "artimana.destino-main",
                    "a destino card's main effect is its centre value, not a text: remove 'effect'",
                    comp.field_loc("effect"),
                    comp.id,
                    "effect",
                )
        else:
            if card.effect is None:
                yield Problem(
                    "artimana.destino-main",
                    f"a {card.type} card needs its main effect text (effect: …)",
                    comp.field_loc("type"),
                    comp.id,
                    "effect",
                )
            if card.centre_value is not None:
                yield Problem(
                    "artimana.destino-main",
                    f"only destino cards print a centre value; remove it from this {card.type} card",
                    comp.field_loc("centre_value"),
                    comp.id,
                    "centre_value",
                )


@documents(
    FAMILY,
    RuleDoc(
        "artimana.aux-timing",
        "an instant or reaction icon on the auxiliary effect only on types whose auxiliary effect is a value of "
        "the card (destino, subterfugio, magica, exploracion)",
        "p. 12 «Tiempos de las Cartas de Artimaña»: main or auxiliary effects with the instant or reaction icon "
        "may be played in an opponent's turn; p. 13: social and notoriety auxiliary effects are fixed texts",
    ),
)
def aux_timing_allowed(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """artimana.aux-timing: a timing icon on the auxiliary effect where the type has one of its own."""
    for comp, card in of(deck.components, Artimana):
        if card.aux_timing != "normal" and card.type not in AUX_TIMED:
            yield Problem(
                "artimana.aux-timing",
                f"a {card.type} card's auxiliary effect is the type's fixed text and carries no timing icon "
                f"(remove aux_timing: {card.aux_timing})",
                comp.field_loc("aux_timing"),
                comp.id,
                "aux_timing",
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
        deck_rules=(aux_matches_type, destino_main_is_a_value, aux_timing_allowed),
        summary="Trick card of the Expedition game: type, timing, enhancement value, main effect (a centre value "
        "on destino cards) and auxiliary effect.",
    )
)
