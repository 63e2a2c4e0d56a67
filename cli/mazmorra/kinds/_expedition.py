"""Game-wide settings of the Expedition family (pack.yaml `game:`), shared by its kinds' rules.

`game.cubes` names the information-cube colours with their supply, points and print colour;
`game.floors` the dungeon floors with their size (tiles per floor, the initial zone aside);
`game.players` the investigators' colours used by luck cards. Not a kind: the leading underscore
keeps the registry from importing it as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mazmorra.errors import Loc, Problem
from mazmorra.model import Component, Pack
from mazmorra.yamlsafe import YamlError, load_yaml, locate

COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"
NAME_PATTERN = r"^[a-z][a-z0-9_-]*$"

# Kinds whose rules read `game:`; the first of them in deck order reports its problems, once.
READERS = ("zone_tile", "becario", "luck", "clan", "investigator")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Cube(_Strict):
    supply: int = Field(ge=0, le=500, description="cubes of this colour in the box")
    points: int = Field(ge=0, le=50, description="points each cube is worth")
    colour: str = Field(pattern=COLOUR_PATTERN, description="print colour, #rrggbb")


class Floor(_Strict):
    name: str = Field(min_length=1, description="floor name (source language; shown in docs)")
    size: int = Field(ge=1, le=60, description="tiles on this floor, the initial zone aside")


class Player(_Strict):
    colour: str = Field(pattern=COLOUR_PATTERN)


class GameSettings(_Strict):
    cubes: dict[str, Cube] = Field(min_length=1, max_length=12)
    floors: dict[int, Floor] = Field(min_length=1, max_length=9)
    players: dict[str, Player] = Field(default_factory=dict, max_length=8)


@dataclass(frozen=True)
class Parsed:
    settings: GameSettings | None
    problems: tuple[Problem, ...]


def _raw_pack(pack: Pack) -> Any:
    """pack.yaml as located YAML, to point problems at the exact line inside `game:`."""
    try:
        return load_yaml(pack.root / "pack.yaml")
    except YamlError:
        return None


def parse(pack: Pack) -> Parsed:
    """The pack's game settings, or the problems that make them unusable."""
    base = pack.field_locs.get("game", pack.loc)
    raw = pack.spec.game
    if not raw:
        return Parsed(None, (Problem("game.settings", "the Expedition kinds need a `game:` section in pack.yaml "
                                     "with `cubes` (supply, points, colour per cube colour) and `floors` (size)",
                                     pack.loc, "pack", "game"),))
    problems: list[Problem] = []
    try:
        settings = GameSettings.model_validate(raw)
    except ValidationError as exc:
        located = _raw_pack(pack)
        for err in exc.errors():
            path = ("game",) + tuple(err["loc"])
            loc = (locate(located, path) if located is not None else None) or base
            where = ".".join(str(p) for p in path)
            msg = "unknown setting" if err["type"] == "extra_forbidden" else err["msg"]
            if err["type"] == "missing":
                msg = "required setting is missing"
            problems.append(Problem("game.settings", f"{where}: {msg}", loc, "pack", where))
        return Parsed(None, tuple(problems))
    located = _raw_pack(pack)
    for name in settings.cubes:
        if not _is_name(name):
            problems.append(Problem("game.settings", f"cube colour name {name!r} must be lowercase letters, digits, "
                                    "- or _", _at(located, ("game", "cubes", name), base), "pack", f"game.cubes.{name}"))
    floors = sorted(settings.floors)
    if floors != list(range(1, len(floors) + 1)):
        problems.append(Problem("game.settings", f"floors must be numbered 1, 2, 3 … without gaps (got "
                                f"{', '.join(map(str, floors))})", _at(located, ("game", "floors"), base), "pack",
                                "game.floors"))
    if problems:
        return Parsed(None, tuple(problems))
    return Parsed(settings, ())


def _is_name(name: str) -> bool:
    return re.match(NAME_PATTERN, name) is not None


def _at(located: Any, path: tuple[Any, ...], default: Loc) -> Loc:
    return (locate(located, path) if located is not None else None) or default


def game_of(pack: Pack) -> GameSettings | None:
    """Valid settings, or None (their problems are reported once by `game_rule`)."""
    return parse(pack).settings


def floor_size_loc(pack: Pack, floor: int) -> Loc:
    """pack.yaml line of game.floors.<floor>.size (or the closest enclosing line)."""
    located = _raw_pack(pack)
    return _at(located, ("game", "floors", str(floor), "size"), pack.field_locs.get("game", pack.loc))


def game_rule_for(kind: str) -> Callable[[Pack], Iterable[Problem]]:
    """The game.settings rule as registered by one kind: it reports only if that kind reads first."""

    def rule(pack: Pack) -> Iterable[Problem]:
        reporter = next((d.kind.name for d in pack.decks if d.kind.name in READERS), None)
        if reporter != kind:
            return ()
        return parse(pack).problems

    rule.__name__ = f"game_settings_{kind}"
    rule.__doc__ = "game.settings: the `game:` section is present and valid (reported once per pack)."
    return rule


def unknown_colours(comp: Component, fld: str, colours: Iterable[str], game: GameSettings | None,
                    rule: str, what: str) -> Iterable[Problem]:
    """A problem for each colour name that is not a cube colour the pack declares."""
    if game is None:
        return
    known = ", ".join(game.cubes)
    for colour in colours:
        if colour not in game.cubes:
            yield Problem(rule, f"{what} '{colour}' is not a cube colour of this pack (known: {known})",
                          comp.field_loc(fld), comp.id, fld)


def components(pack: Pack, kind: str) -> list[Component]:
    return [c for c in pack.components() if c.kind.name == kind]


__all__ = ["GameSettings", "components", "game_of", "game_rule_for", "parse", "unknown_colours"]
