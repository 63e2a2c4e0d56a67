"""`mazmorra generate`: roll a dungeon from a pack's dice tables and keep it in the pack as content.

Load and validate the pack (the tables must be sound before anyone rolls on them) → roll the map
(`kinds.dicedungeon.generator`, one seeded random source) → write it into the pack's dungeon_map
deck, replacing a map of the same id → load and validate again (a map that does not validate is
taken back out) → write an SVG preview of its plan. Nothing else lives here.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from mazmorra.assets.icons import IconSet
from mazmorra.errors import ContentError, Problem, Severity, UsageError
from mazmorra.kinds.dicedungeon import dungeon_rules
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.kinds.dicedungeon.dungeon_map import DungeonMap
from mazmorra.kinds.dicedungeon.generator import Generator
from mazmorra.kinds.dicedungeon.mapfile import map_entry, preview_svg, with_entry
from mazmorra.kinds.dicedungeon.pieces import Dungeon
from mazmorra.load import load_pack
from mazmorra.model.content import ID_PATTERN, Deck, Pack
from mazmorra.source.yamlsafe import YList, YMap, load_yaml
from mazmorra.support.atomic import atomic_write_text
from mazmorra.support.filenames import output_path
from mazmorra.validate import validate


@dataclass(frozen=True)
class Generated:
    """What `generate` made: the map's id, where it was written and the dungeon itself."""

    map_id: str
    deck_file: Path
    preview: Path
    dungeon: Dungeon
    cols: int
    rows: int
    seconds: float  # rolling and placing only


def generate_map(
    pack_dir: Path,
    seed: int,
    rooms: int | None = None,
    deck_id: str | None = None,
    map_id: str | None = None,
    out_dir: Path = Path("output"),
) -> Generated:
    """Roll a dungeon with `seed` from the pack's tables and store it in its dungeon_map deck."""
    if map_id is not None and not re.match(ID_PATTERN, map_id):
        raise UsageError(f"--id '{map_id}' is not a component id (lowercase letters, digits, - _ .)")
    pack = load_pack(pack_dir)
    _stop_on_errors(validate(pack, IconSet.for_pack(pack.root)))
    deck = _map_deck(pack, deck_id)
    tables = {comp.id: table for comp, table in pack.of(DiceTable)}
    t0 = time.perf_counter()
    dungeon = Generator(tables, dungeon_rules(pack), seed, rooms).run()
    seconds = time.perf_counter() - t0
    comp_id = map_id or f"dungeon-{seed}"
    data = dungeon.data(comp_id)
    command = f"mazmorra generate {pack.id} --seed {seed}" + (f" --rooms {rooms}" if rooms is not None else "")
    deck_file = pack.root / deck.spec.file
    before = deck_file.read_text(encoding="utf-8")
    starts = _starts(deck_file)
    taken = {c.id for c in pack.components() if c.deck != deck.id or c.id != comp_id}
    if comp_id in taken:
        raise UsageError(f"id '{comp_id}' is already used by another component of {pack.id}: pass --id")
    atomic_write_text(deck_file, with_entry(before, starts, comp_id, map_entry(data, command)))
    try:
        after = load_pack(pack_dir)
        _stop_on_errors([p for p in validate(after, IconSet.for_pack(after.root)) if p.component == comp_id])
    except ContentError:
        atomic_write_text(deck_file, before)  # never leave a map that does not validate in the pack
        raise
    card = next(d for c, d in after.of(DungeonMap) if c.id == comp_id)
    preview = output_path(out_dir, "{pack}/maps/{component}.svg", pack=pack.id, component=comp_id)
    preview.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(preview, preview_svg(data, card.wall_runs()))
    return Generated(comp_id, deck_file, preview, dungeon, data["cols"], data["rows"], seconds)


def _map_deck(pack: Pack, wanted: str | None) -> Deck:
    """The deck the map goes in: the one named, or the pack's only dungeon_map deck."""
    decks = [d for d in pack.decks if d.kind.name == "dungeon_map"]
    if wanted is not None:
        found = next((d for d in decks if d.id == wanted), None)
        if found is None:
            known = ", ".join(d.id for d in decks) or "none"
            raise UsageError(f"pack '{pack.id}' has no dungeon_map deck '{wanted}' (its dungeon_map decks: {known})")
        return found
    if len(decks) == 1:
        return decks[0]
    if not decks:
        raise UsageError(
            f"pack '{pack.id}' has no deck of kind dungeon_map to keep the map in; add one to pack.yaml, e.g.\n"
            "  - id: mapas\n    kind: dungeon_map\n    name: Mapas\n    file: decks/mapas.yaml\n"
            "(and an empty decks/mapas.yaml: [])"
        )
    raise UsageError(f"pack '{pack.id}' has several dungeon_map decks ({', '.join(d.id for d in decks)}): pass --deck")


def _starts(deck_file: Path) -> list[tuple[str, int]]:
    """(id, 1-based line) of each component of a deck file, in order."""
    data = load_yaml(deck_file)
    if not isinstance(data, YList):
        return []
    return [(str(item.get("id")) if isinstance(item, YMap) else "", loc.line) for item, loc in zip(data, data.locs)]


def _stop_on_errors(problems: list[Problem]) -> None:
    if any(p.severity is Severity.ERROR for p in problems):
        raise ContentError(problems)
