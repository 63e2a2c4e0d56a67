"""`mazmorra generate`: roll a dungeon map from a pack's dice tables into the pack."""

from __future__ import annotations

from typing import Annotated

import typer

from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard, out
from mazmorra.commands.options import OnePackArg, OutDirOpt, one_pack, out_dir_for


@app.command()
def generate(
    seed: Annotated[int, typer.Option(help="The seed: the same seed and tables give the same map.", min=0)],
    pack: OnePackArg = None,
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
    out_dir: OutDirOpt = None,
) -> None:
    """Roll a dungeon from the pack's dice tables (the rulebook's procedure and sizes) and keep it in
    the pack's dungeon_map deck, with its seed and every roll, plus an SVG preview of its plan."""
    from mazmorra.tools.rolldungeon import generate_map

    with guard():
        made = generate_map(one_pack(pack, "roll a dungeon into"), seed, rooms, deck, map_id, out_dir_for(out_dir))
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
