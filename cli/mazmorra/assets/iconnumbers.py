"""Where the number of `{flask=3}` sits inside each icon: a pack's `icons.yaml` sets, per icon, the
number's offset from the icon's centre and its scale, so every card agrees (the number lands in the
flask's belly, not on its neck)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazmorra.errors import Problem, did_you_mean
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml, locate
from mazmorra.support.memo import Memo

FILE = "icons.yaml"
KEYS = {"x": (-0.5, 0.5), "y": (-0.5, 0.5), "scale": (0.3, 2.0)}


@dataclass(frozen=True)
class NumberPlace:
    """The number's centre offset from the icon's centre (x right, y down, in icon sizes) and its size
    relative to the usual one."""

    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0


def load(
    pack_root: Path, icon_names: set[str], memo: Memo | None = None
) -> tuple[dict[str, NumberPlace], list[Problem]]:
    """The pack's number places by icon name, and what is wrong in icons.yaml (located); the file
    taken from `memo` when an earlier build parsed it."""
    path = pack_root / FILE
    if not path.is_file():
        return {}, []
    try:
        data = load_yaml(path, memo=memo)
    except YamlError as exc:
        return {}, [exc.problem]
    if data is None:
        return {}, []
    if not isinstance(data, YMap):
        return {}, [_problem("icons.yaml holds icon names, each with its number: {x: 0, y: 0.1, scale: 0.8}", data, ())]
    places: dict[str, NumberPlace] = {}
    problems: list[Problem] = []
    for icon, entry in data.items():
        at = (str(icon),)
        if str(icon) not in icon_names:
            problems.append(_problem(f"unknown icon '{icon}'{did_you_mean(str(icon), icon_names)}", data, at))
            continue
        number = entry.get("number") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or set(entry) != {"number"} or not isinstance(number, dict):
            problems.append(_problem(f"'{icon}': write number: {{x: 0, y: 0.1, scale: 0.8}}", data, at))
            continue
        values: dict[str, float] = {}
        for key, value in number.items():
            where = (*at, "number", key)
            if key not in KEYS:
                problems.append(
                    _problem(
                        f"'{icon}': number has no '{key}'{did_you_mean(str(key), KEYS)} (x, y, scale)", data, where
                    )
                )
                continue
            lo, hi = KEYS[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
                problems.append(
                    _problem(f"'{icon}': number {key} is {value!r}; a number from {lo:g} to {hi:g}", data, where)
                )
                continue
            values[key] = float(value)
        places[str(icon)] = NumberPlace(**values)
    return places, problems


def _problem(message: str, data: Any, at: tuple[Any, ...]) -> Problem:
    return Problem("icon.number", f"{FILE}: {message}", locate(data, at), f"icon:{at[0]}" if at else None)
