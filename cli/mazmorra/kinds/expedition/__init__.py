"""The Expedition family (spec A): zone tiles, the artimaña deck and the other cards and tokens.

Its part of pack.yaml's `game:` section: `cubes` names the information-cube colours with their
supply, points and print colour; `floors` the dungeon floors with their size (tiles per floor, the
initial zone aside); `players` the investigators' colours used by luck cards; `students` the
common and Omega student figures in the box. The pack loader parses it once through `ExpeditionSettings`;
rules read it with `pack.settings_of(ExpeditionSettings)`. The rulebook's box is `reference.yaml`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator

from mazmorra.errors import Problem
from mazmorra.kinds import register_family
from mazmorra.model.colour import Colour
from mazmorra.model.content import Component, Family, Strict, setting_name


class Cube(Strict):
    supply: int = Field(ge=0, le=500, description="cubes of this colour in the box")
    points: int = Field(ge=0, le=50, description="points each cube is worth")
    colour: Colour = Field(description="print colour")
    mark: str = Field(
        "",
        max_length=2,
        description="a letter or symbol printed on every cube of this colour, the same in every language, so that "
        "colour is not the only way to tell cubes apart (print.colour-only)",
    )


class Floor(Strict):
    name: str = Field(min_length=1, description="floor name (source language; shown in docs)")
    size: int = Field(ge=1, le=60, description="tiles on this floor, the initial zone aside")


class ExpeditionPlayer(Strict):
    colour: Colour
    mark: str = Field(
        "",
        max_length=2,
        description="a letter or symbol printed beside the player colour (the luck cards' corners), the same in every "
        "language, so that colour is not the only way to tell investigators apart (print.colour-only)",
    )


class Students(Strict):
    common: int = Field(ge=0, le=500, description="common student figures in the box")
    omega: int = Field(ge=0, le=50, description="Omega student figures in the box")


class ExpeditionSettings(Strict):
    """The Expedition kinds' game-wide settings (pack.yaml `game:`)."""

    cubes: dict[Annotated[str, setting_name("cube colour")], Cube] = Field(
        min_length=1,
        max_length=12,
        description="information cubes: supply, points and print colour per colour",
    )
    floors: dict[int, Floor] = Field(min_length=1, max_length=9, description="dungeon floors 1, 2, 3 … and their size")
    players: dict[str, ExpeditionPlayer] = Field(default_factory=dict, max_length=8, description="investigator colours")
    students: Students | None = Field(None, description="student figures in the box: common and omega")

    @field_validator("floors")
    @classmethod
    def _numbered(cls, floors: dict[int, Floor]) -> dict[int, Floor]:
        numbers = sorted(floors)
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"floors must be numbered 1, 2, 3 … without gaps (got {', '.join(map(str, numbers))})")
        return floors


FAMILY = register_family(
    Family(
        "expedition",
        "Expedition (spec A): zone tiles with passages and info slots, the artimaña and curse decks, "
        "becarios, luck, clan, alert, panic, boss and investigator cards, tokens.",
        settings=ExpeditionSettings,
        reference=Path(__file__).with_name("reference.yaml"),
    )
)


def unknown_colours(
    comp: Component, fld: str, colours: Iterable[str], game: ExpeditionSettings | None, rule: str, what: str
) -> Iterable[Problem]:
    """A problem for each colour name that is not a cube colour the pack declares, at its own line
    (`fld` names the list or mapping the colours come from)."""
    if game is None:
        return
    known = ", ".join(game.cubes)
    keyed = isinstance(colours, Mapping)
    for i, colour in enumerate(colours):
        if colour not in game.cubes:
            yield Problem(
                rule,
                f"{what} '{colour}' is not a cube colour of this pack (known: {known})",
                comp.field_loc(f"{fld}.{colour if keyed else i}"),
                comp.id,
                fld,
            )
