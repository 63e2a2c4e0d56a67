"""Commands about a pack's building blocks: `new`, `kinds`, `schema`, `icons`, `templates`, `upgrade`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard, out
from mazmorra.commands.options import PacksArg, pack_dirs, packs_or_here
from mazmorra.errors import ContentError, UsageError, did_you_mean
from mazmorra.support.paths import SAMPLES_DIR, SKELETON_DIR, templates_dir

if TYPE_CHECKING:
    from mazmorra.model.content import Kind


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="Id of the new pack (lowercase, digits, -).")],
    content_dir: Annotated[Path, typer.Option("--content", help="Where packs live.")] = Path("content"),
    start: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="Start from a copy of this pack (a folder, or a name under --content), e.g. cripta or engranajes "
            "for a game of their family.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start a new pack: a minimal one that builds at once, or a copy of an existing pack (--from)."""
    from mazmorra.model.content import ID_PATTERN

    with guard():
        if not re.match(ID_PATTERN, name):
            raise UsageError(f"'{name}' is not a valid pack id (lowercase letters, digits, - _ .)")
        target = content_dir / name
        if target.exists():
            raise UsageError(f"'{target}' already exists")
        from mazmorra.tools.editorschema import PACK_SCHEMA, SCHEMA_DIR, modeline, write_schemas

        if start is not None:
            _copy_pack(start, content_dir, target, name)
        else:
            shutil.copytree(SKELETON_DIR, target)
            pack_yaml = target / "pack.yaml"
            text = pack_yaml.read_text(encoding="utf-8").replace("__PATH__", target.as_posix()).replace("__ID__", name)
            pack_yaml.write_text(modeline(f"{SCHEMA_DIR}/{PACK_SCHEMA}") + text, encoding="utf-8")
            for deck in sorted((target / "decks").glob("*.yaml")):  # editors complete and check while typing
                deck.write_text(
                    modeline(f"../{SCHEMA_DIR}/{deck.stem}.schema.json") + deck.read_text(encoding="utf-8"),
                    encoding="utf-8",
                )
        write_schemas(target)
        err.print(f"[green]✓[/] {escape(f'created {target}; build it with: mazmorra build {target}')}")


def _copy_pack(start: str, content_dir: Path, target: Path, name: str) -> None:
    """A copy of an existing pack under a new id: its decks, catalogues, kind files, icons, fonts,
    templates and pictures (not its generated schema/ folder)."""
    from mazmorra.load import PACK_FILE, find_pack
    from mazmorra.tools.editorschema import SCHEMA_DIR

    try:
        source = find_pack(start, content_dir)
    except UsageError:
        known = sorted(p.parent.name for p in content_dir.glob(f"*/{PACK_FILE}")) if content_dir.is_dir() else []
        raise UsageError(
            f"--from {start}: no such pack{did_you_mean(start, known)} (packs under {content_dir}: "
            f"{', '.join(known) or 'none'})"
        ) from None
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(SCHEMA_DIR, ".*", "__pycache__"))
    pack_yaml = target / PACK_FILE
    text = pack_yaml.read_text(encoding="utf-8")
    renamed, n = re.subn(r"^id:.*$", f"id: {name}", text, count=1, flags=re.M)
    if n != 1:
        raise UsageError(f"{source / PACK_FILE} has no top-level `id:` line to give the new pack its id")
    pack_yaml.write_text(renamed, encoding="utf-8")


@app.command()
def icons(packs: PacksArg = None) -> None:
    """List the icon names text tokens ({name:N}) and templates can use: bundled, plus each pack's own."""
    from mazmorra.assets.icons import IconSet

    with guard():
        chosen = packs_or_here(packs)
        if not chosen:
            out.print(escape(" ".join(IconSet.for_pack(None).names())))
            return
        for pack_dir in chosen:
            out.print(f"[bold]{escape(pack_dir.name)}[/]: " + escape(" ".join(IconSet.for_pack(pack_dir).names())))


@app.command("printers")
def printers_cmd(packs: PacksArg = None) -> None:
    """List the printer profiles `build --printer NAME` can use: shipped, plus each pack's printers/*.yaml."""
    from mazmorra import printers

    with guard():
        chosen: list[Path | None] = [*packs_or_here(packs)] or [None]
        for pack_dir in chosen:
            if pack_dir is not None:
                out.print(f"[bold]{escape(pack_dir.name)}[/]:")
            for name in printers.names(pack_dir):
                p = printers.load(name, pack_dir)
                sizes = ", ".join(
                    f"{x.name} {x.trim[0]:g}×{x.trim[1]:g} mm"
                    + (f" ({x.pixels[0]}×{x.pixels[1]} px)" if x.pixels else "")
                    for x in p.products
                )
                colour = p.colour + (f", ink ≤ {p.ink_limit} %" if p.ink_limit else "")
                where = f"paper {p.page}" if p.page else sizes or "no products listed"
                out.print(
                    f"  {escape(name):<18} {escape(p.name)}: {p.layout}, {colour}, "
                    f"{p.pdf if p.pdf.startswith('PDF') else 'PDF ' + p.pdf}, "
                    f"bleed {p.bleed:g} mm; {escape(where)}"
                    + "".join(f"; set {escape(k)}={escape(v)}" for k, v in p.values)
                )


@app.command("kinds")
def kinds_cmd(
    what: Annotated[
        list[str] | None,
        typer.Argument(help="Packs (to list their own kinds too) or a kind's name.", show_default=False),
    ] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="The named kind's documentation, in Markdown.")] = False,
    sheet: Annotated[
        str | None, typer.Option("--sheet", help="infer: the worksheet to read (default: the first).")
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--out", help="infer: where to write the kind file ('-': print it; default: the pack's kinds/ folder)."
        ),
    ] = None,
) -> None:
    """List the component kinds: built-in ones and each pack's own (kinds/*.yaml).

    `mazmorra kinds infer decks/cartas.xlsx` drafts a kind file from a spreadsheet's header and values."""
    from mazmorra import kinds
    from mazmorra.load import find_pack
    from mazmorra.tools.kinddoc import markdown as kind_markdown

    with guard():
        if what and what[0] == "infer":
            if len(what) != 2:
                raise UsageError("name one spreadsheet: `mazmorra kinds infer decks/cartas.xlsx`")
            _infer(Path(what[1]), sheet, to)
            return
        packs, names = [], []
        for item in what or []:
            try:
                packs.append(find_pack(item))
            except UsageError:
                names.append(item)
        if not packs:
            packs = packs_or_here(None)
        if not packs and Path("content").is_dir():
            packs = sorted(p.parent for p in Path("content").glob("*/pack.yaml"))
        found: dict[str, tuple[Kind, str]] = {n: (k, "") for n, k in kinds.all_kinds().items()}
        for pack_dir in packs:
            for name, kind in _declared(pack_dir).items():
                found.setdefault(name, (kind, pack_dir.name))
        if any(n not in found for n in names):  # a kind a sample pack declares: documented from anywhere
            for pack_dir in sorted(SAMPLES_DIR.glob("*/pack.yaml")):
                for name, kind in _declared(pack_dir.parent).items():
                    found.setdefault(name, (kind, f"sample {pack_dir.parent.name}"))
        if markdown or names:
            if len(names) != 1:
                raise UsageError("name one kind: `mazmorra kinds NAME --markdown` (and its pack, if it is declared)")
            if names[0] not in found:
                raise UsageError(f"no kind '{names[0]}'{did_you_mean(names[0], found)} (`mazmorra kinds` lists them)")
            kind = found[names[0]][0]
            out.print(
                kind_markdown(kind) if markdown else f"[bold]{escape(kind.name)}[/]  {escape(kind.summary)}",
                markup=not markdown,
            )
            return
        for name, (kind, pack) in sorted(found.items()):
            out.print(
                f"[bold]{escape(name)}[/]  {escape(kind.summary)}"
                + (f"  [dim](declared in {escape(pack)})[/]" if pack else "")
            )


def _infer(path: Path, sheet: str | None, to: str | None) -> None:
    """Draft a kind file from a spreadsheet deck and write it (or print it with `--out -`)."""
    from mazmorra.commands.console import show_problems
    from mazmorra.errors import Severity
    from mazmorra.kinds.kindfiles import KINDS_DIR
    from mazmorra.load.spreadsheet import SUFFIXES, read_spreadsheet
    from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml
    from mazmorra.tools.kindinfer import infer_fields, kind_name, kind_yaml

    if path.suffix.lower() not in SUFFIXES:
        raise UsageError(f"'{path}' is not a spreadsheet ({', '.join(SUFFIXES)})")
    if not path.is_file():
        raise UsageError(f"'{path}' does not exist")
    pack_dir = next((p for p in path.resolve().parents if (p / "pack.yaml").is_file()), None)
    source = "es"
    if pack_dir is not None:
        try:
            spec = load_yaml(pack_dir / "pack.yaml")
        except YamlError:
            spec = None
        if isinstance(spec, YMap) and isinstance(spec.get("source_language"), str):
            source = spec["source_language"]
    table, problems = read_spreadsheet(path, sheet, source, None)
    show_problems(problems)
    if table is None or any(p.severity is Severity.ERROR for p in problems):
        raise typer.Exit(1)
    name = kind_name(path.stem)
    shown = path.resolve().relative_to(pack_dir).as_posix() if pack_dir is not None else path.name
    text = kind_yaml(name, shown, infer_fields(table))
    if to == "-" or (to is None and pack_dir is None):
        out.print(text, markup=False, highlight=False, end="")
        return
    if to is not None:
        target = Path(to)
    else:
        assert pack_dir is not None  # without a pack and --out the draft was printed above
        target = pack_dir / KINDS_DIR / f"{name}.yaml"
    if target.exists():
        raise UsageError(f"'{target}' already exists: move it away or choose another --out")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    err.print(f"[green]✓[/] {escape(f'drafted {target}: check its types and limits')}")
    err.print(
        escape(f"  use it in pack.yaml: - {{id: {name}, kind: {name}, name: {path.stem}, file: {shown}}}"),
        highlight=False,
    )


def _declared(pack_dir: Path) -> dict[str, Kind]:
    """A pack's own kinds; their problems are printed, the sound ones listed."""
    from mazmorra import kinds
    from mazmorra.commands.console import show_problems
    from mazmorra.kinds.kindfiles import load_kinds

    found, problems = load_kinds(pack_dir, kinds.all_kinds(), kinds.families())
    show_problems(problems)
    return found


@app.command("schema")
def schema_cmd(packs: PacksArg = None) -> None:
    """Write JSON Schema for editors into each pack's schema/ folder: pack.yaml, every deck and kind files.

    Point a YAML file at its schema with a first line such as
    `# yaml-language-server: $schema=../schema/cartas.schema.json` (VS Code's YAML extension then
    completes fields and flags mistakes while you type)."""
    from mazmorra.tools.editorschema import write_schemas

    with guard():
        failed = False
        for pack_dir in pack_dirs(packs):
            try:
                written = write_schemas(pack_dir)
            except ContentError as exc:
                from mazmorra.commands.console import show_problems, show_summary

                show_problems(exc.problems)
                show_summary(exc.problems, pack_dir.name)
                failed = True
                continue
            err.print(f"[green]✓[/] {escape(f'{pack_dir.name}: {len(written)} schema file(s) in {written[0].parent}')}")
            for path in written:
                out.print(f"  {escape(path)}")
        if failed:
            raise typer.Exit(1)


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


@app.command("upgrade")
def upgrade_cmd(
    packs: PacksArg = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the changes; write nothing.")] = False,
) -> None:
    """Rewrite packs written for an earlier pack format in the current one (docs/formats.md): renamed
    fields under their new names, `format:` in pack.yaml; comments, key order and quoting kept."""
    from mazmorra.load.formats import CURRENT
    from mazmorra.tools.upgrade import upgrade_pack

    with guard():
        for pack_dir in pack_dirs(packs):
            edits, problems = upgrade_pack(pack_dir, write=not dry_run)
            if problems:
                raise ContentError(problems)
            if not edits:
                err.print(f"[green]✓[/] {escape(f'{pack_dir.name}: already in pack format {CURRENT}')}")
                continue
            for edit in edits:
                out.print(escape(f"{edit.loc}: {edit.what}"))
            done = "would be upgraded" if dry_run else "upgraded"
            err.print(
                f"[green]✓[/] {escape(f'{pack_dir.name}: {done} to pack format {CURRENT} ({len(edits)} change(s))')}"
            )
