"""Zone tile (spec A1): a square dungeon room with passages, doors, info slots, alert and effects."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import Component, ComponentModel, Deck, Kind, Pack, Strict, of

SIDES = ("N", "E", "S", "W")
PASSAGES = tuple(f"{side}-{pos}" for side in SIDES for pos in ("left", "right"))
MAX_PASSAGES = 8
LETTER = re.compile(r"^[A-Z]$")


@dataclass(frozen=True)
class EffectType:
    """What a zone effect needs: voluntary effects print round, passive ones square."""

    voluntary: bool
    n: tuple[int, int] | None  # the allowed range of N, or None when the effect has no N
    hostile: bool  # never on the initial (safe) zone
    letter: bool = False  # a secret-passage letter
    requires: bool = False  # may list cube colours the investigator must hold


EFFECTS: dict[str, EffectType] = {
    "good_luck": EffectType(voluntary=False, n=(1, 3), hostile=False),
    "bad_luck": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "danger": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "ambush": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "stop": EffectType(voluntary=False, n=None, hostile=True),
    "toll": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "stairs": EffectType(voluntary=False, n=None, hostile=False),
    "boss": EffectType(voluntary=False, n=None, hostile=True),
    "camp": EffectType(voluntary=True, n=None, hostile=False, requires=True),
    "secret_passage": EffectType(voluntary=True, n=None, hostile=False, letter=True),
}


class TileDoor(Strict):
    passage: str = Field(description="the passage the door sits on, e.g. N-left")
    colours: list[str] = Field(description="1 or 2 cube colours; holding one of them opens the door")


class Effect(Strict):
    type: str = Field(description="good_luck, bad_luck, danger, ambush, stop, toll, stairs, boss, camp, secret_passage")
    n: int | None = Field(None, description="the effect's N, when it has one")
    letter: str | None = Field(None, description="secret passage letter (A–Z)")
    requires: list[str] = Field(default_factory=list, description="camp: cube colours needed to use it")


class ZoneTile(ComponentModel):
    floor: int = Field(ge=1, le=9, description="floor level (printed as a roman numeral)")
    number: int | None = Field(None, ge=1, le=99, description="number within the floor; none on the initial zone")
    initial: bool = Field(False, description="the initial zone: safe, on floor I, with the logo back")
    name: str = Field(min_length=1, max_length=48)
    flavour: str | None = Field(None, max_length=220)
    alert: int | None = Field(None, ge=0, le=20, description="alert value, printed red")
    slots: list[str] = Field(default_factory=list, max_length=5, description="info slots, left to right")
    passages: list[str] = Field(default_factory=list, description="N-left … W-right")
    doors: list[TileDoor] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list, max_length=4, description="resolved left to right")


# ---------------------------------------------------------------- one tile at a time


@documents(
    FAMILY,
    RuleDoc(
        "zone_tile.passage",
        "1 to 8 passages, each a known position (side N/E/S/W, left or right), none twice",
        "p. 16 «Zonas de Mazmorra» C: a zone has 1 to 8 passages; p. 17: tiles always lie north-up",
    ),
)
def passages_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.passage: 1..8 passages, each a known position, none twice."""
    for comp, tile in of(deck.components, ZoneTile):
        if not 1 <= len(tile.passages) <= MAX_PASSAGES:
            yield Problem(
                "zone_tile.passage",
                f"a tile has 1 to {MAX_PASSAGES} passages; this one has {len(tile.passages)}",
                comp.field_loc("passages"),
                comp.id,
                "passages",
            )
        seen: set[str] = set()
        for i, p in enumerate(tile.passages):
            if p not in PASSAGES:
                yield Problem(
                    "zone_tile.passage",
                    f"unknown passage '{p}' (use a side N, E, S, W and left or right "
                    "as seen from the centre: N-left … W-right)",
                    comp.field_loc(f"passages.{i}"),
                    comp.id,
                    "passages",
                )
            elif p in seen:
                yield Problem(
                    "zone_tile.passage",
                    f"passage '{p}' is listed {tile.passages.count(p)} times",
                    comp.field_loc(f"passages.{i}"),
                    comp.id,
                    "passages",
                )
            seen.add(p)


@documents(
    FAMILY,
    RuleDoc(
        "zone_tile.door",
        "a door sits on one of its tile's passages, once, and shows one or two different known cube colours",
        "p. 16 «Zonas de Mazmorra» H–I: doors of one or two colours on passages, blocking entry only",
    ),
)
def doors_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.door: a door sits on a passage of its tile and names 1–2 known cube colours."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, tile in of(deck.components, ZoneTile):
        seen: set[str] = set()
        for i, door in enumerate(tile.doors):
            at = f"doors.{i}"
            if door.passage not in tile.passages:
                yield Problem(
                    "zone_tile.door",
                    f"door on '{door.passage}', which is not one of this tile's passages "
                    f"({', '.join(tile.passages) or 'none'})",
                    comp.field_loc(f"{at}.passage"),
                    comp.id,
                    "doors",
                )
            if door.passage in seen:
                yield Problem(
                    "zone_tile.door",
                    f"two doors on passage '{door.passage}'",
                    comp.field_loc(f"{at}.passage"),
                    comp.id,
                    "doors",
                )
            seen.add(door.passage)
            if not 1 <= len(door.colours) <= 2:
                yield Problem(
                    "zone_tile.door",
                    f"a door shows one or two cube colours; the door on '{door.passage}' has {len(door.colours)}",
                    comp.field_loc(f"{at}.colours"),
                    comp.id,
                    "doors",
                )
            elif len(set(door.colours)) != len(door.colours):
                yield Problem(
                    "zone_tile.door",
                    f"the door on '{door.passage}' repeats a colour",
                    comp.field_loc(f"{at}.colours"),
                    comp.id,
                    "doors",
                )
            yield from unknown_colours(comp, f"{at}.colours", door.colours, game, "zone_tile.door", "door colour")


@documents(
    FAMILY,
    RuleDoc(
        "zone_tile.effect",
        "effect types are known; N present and in range where the type has one, absent otherwise; secret "
        "passages carry a letter A–Z; only camps require cube colours, and known ones",
        "p. 18 «Efectos de Zona»: the passive (square) and voluntary (round) effects, their N and letters; "
        "Campamento usable only holding cubes of the colours shown",
    ),
)
def effects_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.effect: known effect types, N in range where the type has an N, letters and camp colours."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, tile in of(deck.components, ZoneTile):
        for i, eff in enumerate(tile.effects):
            yield from effect_problems(comp, f"effects.{i}", eff)
            if eff.requires and eff.type in EFFECTS and EFFECTS[eff.type].requires:
                yield from unknown_colours(
                    comp, f"effects.{i}.requires", eff.requires, game, "zone_tile.effect", "camp colour"
                )


def effect_problems(comp: Component, at: str, eff: Effect, rule: str = "zone_tile.effect") -> Iterable[Problem]:
    """Problems of one effect, wherever it is printed (tiles, the boss card's zone modifier); `at` is
    the effect's dotted path in the component (`effects.2`)."""
    fld = at.split(".")[0]
    spec = EFFECTS.get(eff.type)
    if spec is None:
        yield Problem(
            rule,
            f"unknown zone effect '{eff.type}' (known: {', '.join(EFFECTS)})",
            comp.field_loc(f"{at}.type"),
            comp.id,
            fld,
        )
        return
    if spec.n is None and eff.n is not None:
        yield Problem(
            rule,
            f"effect '{eff.type}' has no N (remove n: {eff.n})",
            comp.field_loc(f"{at}.n"),
            comp.id,
            fld,
        )
    if spec.n is not None:
        lo, hi = spec.n
        if eff.n is None:
            yield Problem(
                rule,
                f"effect '{eff.type}' needs its N ({lo}–{hi})",
                comp.field_loc(at),
                comp.id,
                fld,
            )
        elif not lo <= eff.n <= hi:
            yield Problem(
                rule,
                f"effect '{eff.type}' N must be {lo}–{hi} (got {eff.n})",
                comp.field_loc(f"{at}.n"),
                comp.id,
                fld,
            )
    if spec.letter and (eff.letter is None or not LETTER.match(eff.letter)):
        yield Problem(
            rule,
            f"effect '{eff.type}' needs a letter A–Z (got {eff.letter!r})",
            comp.field_loc(f"{at}.letter"),
            comp.id,
            fld,
        )
    if not spec.letter and eff.letter is not None:
        yield Problem(rule, f"effect '{eff.type}' has no letter", comp.field_loc(f"{at}.letter"), comp.id, fld)
    if not spec.requires and eff.requires:
        yield Problem(
            rule,
            f"effect '{eff.type}' cannot require cube colours",
            comp.field_loc(f"{at}.requires"),
            comp.id,
            fld,
        )


@documents(
    FAMILY,
    RuleDoc(
        "zone_tile.alert",
        "every tile with info slots prints an alert value",
        "p. 16 «Zonas de Mazmorra» A–B: slots hold the cubes a stealth test against the zone's alert value wins",
    ),
)
def slots_need_alert(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.alert: every tile with info slots prints an alert value."""
    for comp, tile in of(deck.components, ZoneTile):
        if tile.slots and tile.alert is None:
            yield Problem(
                "zone_tile.alert",
                f"the tile has {len(tile.slots)} info slot(s) but no alert value (add alert: N)",
                comp.field_loc("slots"),
                comp.id,
                "alert",
            )


@documents(
    FAMILY,
    RuleDoc(
        "zone_tile.slot",
        "slot colours are cube colours of game.cubes",
        "p. 16 «Zonas de Mazmorra» A and p. 18 «Cubos de Información»: each slot shows one kind of information",
    ),
)
def slot_colours_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.slot: slot colours are cube colours the pack declares."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, tile in of(deck.components, ZoneTile):
        yield from unknown_colours(comp, "slots", tile.slots, game, "zone_tile.slot", "slot colour")


KIND = register(
    Kind(
        name="zone_tile",
        family=FAMILY,
        model=ZoneTile,
        template="zone_tile.xml.j2",
        back_template=None,
        two_sided=True,
        size="58x58mm",
        translatable=("name", "flavour"),
        deck_rules=(
            passages_valid,
            doors_valid,
            effects_valid,
            slots_need_alert,
            slot_colours_known,
        ),
        summary="Square dungeon tile of the Expedition game: passages, doors, info slots, alert value, zone "
        "effects; the back shows the floor (the initial zone's back shows the logo).",
    )
)
