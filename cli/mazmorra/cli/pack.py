"""Commands about a pack's building blocks: `new`, `kinds`, `icons`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Annotated

import typer

from mazmorra import kinds
from mazmorra.cli.app import app
from mazmorra.cli.console import err, guard, out
from mazmorra.cli.options import PacksArg, pack_dirs
from mazmorra.errors import UsageError
from mazmorra.model import ID_PATTERN
from mazmorra.paths import SKELETON_DIR


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="Id of the new pack (lowercase, digits, -).")],
    content_dir: Annotated[Path, typer.Option("--content", help="Where packs live.")] = Path("content"),
) -> None:
    """Start a new pack from a minimal one that builds at once."""
    with guard():
        if not re.match(ID_PATTERN, name):
            raise UsageError(f"'{name}' is not a valid pack id (lowercase letters, digits, - _ .)")
        target = content_dir / name
        if target.exists():
            raise UsageError(f"'{target}' already exists")
        shutil.copytree(SKELETON_DIR, target)
        pack_yaml = target / "pack.yaml"
        pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8").replace("__ID__", name), encoding="utf-8")
        err.print(f"[green]✓[/] created {target}; build it with: mazmorra build {target}")


@app.command()
def icons(packs: PacksArg = None) -> None:
    """List the icon names text tokens ({name:N}) and templates can use: bundled, plus each pack's own."""
    from mazmorra.icons import IconSet

    with guard():
        if not packs:
            out.print(" ".join(IconSet.for_pack(None).names()))
            return
        for pack_dir in pack_dirs(packs):
            out.print(f"[bold]{pack_dir.name}[/]: " + " ".join(IconSet.for_pack(pack_dir).names()))


@app.command("kinds")
def kinds_cmd() -> None:
    """List the registered component kinds."""
    for name, kind in kinds.all_kinds().items():
        out.print(f"[bold]{name}[/]  {kind.summary}")
