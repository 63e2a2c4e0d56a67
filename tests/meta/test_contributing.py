"""CONTRIBUTING.md's drawing of the house is held against the code: its floor table names every
package once, and every import between packages goes down a floor (never up, never sideways); every
module and folder it names exists."""

from __future__ import annotations

import re

from conftest import REPO
from test_structure import PACKAGE, _imports, _modules

TEXT = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")


def _floors() -> dict[str, int]:
    floors: dict[str, int] = {}
    for floor, cell in re.findall(r"^\| (\d+) \| ([^|]+) \|", TEXT, flags=re.MULTILINE):
        for name in re.findall(r"`([a-z0-9_]+)`", cell):
            assert name not in floors, f"{name} is on two floors"
            floors[name] = int(floor)
    return floors


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_the_floor_table_lists_every_package_once() -> None:
    floors = _floors()
    tops = {_top(name) for name in _modules()} - {"mazmorra", "__main__"}
    assert tops - floors.keys() == set(), "packages missing from CONTRIBUTING.md's floor table"
    assert floors.keys() - tops == set(), "the floor table names packages that do not exist"


def test_every_import_goes_down_a_floor() -> None:
    floors = _floors()
    mods = _modules()
    wrong = set()
    for name, path in mods.items():
        here = _top(name)
        if here not in floors:
            continue
        for dep in _imports(name, path, mods):
            there = _top(dep)
            if there != here and there in floors and floors[there] >= floors[here]:
                wrong.add(f"{here} (floor {floors[here]}) imports {there} (floor {floors[there]}): {name} -> {dep}")
    assert sorted(wrong) == []


def test_every_path_it_names_exists() -> None:
    named = set(re.findall(r"`([a-z0-9_]+(?:/[a-z0-9_<>]+)*(?:\.py|/))`", TEXT))
    missing = []
    for rel in sorted(named):
        if "<" in rel or rel == "output/":  # a placeholder; the build's output folder
            continue
        candidates = [PACKAGE / rel, REPO / rel, REPO / "tests" / rel]
        if not any(c.exists() for c in candidates):
            missing.append(rel)
    assert missing == []
