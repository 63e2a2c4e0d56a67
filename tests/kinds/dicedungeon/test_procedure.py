"""200 generated dungeons against the rulebook (seeds/004, "Exploración de la mazmorra"): each passes
`validate --strict` (rules and print checks) and a checker written here from the rulebook's text,
which reads only the map's YAML data and never the generator's code, finds no procedure violation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT

from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.errors import ContentError
from mazmorra.kinds.dicedungeon import DungeonRules
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.kinds.dicedungeon.generator import Generator
from mazmorra.kinds.dicedungeon.mapfile import map_entry
from mazmorra.load import load_pack

pytestmark = pytest.mark.slow  # not in the fast tier: 200 generated dungeons validated

# The rulebook's tables, copied from its text ("Longitud de pasillo", "Tabla de características de
# pasillo", "Tabla de final de pasillo", "Tabla de habitaciones", "Colocación de puertas").
RULEBOOK = {
    "corridor-length": [((1, 4), "1"), ((5, 9), "2"), ((10, 11), "3"), ((12, 12), "special")],
    "corridor-features": [
        ((2, 5), "gm-choice"),
        ((6, 9), "empty"),
        ((10, 14), "one-door"),
        ((15, 18), "two-doors"),
        ((19, 21), "empty"),
        ((22, 24), "gm-choice"),
    ],
    "corridor-end": [
        ((2, 3), "x-junction"),
        ((4, 8), "dead-end"),
        ((9, 11), "turn-right"),
        ((12, 14), "t-junction"),
        ((15, 17), "turn-left"),
        ((18, 19), "stairs-down"),
        ((20, 21), "stairs-up"),
        ((22, 24), "special"),
    ],
    "room-type": [((1, 5), "empty"), ((6, 8), "special"), ((9, 10), "lair"), ((11, 12), "quest")],
    "room-doors": [((1, 5), "no-doors"), ((6, 9), "one-door"), ((10, 12), "two-doors")],
}
END_PIECE = {
    "x-junction": "junction",
    "t-junction": "junction",
    "turn-left": "corner",
    "turn-right": "corner",
    "stairs-down": "stairs-down",
    "stairs-up": "stairs-up",
    "special": "special-end",
}
ROOM = {"empty": "room", "special": "special-room", "lair": "lair", "quest": "quest"}
ROOMS = set(ROOM.values())
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


def _squares(at: list[int], size: list[int]) -> Iterator[tuple[int, int]]:
    for y in range(at[1], at[1] + size[1]):
        for x in range(at[0], at[0] + size[0]):
            yield x, y


def _door(d: dict[str, Any], width: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A door's squares and the squares beyond it."""
    (x, y), side = d["at"], d["side"]
    along = (1, 0) if side in ("n", "s") else (0, 1)
    inside = [(x + along[0] * i, y + along[1] * i) for i in range(width)]
    dx, dy = STEP[side]
    return inside, [(a + dx, b + dy) for a, b in inside]


def violations(m: dict[str, Any], table_role: dict[str, str]) -> list[str]:
    """What in map `m` (its YAML data) breaks the rulebook's procedure, one line each."""
    out: list[str] = []
    areas = {a["n"]: a for a in m["areas"]}
    owner = {sq: a["n"] for a in m["areas"] for sq in _squares(a["at"], a["size"])}
    width = m["door_width"]
    rolls = m["rolls"]

    def role(r: dict[str, Any]) -> str | None:
        return table_role.get(r.get("table", ""))

    # Start: stairs down to an empty corridor of two sections ending in a T junction.
    kinds = [areas[n]["type"] for n in (1, 2, 3, 4)]
    if kinds != ["entrance", "corridor", "corridor", "junction"]:
        out.append(f"start sequence is {kinds}")
    ys = {tuple(areas[n]["at"])[1] for n in (2, 3)}
    if len(ys) != 1 or any(areas[n].get("joins") != n - 1 for n in (2, 3, 4)):
        out.append("the start corridor is not two sections in a line")
    for a in m["areas"]:
        if a.get("joins") == 4 and a["at"][0] >= areas[4]["at"][0] + areas[4]["size"][0]:
            out.append(f"area {a['n']} leaves the T junction straight on")

    # Every table roll falls where the rulebook's table says.
    for i, r in enumerate(rolls):
        rl = role(r)
        if rl is not None:
            want = next((o for (lo, hi), o in RULEBOOK[rl] if lo <= r["total"] <= hi), None)
            if str(r.get("outcome")) != want:
                out.append(f"roll {i + 1}: {r['total']} on {rl} is {want}, recorded {r.get('outcome')}")
        elif r.get("die") == "1d6" and r["outcome"] != ("corridor" if r["total"] % 2 == 0 else "room"):
            out.append(f"roll {i + 1}: a room's door on {r['total']} leads to the wrong kind of area")

    # Corridors: as many sections as rolled, ending in the piece rolled, or a note saying why not.
    for i, r in enumerate(rolls):
        rl, notes = role(r), r.get("notes", [])
        if rl == "corridor-length":
            if "makes" not in r:
                if not any(n.startswith("blocked") for n in notes):
                    out.append(f"roll {i + 1}: a corridor made nothing and no note says why")
                continue
            n, count = r["makes"], 0
            while (
                n in areas
                and areas[n]["type"] in ("corridor", "special-corridor")
                and (count == 0 or areas[n].get("joins") == n - 1)
            ):
                count += 1
                n += 1
            want_n = 1 if r["outcome"] == "special" else int(r["outcome"])
            if count != want_n and not any(x.startswith("blocked") for x in notes):
                out.append(f"roll {i + 1}: {count} sections for {r['outcome']}, no note")
            special = areas[r["makes"]]["type"] == "special-corridor"
            if special != (r["outcome"] == "special"):
                out.append(f"roll {i + 1}: special corridor mismatch")
        elif rl == "corridor-end":
            if "makes" in r:
                got, want = areas[r["makes"]]["type"], END_PIECE.get(str(r["outcome"]))
                if got != want:
                    out.append(f"roll {i + 1}: corridor ends in {got}, rolled {r['outcome']}")
            elif (
                r["outcome"] != "dead-end"
                and not notes
                and not any(x.startswith("blocked") for x in rolls[i - 2].get("notes", []))
            ):
                out.append(f"roll {i + 1}: the end {r['outcome']} is missing and no note says why")
        elif rl == "room-type" and "makes" in r:
            got, want = areas[r["makes"]]["type"], ROOM[str(r["outcome"])]
            allowed = {want} | ({"lair"} if "quest-became-lair" in notes else set())
            allowed |= {"quest"} if any(x.endswith("-is-the-quest-room") for x in notes) else set()
            if got not in allowed:
                out.append(f"roll {i + 1}: room is {got}, rolled {r['outcome']} ({notes})")
            if "quest-became-lair" in notes and got == "quest":
                out.append(f"roll {i + 1}: a quest room kept despite its note")
        elif rl == "room-type" and "blocked" not in notes:
            out.append(f"roll {i + 1}: a room rolled and placed nowhere, no note")

    # Piece sizes: sections 5x2, corners 2x2, rooms 5x5, lairs and quest rooms 10x5 (5x5 when noted).
    smaller = {r["makes"] for r in rolls if "smaller-to-fit" in r.get("notes", []) and "makes" in r}
    for a in m["areas"]:
        size = sorted(a["size"])
        want_size = {"corridor": [2, 5], "special-corridor": [2, 5], "room": [5, 5], "special-room": [5, 5]}
        big = [5, 5] if a["n"] in smaller else [5, 10]
        expect = want_size.get(a["type"], big if a["type"] in ("lair", "quest") else [2, 2])
        if size != expect:
            out.append(f"area {a['n']} ({a['type']}) is {a['size']}")

    # Doors: on one area's wall; a corridor's on its long walls; one door a wall; onto unexplored
    # rock, the room opened through it, or (secret) an area already revealed; never half over one.
    per_wall: Counter[tuple[int, str]] = Counter()
    own: Counter[int] = Counter()
    for j, d in enumerate(m["doors"]):
        inside, beyond = _door(d, width)
        held = {owner.get(sq) for sq in inside}
        behind = [owner.get(sq) for sq in beyond]
        if len(held) != 1 or None in held:
            out.append(f"door {j + 1} is not on one area's floor")
            continue
        (area,) = held
        a = areas[area]
        if area in behind:
            out.append(f"door {j + 1} is not on a wall")
        long_sides = ("n", "s") if a["size"][0] > a["size"][1] else ("e", "w")
        if a["type"] in ("corridor", "special-corridor") and d["side"] not in long_sides:
            out.append(f"door {j + 1} is on a corridor's short wall")
        per_wall[(area, d["side"])] += 1
        own[area] += not d.get("searched", False)
        if any(b is None for b in behind) and any(b is not None for b in behind):
            out.append(f"door {j + 1} opens half onto area {next(b for b in behind if b)}")
        elif all(b is not None for b in behind) and not d.get("secret", False):
            far = areas[behind[0]]
            if len(set(behind)) != 1 or far.get("joins") != area or far.get("via") != "door" or far["n"] < area:
                out.append(f"door {j + 1} opens onto area {behind[0]}, revealed already, and is not secret")
        elif all(b is None for b in behind) and d.get("secret", False):
            out.append(f"secret door {j + 1} opens onto rock")
    back = {"n": "s", "s": "n", "e": "w", "w": "e"}
    for (area, side), count in per_wall.items():
        if count > 1:
            out.append(f"area {area} has {count} doors on its {side} wall")
    for d in m["doors"]:  # a room's own doors are on walls other than the one its entry door is on
        inside, beyond = _door(d, width)
        far = {owner.get(sq) for sq in beyond}
        if len(far) == 1 and None not in far:
            (room,) = far
            if areas[room]["type"] in ROOMS and areas[room].get("joins") == owner.get(inside[0]):
                if per_wall[(room, back[d["side"]])] and not d.get("secret", False):
                    out.append(f"room {room} has a door of its own on the wall it was entered by")

    # Door counts: a room has the doors rolled for it, a corridor the doors its features rolled,
    # unless a note says fewer fit or one was taken back; doors found by searching come on top.
    for i, r in enumerate(rolls):
        rl, notes = role(r), r.get("notes", [])
        if rl == "room-doors":
            want_d = {"no-doors": 0, "one-door": 1, "two-doors": 2}[str(r["outcome"])]
            if own[r["area"]] != want_d and not any(x.startswith("only-") or x == "door-dropped" for x in notes):
                dropped = any("door-dropped" in x.get("notes", []) for x in rolls[i + 1 :])
                if not (dropped and own[r["area"]] < want_d):
                    out.append(f"roll {i + 1}: room {r['area']} has {own[r['area']]} doors, rolled {r['outcome']}")
        elif rl == "corridor-features":
            length = rolls[i - 1]
            if "makes" not in length:
                continue
            want_d = {"one-door": 1, "two-doors": 2}.get(str(r["outcome"]), 0)
            n, got = length["makes"], 0
            while (
                n in areas
                and areas[n]["type"] in ("corridor", "special-corridor")
                and (n == length["makes"] or areas[n].get("joins") == n - 1)
            ):
                got += own[n]
                n += 1
            later_drop = any("door-dropped" in x.get("notes", []) for x in rolls[i:])
            if got > want_d or (got < want_d and not any(x.startswith("only-") for x in notes) and not later_drop):
                out.append(f"roll {i + 1}: corridor from area {length['makes']} has {got} doors, rolled {r['outcome']}")

    # Secret doors are searched for: a roll of 10 or more finds one, and only then.
    found = [r for r in rolls if r.get("die") == "1d12"]
    for r in found:
        if (r["total"] >= 10) != (r["outcome"] == "found"):
            out.append(f"search roll {r['total']} recorded {r['outcome']}")
    if sum(r["outcome"] == "found" for r in found) != sum(d.get("searched", False) for d in m["doors"]):
        out.append("searched doors and successful searches differ")

    # The quest room: one at most, never before 2 lairs or 8 rooms; it starts a combat (printed).
    lairs = rooms = 0
    for a in m["areas"]:
        if a["type"] == "quest" and lairs < 2 and rooms < 8:
            out.append(f"quest room {a['n']} before 2 lairs or 8 rooms")
        if a["type"] in ROOMS:
            rooms += 1
            lairs += a["type"] == "lair"
    if sum(a["type"] == "quest" for a in m["areas"]) > 1:
        out.append("more than one quest room")
    return out


@pytest.fixture(scope="module")
def maps() -> list[dict[str, Any]]:
    pack = load_pack(CONTENT / "generada")
    tables = {c.id: t for c, t in pack.of(DiceTable)}
    return [Generator(tables, DungeonRules(), seed).run().data(f"dungeon-{seed}") for seed in range(200)]


def test_200_maps_follow_the_rulebook_procedure(maps: list[dict[str, Any]]) -> None:
    roles = {c.id: t.role for c, t in load_pack(CONTENT / "generada").of(DiceTable) if t.role is not None}
    found = {m["seed"]: v for m in maps if (v := violations(m, roles))}
    assert not found, found
    noted = Counter(n for m in maps for r in m["rolls"] for n in r.get("notes", []))
    kinds = Counter(n.split("-")[0] for n in noted.elements())
    searched = sum(r.get("die") == "1d12" for m in maps for r in m["rolls"])
    # the rules above were put to the test: notes of several kinds, searches that failed and found
    assert {"quest", "blocked", "smaller"} <= set(kinds), noted
    assert searched and any(r.get("outcome") == "nothing" for m in maps for r in m["rolls"]), searched
    assert any(len(r.get("notes", [])) > 1 for m in maps for r in m["rolls"]), "no roll kept two notes"


def test_the_checker_finds_planted_violations(maps: list[dict[str, Any]]) -> None:
    """The checker above can fail: a door moved to a corridor's short wall, a stair piece renamed,
    a room's note removed, a search roll turned."""
    import copy

    roles = {c.id: t.role for c, t in load_pack(CONTENT / "generada").of(DiceTable) if t.role is not None}
    m = copy.deepcopy(maps[1])
    m["areas"][3]["type"] = "corner"
    assert any("start sequence" in v for v in violations(m, roles))
    m = copy.deepcopy(maps[1])
    end = next(r for r in m["rolls"] if roles.get(r.get("table", "")) == "corridor-end" and "makes" in r)
    m["areas"][end["makes"] - 1]["type"] = "stairs-up" if end["outcome"] != "stairs-up" else "corner"
    assert any("corridor ends in" in v for v in violations(m, roles))
    m = copy.deepcopy(next(x for x in maps if any("quest-became-lair" in r.get("notes", []) for r in x["rolls"])))
    turned = next(r for r in m["rolls"] if "quest-became-lair" in r.get("notes", []))
    turned["notes"].remove("quest-became-lair")
    assert any("room is lair, rolled quest" in v for v in violations(m, roles))
    m = copy.deepcopy(next(x for x in maps if any(r.get("die") == "1d12" for r in x["rolls"])))
    search = next(r for r in m["rolls"] if r.get("die") == "1d12")
    search["total"] = 9 if search["outcome"] == "found" else 11
    assert any("search roll" in v for v in violations(m, roles))


def test_200_maps_pass_validate_strict(maps: list[dict[str, Any]], pack_copy) -> None:
    """All 200 in one copy of the sample pack, through validate's rules and print checks, warnings fatal."""
    pack = pack_copy("generada")
    text = "".join(map_entry(m, "test") + "\n" for m in maps)
    (pack / "decks/mapas.yaml").write_text(text, encoding="utf-8")
    try:
        res = build(pack, BuildOptions(langs=("es",), strict=True, decks=("mapas",)), render=False)
        problems = res.warnings
    except ContentError as exc:
        problems = exc.problems
    assert not problems, [p.format() for p in problems[:10]]
    assert isinstance(pack, Path)
