"""Zone tile (spec A1): a square dungeon room with passages, doors, info slots, alert and effects."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY, Settings, unknown_colours
from mazmorra.model import Component, ComponentModel, Deck, Kind, Pack, of

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


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Door(_Part):
    passage: str = Field(description="the passage the door sits on, e.g. N-left")
    colours: list[str] = Field(description="1 or 2 cube colours; holding one of them opens the door")


class Effect(_Part):
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
    doors: list[Door] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list, max_length=4, description="resolved left to right")


# ---------------------------------------------------------------- one tile at a time


def passages_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.passage: 1..8 passages, each a known position, none twice."""
    for comp, tile in of(deck.components, ZoneTile):
        loc = comp.field_loc("passages")
        if not 1 <= len(tile.passages) <= MAX_PASSAGES:
            yield Problem(
                "zone_tile.passage",
                f"a tile has 1 to {MAX_PASSAGES} passages; this one has {len(tile.passages)}",
                loc,
                comp.id,
                "passages",
            )
        for p in tile.passages:
            if p not in PASSAGES:
                yield Problem(
                    "zone_tile.passage",
                    f"unknown passage '{p}' (use a side N, E, S, W and left or right "
                    "as seen from the centre: N-left … W-right)",
                    loc,
                    comp.id,
                    "passages",
                )
        for p, n in Counter(tile.passages).items():
            if n > 1:
                yield Problem(
                    "zone_tile.passage",
                    f"passage '{p}' is listed {n} times",
                    loc,
                    comp.id,
                    "passages",
                )


def doors_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.door: a door sits on a passage of its tile and names 1–2 known cube colours."""
    game = pack.settings_of(Settings)
    for comp, tile in of(deck.components, ZoneTile):
        loc = comp.field_loc("doors")
        seen: set[str] = set()
        for door in tile.doors:
            if door.passage not in tile.passages:
                yield Problem(
                    "zone_tile.door",
                    f"door on '{door.passage}', which is not one of this tile's passages "
                    f"({', '.join(tile.passages) or 'none'})",
                    loc,
                    comp.id,
                    "doors",
                )
            if door.passage in seen:
                yield Problem(
                    "zone_tile.door",
                    f"two doors on passage '{door.passage}'",
                    loc,
                    comp.id,
                    "doors",
                )
            seen.add(door.passage)
            if not 1 <= len(door.colours) <= 2:
                yield Problem(
                    "zone_tile.door",
                    f"a door shows one or two cube colours; the door on '{door.passage}' has {len(door.colours)}",
                    loc,
                    comp.id,
                    "doors",
                )
            elif len(set(door.colours)) != len(door.colours):
                yield Problem(
                    "zone_tile.door",
                    f"the door on '{door.passage}' repeats a colour",
                    loc,
                    comp.id,
                    "doors",
                )
            yield from unknown_colours(comp, "doors", door.colours, game, "zone_tile.door", "door colour")


def effects_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.effect: known effect types, N in range where the type has an N, letters and camp colours."""
    game = pack.settings_of(Settings)
    for comp, tile in of(deck.components, ZoneTile):
        for eff in tile.effects:
            yield from effect_problems(comp, "effects", eff)
            if eff.requires and eff.type in EFFECTS and EFFECTS[eff.type].requires:
                yield from unknown_colours(comp, "effects", eff.requires, game, "zone_tile.effect", "camp colour")


def effect_problems(comp: Component, fld: str, eff: Effect) -> Iterable[Problem]:
    """Problems of one effect, wherever it is printed (tiles, the boss card's zone modifier)."""
    loc = comp.field_loc(fld)
    spec = EFFECTS.get(eff.type)
    if spec is None:
        yield Problem(
            "zone_tile.effect",
            f"unknown zone effect '{eff.type}' (known: {', '.join(EFFECTS)})",
            loc,
            comp.id,
            fld,
        )
        return
    if spec.n is None and eff.n is not None:
        yield Problem(
            "zone_tile.effect",
            f"effect '{eff.type}' has no N (remove n: {eff.n})",
            loc,
            comp.id,
            fld,
        )
    if spec.n is not None:
        lo, hi = spec.n
        if eff.n is None:
            yield Problem(
                "zone_tile.effect",
                f"effect '{eff.type}' needs its N ({lo}–{hi})",
                loc,
                comp.id,
                fld,
            )
        elif not lo <= eff.n <= hi:
            yield Problem(
                "zone_tile.effect",
                f"effect '{eff.type}' N must be {lo}–{hi} (got {eff.n})",
                loc,
                comp.id,
                fld,
            )
    if spec.letter and (eff.letter is None or not LETTER.match(eff.letter)):
        yield Problem(
            "zone_tile.effect",
            f"effect '{eff.type}' needs a letter A–Z (got {eff.letter!r})",
            loc,
            comp.id,
            fld,
        )
    if not spec.letter and eff.letter is not None:
        yield Problem("zone_tile.effect", f"effect '{eff.type}' has no letter", loc, comp.id, fld)
    if not spec.requires and eff.requires:
        yield Problem(
            "zone_tile.effect",
            f"effect '{eff.type}' cannot require cube colours",
            loc,
            comp.id,
            fld,
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


def slot_colours_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.slot: slot colours are cube colours the pack declares."""
    game = pack.settings_of(Settings)
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
