"""Alert card (spec A4): difficulty, university setup and the omega slots; the back recalls the end game."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, family_rule, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings
from mazmorra.kinds.expedition.investigator import Investigator
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of


class _AlertPart(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Setup(_AlertPart):
    common: int = Field(ge=0, le=20, description="common students per player")
    omega: int = Field(ge=0, le=5, description="omega students")


class OmegaSlot(_AlertPart):
    common: int = Field(ge=0, le=20, description="refill: common students per player")
    omega: int = Field(ge=0, le=5, description="refill: omega students")
    penalty: int = Field(ge=0, le=9, description="study penalty added to every zone's alert")


class Alert(ComponentModel):
    name: str = Field(min_length=1, max_length=40)
    difficulty: int = Field(ge=1, le=3, description="1 easy … 3 hard (printed as marks)")
    minutes: int = Field(ge=1, le=120, description="average game length per player, in minutes")
    setup: Setup
    slots: list[OmegaSlot] = Field(min_length=1, max_length=6, description="omega slots, filled top to bottom")


@documents(
    FAMILY,
    RuleDoc(
        "alert.penalty-order",
        "the study penalty never falls from one Omega slot to the next",
        "p. 26 «Cartas de Alerta» C–E: slots fill top to bottom, each Omega student raising the alert; the "
        "penalty of the lowest filled slot applies",
    ),
)
def penalties_rise(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """alert.penalty-order: the study penalty never falls from one omega slot to the next."""
    for comp, card in of(deck.components, Alert):
        for i in range(1, len(card.slots)):
            if card.slots[i].penalty < card.slots[i - 1].penalty:
                yield Problem(
                    "alert.penalty-order",
                    f"slot {i + 1}'s study penalty ({card.slots[i].penalty}) is "
                    f"lower than slot {i}'s ({card.slots[i - 1].penalty})",
                    comp.field_loc(f"slots.{i}.penalty"),
                    comp.id,
                    f"slots.{i + 1}.penalty",
                )


MAX_PLAYERS = 4  # when game.players lists no colours: the rulebook's largest table (p. 8 step 4)


@family_rule(
    FAMILY,
    RuleDoc(
        "alert.students",
        "game.students is declared, and no alert card asks for more students than the box has: setup "
        "(common per player × players, plus every investigator's starting students) and each refill within "
        "the common supply; setup Omega plus every slot's Omega refill within the Omega supply",
        "p. 4 item 6: 40 common and 5 Omega students; p. 8 steps 2 and 13; p. 26 «Universidad y coger "
        "Estudiantes» and «Cartas de Alerta» B–D (our reading: docs/kinds/alert.md)",
    ),
)
def students_suffice(pack: Pack) -> Iterable[Problem]:
    """alert.students: the alert cards' setup and refills never need more students than the box holds."""
    cards = list(pack.of(Alert))
    game = pack.settings_of(ExpeditionSettings)
    if not cards or game is None:
        return
    if game.students is None:
        yield Problem(
            "alert.students",
            "the alert cards fill the university bag: declare the student figures in the box, "
            "game.students: {common: N, omega: N}",
            pack.field_locs.get("game", pack.loc),
            "pack",
            "game.students",
        )
        return
    supply = game.students
    players = len(game.players) or MAX_PLAYERS
    held = sum(sorted((inv.stats.students for _, inv in pack.of(Investigator)), reverse=True)[:players])
    for comp, card in cards:
        need = card.setup.common * players + held
        if need > supply.common:
            yield Problem(
                "alert.students",
                f"setup needs {need} common students ({card.setup.common} × {players} players in the bag + {held} "
                f"the investigators take) but the box has {supply.common}",
                comp.field_loc("setup.common"),
                comp.id,
                "setup.common",
            )
        for i, slot in enumerate(card.slots):
            if slot.common * players > supply.common:
                yield Problem(
                    "alert.students",
                    f"slot {i + 1}'s refill needs {slot.common * players} common students ({slot.common} × "
                    f"{players} players) but the box has {supply.common}",
                    comp.field_loc(f"slots.{i}.common"),
                    comp.id,
                    f"slots.{i + 1}.common",
                )
        omega, at = card.setup.omega, "setup.omega"
        for i, slot in enumerate(card.slots):
            if omega > supply.omega:
                break
            omega, at = omega + slot.omega, f"slots.{i}.omega"
        if omega > supply.omega:
            yield Problem(
                "alert.students",
                f"the card brings {omega} Omega students into the bag by this point (setup and refills: none "
                f"returns before maximum alert) but the box has {supply.omega}",
                comp.field_loc(at),
                comp.id,
                at,
            )


KIND = register(
    Kind(
        name="alert",
        family=FAMILY,
        model=Alert,
        template="alert.xml.j2",
        back_template="alert-back.xml.j2",
        size="card",
        translatable=("name",),
        deck_rules=(penalties_rise,),
        summary="Alert card: difficulty and length, university setup, omega slots with refills and study "
        "penalties; its back recalls the end-game rules.",
    )
)
