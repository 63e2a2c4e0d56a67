"""`mazmorra generate`: roll a dungeon map from a pack's dice tables into the pack."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard, out


@app.command()
def generate(
    pack: Annotated[str, typer.Argument(help="Pack folder or name under content/ holding the dice tables.")],
    seed: Annotated[int, typer.Option(help="The seed: the same seed and tables give the same map.", min=0)],
    rooms: Annotated[
        int | None,
        typer.Option(
            help="The quest room comes by this room at the latest (default: the pack's game.dungeon.rooms, 12).",
            min=1,
            max=60,
            show_default=False,
        ),
    ] = None,
    deck: Annotated[
        str | None, typer.Option(help="The dungeon_map deck to keep the map in (when the pack has several).")
    ] = None,
    map_id: Annotated[
        str | None, typer.Option("--id", help="The map's component id (default: dungeon-SEED).", show_default=False)
    ] = None,
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Output folder (for the SVG preview).")] = Path("output"),
) -> None:
    """Roll a dungeon from the pack's dice tables (the rulebook's procedure and sizes) and keep it in
    the pack's dungeon_map deck, with its seed and every roll, plus an SVG preview of its plan."""
    from mazmorra.load import find_pack
    from mazmorra.tools.rolldungeon import generate_map

    with guard():
        made = generate_map(find_pack(pack), seed, rooms, deck, map_id, out_dir)
        d = made.dungeon
        rooms_made = d.rooms
        lairs = sum(a.type == "lair" for a in rooms_made)
        quest = next((a.n for a in rooms_made if a.type == "quest"), None)
        for note in d.notes:
            err.print(f"  [yellow]note:[/] {escape(note)}")
        err.print(
            f"[green]✓[/] {made.map_id}: {made.cols}×{made.rows} squares, {len(d.areas)} areas, "
            f"{len(rooms_made)} rooms ({lairs} lairs{f', quest room {quest}' if quest else ', no quest room'}), "
            f"{len(d.doors)} doors, {len(d.rolls)} rolls, seed {d.seed}, in {made.seconds * 1000:.1f} ms"
        )
        out.print(f"  {escape(str(made.deck_file))}")
        out.print(f"  {escape(str(made.preview))}")
