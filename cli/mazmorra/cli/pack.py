"""Commands about a pack's building blocks: `new`, `kinds`, `icons`, `templates`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Annotated

import typer

from mazmorra.cli.app import app
from mazmorra.cli.console import err, escape, guard, out
from mazmorra.cli.options import PacksArg, pack_dirs
from mazmorra.errors import UsageError, did_you_mean
from mazmorra.paths import SKELETON_DIR, templates_dir


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="Id of the new pack (lowercase, digits, -).")],
    content_dir: Annotated[Path, typer.Option("--content", help="Where packs live.")] = Path("content"),
) -> None:
    """Start a new pack from a minimal one that builds at once."""
    from mazmorra.model import ID_PATTERN

    with guard():
        if not re.match(ID_PATTERN, name):
            raise UsageError(f"'{name}' is not a valid pack id (lowercase letters, digits, - _ .)")
        target = content_dir / name
        if target.exists():
            raise UsageError(f"'{target}' already exists")
        shutil.copytree(SKELETON_DIR, target)
        pack_yaml = target / "pack.yaml"
        pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8").replace("__ID__", name), encoding="utf-8")
        err.print(f"[green]✓[/] {escape(f'created {target}; build it with: mazmorra build {target}')}")


@app.command()
def icons(packs: PacksArg = None) -> None:
    """List the icon names text tokens ({name:N}) and templates can use: bundled, plus each pack's own."""
    from mazmorra.icons import IconSet

    with guard():
        if not packs:
            out.print(escape(" ".join(IconSet.for_pack(None).names())))
            return
        for pack_dir in pack_dirs(packs):
            out.print(f"[bold]{escape(pack_dir.name)}[/]: " + escape(" ".join(IconSet.for_pack(pack_dir).names())))


@app.command("kinds")
def kinds_cmd() -> None:
    """List the registered component kinds."""
    from mazmorra import kinds

    for name, kind in kinds.all_kinds().items():
        out.print(f"[bold]{escape(name)}[/]  {escape(kind.summary)}")


@app.command("templates")
def templates_cmd(
    names: Annotated[
        list[str] | None, typer.Argument(help="Template files to copy (with --into).", show_default=False)
    ] = None,
    into: Annotated[
        Path | None, typer.Option("--into", help="A pack folder: copy the named templates into its templates/.")
    ] = None,
) -> None:
    """List the shipped templates and where they are, or copy some into a pack to override them."""
    with guard():
        shipped = templates_dir()
        known = sorted(p.name for p in shipped.glob("*.j2"))
        if not names:
            out.print(f"[bold]{escape(shipped)}[/]")
            for name in known:
                out.print(f"  {escape(name)}")
            return
        if into is None:
            raise UsageError("name a pack to copy into: --into content/<pack>")
        if not (into / "pack.yaml").is_file():
            raise UsageError(f"'{into}' is not a pack folder (no pack.yaml)")
        for name in names:
            if name not in known:
                raise UsageError(
                    f"no shipped template '{name}'{did_you_mean(name, known)} (`mazmorra templates` lists them)"
                )
            target = into / "templates" / name
            if target.exists():
                raise UsageError(f"'{target}' already exists: the pack already overrides it")
        for name in names:
            (into / "templates").mkdir(exist_ok=True)
            shutil.copy2(shipped / name, into / "templates" / name)
            err.print(
                f"[green]✓[/] {escape(into / 'templates' / name)}: edit it; the pack now uses it instead of the shipped one"
            )
