"""Commands that build: `validate`, `build`, `outputs` (for make) and `calibrate`."""

from __future__ import annotations

import inspect
import json
import sys
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

import typer

from mazmorra.build.choices import Duplex, Fold, PaperSize, SheetLayout, back_offset_mm, parse_langs
from mazmorra.commands.app import PanelledCommand, app
from mazmorra.commands.console import ProgressPrinter, err, escape, guard, out, show_problems, show_summary
from mazmorra.commands.options import (
    BackOffsetOpt,
    DraftOpt,
    LangOpt,
    OnePackArg,
    OutDirOpt,
    PacksArg,
    StrictOpt,
    check_langs,
    lang_list,
    out_dir_for,
    pack_dirs,
)
from mazmorra.errors import ContentError, UsageError
from mazmorra.support.paths import shipped_printers

# The library is imported inside each command, only when it runs: `mazmorra --help` and shell
# completion then start without ReportLab, pydantic or Jinja.


@app.command()
def validate(
    packs: PacksArg = None,
    lang: LangOpt = None,
    strict: StrictOpt = False,
    draft: DraftOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Problems as JSON on stdout (for CI and editors).")] = False,
) -> None:
    """Check packs against their rules, translations and text boxes; exit 1 on any error."""
    from mazmorra.build.pipeline import BuildOptions, build

    with guard():
        failed = False
        report = []
        chosen, langs = pack_dirs(packs), parse_langs(lang_list(lang))
        check_langs(chosen, langs)
        for pack_dir in chosen:
            try:
                res = build(
                    pack_dir,
                    BuildOptions(langs=langs, strict=strict, draft=draft),
                    render=False,
                )
                problems, ok = res.warnings, True
            except ContentError as exc:
                problems, ok = exc.problems, False
            failed |= not ok
            report.append({"pack": pack_dir.name, "ok": ok, "problems": [p.as_dict() for p in problems]})
            if as_json:
                continue
            show_problems(problems)
            if ok:
                err.print(f"[green]✓[/] {escape(pack_dir.name)}: valid ({len(problems)} warning(s))")
            else:
                show_summary(problems, pack_dir.name)
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
        if failed:
            raise typer.Exit(1)


PrinterOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--printer",
        metavar="NAME",
        help="Exactly the files a printer's profile asks for (`mazmorra printers` lists them: "
        f"{', '.join(shipped_printers())}, or the pack's printers/NAME.yaml): output/<pack>/<lang>/<printer>/; "
        "repeatable: the files of each printer.",
        rich_help_panel="Outputs",
        show_default=False,
    ),
]


@app.command("build", cls=PanelledCommand)
def build_cmd(
    packs: PacksArg = None,
    lang: LangOpt = None,
    page: Annotated[
        PaperSize | None,
        typer.Option(help="Paper size (default: the pack's).", rich_help_panel="Print sheets"),
    ] = None,
    landscape: Annotated[
        bool | None,
        typer.Option(
            "--landscape/--portrait",
            help="Sheet orientation for every deck (default: the deck's or pack's `orientation`, else "
            "whichever fits more pieces a sheet).",
            rich_help_panel="Print sheets",
        ),
    ] = None,
    duplex: Annotated[
        Duplex,
        typer.Option(
            help="The edge the sheet flips on for duplex backs pages (on "
            "landscape sheets the long edge is the top), or none: "
            "no backs.",
            rich_help_panel="Print sheets",
        ),
    ] = Duplex.long,
    crop_marks: Annotated[
        bool,
        typer.Option(
            "--crop-marks/--no-crop-marks",
            help="Crop marks outside the bleed.",
            rich_help_panel="Print sheets",
        ),
    ] = True,
    cut_lines: Annotated[
        bool,
        typer.Option("--cut-lines", help="Dashed cut lines across the sheet.", rich_help_panel="Print sheets"),
    ] = False,
    margin: Annotated[
        float,
        typer.Option(help="Printable margin in mm (at least 5).", min=5.0, rich_help_panel="Print sheets"),
    ] = 5.0,
    greyscale: Annotated[
        bool,
        typer.Option(
            "--greyscale",
            help="Print sheets in shades of grey only (no colour at all).",
            rich_help_panel="Print sheets",
        ),
    ] = False,
    ink_saver: Annotated[
        bool,
        typer.Option(
            "--ink-saver",
            help="Light tints instead of full fills and backgrounds, outlines kept, light text darkened.",
            rich_help_panel="Print sheets",
        ),
    ] = False,
    layout: Annotated[
        SheetLayout,
        typer.Option(
            help="duplex: backs on their own pages after each fronts page; "
            "fold: fold-and-glue, each back beside its front across a "
            "fold line through the page's centre.",
            rich_help_panel="Print sheets",
        ),
    ] = SheetLayout.duplex,
    fold: Annotated[
        Fold,
        typer.Option(
            help="The fold line of --layout fold: vertical (fronts left, backs "
            "right), horizontal (fronts top), or auto: whichever fits "
            "more.",
            rich_help_panel="Print sheets",
        ),
    ] = Fold.auto,
    back_offset: BackOffsetOpt = None,
    gutter: Annotated[
        float,
        typer.Option(
            help="mm between neighbouring bleed boxes (crop marks then also sit in the gutters).",
            min=0.0,
            max=50.0,
            rich_help_panel="Print sheets",
        ),
    ] = 0.0,
    bleed: Annotated[
        float | None,
        typer.Option(
            help="Bleed in mm instead of the pack's; 0 abuts the cards, neighbours sharing one cut line.",
            min=0.0,
            max=10.0,
            show_default=False,
            rich_help_panel="Print sheets",
        ),
    ] = None,
    overlap: Annotated[
        float,
        typer.Option(
            help="mm neighbouring pages of a poster share (a component larger than the sheet prints at "
            "its true size over several pages, to trim and tape).",
            min=0.0,
            max=50.0,
            rich_help_panel="Print sheets",
        ),
    ] = 10.0,
    out_dir: OutDirOpt = None,
    deck: Annotated[
        list[str] | None, typer.Option("--deck", "-d", metavar="DECK", help="Only this deck (repeatable).")
    ] = None,
    changed_only: Annotated[
        bool,
        typer.Option(
            "--changed-only",
            help="Skip decks whose PDF is newer than every file it was made from (what `make` uses; not --changed-since).",
        ),
    ] = False,
    changed_since: Annotated[
        str | None,
        typer.Option(
            "--changed-since",
            metavar="REV",
            help="A playtest round: print only the components changed or added since REV (a git commit or tag, "
            "or a folder with an earlier copy of the pack), and removed.pdf listing those to take out; under "
            "<out>/changes/. Not --changed-only.",
            show_default=False,
        ),
    ] = None,
    strict: StrictOpt = False,
    draft: DraftOpt = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            help="Worker processes rendering decks and languages side by side [default: MAZMORRA_JOBS, else the number of cores].",
            min=1,
            show_default=False,
        ),
    ] = None,
    printer: PrinterOpt = None,
    stamp: Annotated[
        bool,
        typer.Option(
            "--stamp/--no-stamp",
            help="A playtest build: every face carries a version stamp in small print (the pack's version and "
            "a hash of the component's content), as do the TTS descriptions and the gallery. Off by default: "
            "print-shop files carry none unless asked.",
        ),
    ] = False,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="NAME=VALUE",
            help="A value templates read as vars.NAME (repeatable): print variants such as "
            "--set watermark=PLAYTEST, without editing the pack.",
        ),
    ] = None,
    **outputs: Any,  # every sink's options, as the sink table declares them (`_WithSinkOptions` below)
) -> None:
    """Validate, then write output/<pack>/<lang>/<deck>.pdf for every deck and the exports asked for
    (nothing if invalid)."""
    from mazmorra.build.args import BuildArgs
    from mazmorra.build.packpool import Built, build_all
    from mazmorra.support import gcpolicy
    from mazmorra.support.workers import default_jobs

    gcpolicy.settle_imports()
    with guard():
        chosen = pack_dirs(packs)
        check_langs(chosen, parse_langs(lang_list(lang)))
        out_root = out_dir_for(out_dir)
        if out_dir is None and out_root != Path("output"):  # inside a pack: say where the files go
            err.print(f"writing to {escape(out_root)} (beside the pack's project; --out to choose)")
        args = BuildArgs(
            lang=lang_list(lang),
            page=page,
            landscape=landscape,
            duplex=duplex,
            crop_marks=crop_marks,
            cut_lines=cut_lines,
            margin=margin,
            layout=layout,
            fold=fold,
            back_offset=back_offset,
            gutter=gutter,
            bleed=bleed,
            overlap=overlap,
            out_dir=out_root,
            deck=tuple(deck or ()),
            changed_only=changed_only,
            strict=strict,
            draft=draft,
            jobs=jobs or default_jobs(),
            changed_since=changed_since,
            stamp=stamp,
            printer=printer[0] if printer else None,
            values=tuple(set_ or ()),
            greyscale=greyscale,
            ink_saver=ink_saver,
            sinks=outputs,
        )
        each = [replace(args, printer=p) for p in dict.fromkeys(printer or ())] or [args]  # --printer A --printer B
        for one in each:
            one.check()
        failed: list[str] = []

        def report(built: Built) -> None:
            for note in built.notes:
                err.print(escape(note))
            show_problems(built.problems)
            if not built.ok:
                show_summary(built.problems, built.name)
                failed.append(built.name)
                return
            sheets = f"{len(built.outputs)} PDF(s), {built.pages} pages, " if built.outputs or not built.exports else ""
            err.print(  # print sheets counted when there are any (exports, a printer's files, list their own)
                f"[green]✓[/] {escape(built.name)}: {sheets}"
                f"{built.faces} faces ({built.laid_out} laid out, the others from the face cache) in {built.seconds:.1f} s"
            )
            for p in built.outputs:
                out.print(f"  {escape(p)}")
            for line in built.exports:
                out.print(f"  {escape(line)}")

        for one in each:
            build_all(chosen, one, ProgressPrinter, report)
        if failed:
            err.print(f"[bold red]✗ not built: {escape(', '.join(failed))}[/]")
            raise typer.Exit(1)


def _sink_parameters() -> list[inspect.Parameter]:
    """Every sink's options, as the sink table declares them, as parameters of `mazmorra build`."""
    from mazmorra.render.sinks import table

    return [
        inspect.Parameter(
            o.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=o.default,
            annotation=Annotated[
                o.type,
                typer.Option(
                    o.flags,
                    help=o.help,
                    rich_help_panel=o.panel,
                    metavar=o.metavar,
                    show_default=o.show_default,
                    min=o.limits[0] if o.limits else None,
                    max=o.limits[1] if o.limits else None,
                ),
            ],
        )
        for decl in table.sinks()
        for o in decl.options
    ]


class _WithSinkOptions(inspect.Signature):
    """`build_cmd`'s own parameters, then every sink's options: read from the sink table each time
    Typer builds the command line, so that the command is the table's as it is then (a sink module a
    test adds is an option too)."""

    __slots__ = ()

    @property
    def parameters(self) -> MappingProxyType[str, inspect.Parameter]:
        own = [p for p in super().parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        return MappingProxyType({p.name: p for p in own + _sink_parameters()})


# Typer reads a command's options off its signature: build_cmd's, with the sinks' `**outputs` spelt out.
_own = inspect.signature(build_cmd, eval_str=True)
build_cmd.__signature__ = _WithSinkOptions(list(_own.parameters.values()), return_annotation=_own.return_annotation)  # type: ignore[attr-defined]


@app.command()
def calibrate(
    pack: OnePackArg = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            "-l",
            metavar="LANG",
            help="The sheet's language [default: the pack's source language; without a pack, en]. Its words "
            "come from the pack's label catalogue, then the tool's (es, en).",
            show_default=False,
        ),
    ] = None,
    page: Annotated[PaperSize, typer.Option(help="Paper size.")] = PaperSize.a4,
    landscape: Annotated[bool, typer.Option(help="Landscape sheets.")] = False,
    duplex: Annotated[Duplex, typer.Option(help="The edge you flip on (only the instructions change).")] = Duplex.long,
    back_offset: BackOffsetOpt = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="The PDF to write [default: output/calibration-<page>.pdf; -<lang> added for a language other "
            "than en].",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write a 2-page duplex calibration PDF: print it double-sided, hold it to the light and read
    the --back-offset X,Y for `mazmorra build` off the back's scales. PACK (default: the pack the
    working folder is in, if any) lends the sheet its translations of the calibration words."""
    from mazmorra.build.incremental import pack_header
    from mazmorra.errors import rel
    from mazmorra.i18n.labels import TEMPLATE_LANG, Labels
    from mazmorra.i18n.langnames import suggest_code
    from mazmorra.i18n.po import labels_path
    from mazmorra.load import enclosing_pack, find_pack
    from mazmorra.render.impose import ImposeOptions
    from mazmorra.render.impose.calibrate import write_calibration
    from mazmorra.support.paths import templates_dir

    with guard():
        if duplex is Duplex.none:
            raise UsageError("--duplex none has no backs to calibrate: use long or short")
        pack_dir = find_pack(pack) if pack is not None else enclosing_pack()
        said = pack_header(pack_dir) if pack_dir is not None else None
        known = [TEMPLATE_LANG, *sorted(p.stem for p in (templates_dir() / "locale").glob("*.po"))]
        if said is not None:
            known = list(dict.fromkeys([*said[1], *known]))
        chosen = lang or (said[1][0] if said is not None else TEMPLATE_LANG)
        if chosen not in known:
            where = f"pack '{said[0]}'" if said is not None else "the tool (name a pack that has it)"
            raise UsageError(
                f"{where} has no language '{chosen}'{suggest_code(chosen, known)} (it has {', '.join(known)})"
            )
        sheet = ImposeOptions(
            page=page.value,
            landscape=landscape,
            duplex=duplex.value,
            back_offset=back_offset_mm(back_offset),
        )
        labels = Labels(pack_dir, templates_dir(), chosen)
        missing: dict[str, None] = {}
        suffix = f"{'-landscape' if landscape else ''}{'' if chosen == TEMPLATE_LANG else '-' + chosen}"
        path = out_path or out_dir_for(None) / f"calibration-{page.value}{suffix}.pdf"
        write_calibration(path, sheet, lambda msgid: labels.word(msgid, missing), chosen.replace("_", "-"))
        if missing:
            add = f"; translate them in {rel(labels_path(pack_dir, chosen))}" if pack_dir is not None else ""
            err.print(
                f"[yellow]warning:[/] the calibration sheet prints {len(missing)} of its words in English: no "
                f"'{chosen}' translation{escape(add)} (i18n.label)"
            )
        err.print(
            f"[green]✓[/] {escape(path)}: print both pages double-sided ({duplex.value}-edge flip) at actual size"
        )
        out.print(f"  {escape(path)}")


@app.command()
def outputs(
    packs: PacksArg = None,
    out_dir: OutDirOpt = None,
    stamps: Annotated[
        bool,
        typer.Option("--stamps", help="One make stamp per pack and language instead of one PDF per deck."),
    ] = False,
) -> None:
    """Print what a build makes, one path per line (used by the Makefile)."""
    from mazmorra.build.incremental import listed_stamps, stamp_path
    from mazmorra.load import load_pack
    from mazmorra.support.filenames import deck_pdf

    with guard():
        out_dir = out_dir_for(out_dir)
        listed = listed_stamps(out_dir, pack_dirs(packs)) if stamps else None
        if listed is not None:  # what make asks for on every run: from pack.yaml alone, no pack loaded
            out.print("\n".join(escape(p) for p in listed))
            return
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            for lang in pack.spec.languages:
                if stamps:
                    out.print(escape(stamp_path(out_dir, pack.id, lang)))
                    continue
                for d in pack.decks:
                    out.print(escape(deck_pdf(out_dir, pack.id, lang, d.file_name(lang))))
