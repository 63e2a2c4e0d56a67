"""`mazmorra i18n`: catalogues for translators (update, status, add)."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mazmorra.commands.app import i18n_app
from mazmorra.commands.console import err, escape, guard, out
from mazmorra.commands.options import OutDirOpt, PacksArg, out_dir_for, pack_dirs
from mazmorra.errors import ContentError, Problem, UsageError, rel

if TYPE_CHECKING:
    from mazmorra.i18n.catalogues.potemplate import Boxes
    from mazmorra.i18n.labels import Label
    from mazmorra.i18n.pictures import Wanted
    from mazmorra.layout import Templates
    from mazmorra.model.content import Pack
    from mazmorra.render.sinks.sink import Sink, SinkContext


def _pack_labels(pack: Pack, templates: Templates | None = None) -> list[Label]:
    """The labels the templates of the pack's kinds print (and what those templates include), the
    words of their enum values, the labels of the pages every pack may print (the removal list of
    `build --changed-since`), the draft band's and the calibration sheet's words; `templates`: the environment to read them
    with (a new one if None)."""
    from mazmorra.i18n.labels import PAGE_TEMPLATES, band_labels, calibration_labels, choice_labels
    from mazmorra.layout import Templates
    from mazmorra.support.paths import templates_dir

    names = sorted({n for k in pack.kinds() for n in (k.template, k.back_template) if n})
    labels = (templates or Templates(pack.root, templates_dir())).labels([*names, *PAGE_TEMPLATES])
    found: dict[str, Label] = {}
    for label in [*labels, *choice_labels(pack.kinds()), *band_labels(), *calibration_labels()]:
        found.setdefault(label.msgid, label)  # a template's label first, as it prints it
    return list(found.values())


@i18n_app.command("extract")
def i18n_extract(packs: PacksArg = None) -> None:
    """Write locale/<pack>.pot, the translation template (Weblate, Crowdin, msgmerge, msginit).

    Every text a catalogue translates, with its context, reference and notes; rewritten (and
    re-dated) only when a text changed.
    """
    from mazmorra.i18n.catalogues.potemplate import extract
    from mazmorra.load import load_pack

    with guard():
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            path, written = extract(pack, _boxes(pack))
            state = "written" if written else "up to date"
            err.print(f"[green]✓[/] {escape(_shown(pack, path))}: {state}")


def _boxes(pack: Pack) -> Boxes:
    """The box each text is set in, measured in the source language: the catalogue's budgets."""
    from mazmorra.layout.text.budget import text_boxes

    return text_boxes(pack)


def _measured(pack: Pack) -> tuple[list[Label], Boxes]:
    """The pack's labels, each with the box it prints in, and the box each text is set in: one
    layout in the source language measures both (the catalogues' budgets)."""
    from mazmorra.i18n.catalogues.labelcat import boxed
    from mazmorra.layout.text.budget import measured_boxes
    from mazmorra.render.impose.calibrate import CALIBRATION_SHEET
    from mazmorra.render.impose.calibrate import label_boxes as calibration_boxes
    from mazmorra.rounds.removal import PAGE_NAME
    from mazmorra.rounds.removal import label_boxes as removal_boxes

    pages = {PAGE_NAME: removal_boxes, CALIBRATION_SHEET: lambda ctx: calibration_boxes(ctx.pack.spec.page)}
    boxes, label_boxes = measured_boxes(pack, pages=pages)
    return boxed(_pack_labels(pack), label_boxes), boxes


def _shown(pack: Pack, path: Path) -> str:
    """A pack's file as messages name it: from where the designer stands (`locale/en.po` inside the
    pack, `content/<pack>/locale/en.po` from the project), or `<pack>/…` when that would climb out of
    the working folder; never a path of this machine."""
    cwd, root = Path.cwd().resolve(), pack.root.resolve()
    if cwd.is_relative_to(root) or root.is_relative_to(cwd):
        return rel(path)
    return f"{pack.root.name}/{path.relative_to(pack.root).as_posix()}"


@i18n_app.command("update")
def i18n_update(
    packs: PacksArg = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Write nothing; exit 1 naming each template or catalogue out of date (CI)."),
    ] = False,
) -> None:
    """Refresh locale/<pack>.pot, then create or update locale/<lang>.po for every other language.

    Merges as msgmerge --previous: a changed or renamed text keeps its translation, marked fuzzy;
    removed texts become obsolete entries; entries that did not change are left exactly as written.
    """
    from mazmorra.i18n.catalogues import catalogue
    from mazmorra.i18n.po import catalogue_path
    from mazmorra.load import load_pack

    with guard():
        stale: list[tuple[Pack, catalogue.StaleFile]] = []
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            labels, boxes = _measured(pack)
            if check:
                stale += [(pack, one) for one in catalogue.out_of_date(pack, labels, boxes)]
                continue
            for lang in pack.spec.languages:
                if lang == pack.spec.source_language:
                    continue
                stats = catalogue.update_catalogue(pack, lang, labels, boxes)
                err.print(f"[green]✓[/] {escape(_shown(pack, catalogue_path(pack.root, lang)))}: {_this_run(stats)}")
            for path in catalogue.update_label_catalogues(pack, labels):
                err.print(f"[green]✓[/] {escape(_shown(pack, path))}: template labels")
            for path in catalogue.update_records(pack):
                err.print(f"[green]✓[/] {escape(_shown(pack, path))}: translated cells recorded")
        for pack, one in stale:
            err.print(
                f"[red]✗[/] {escape(_shown(pack, one.path))}: out of date with the pack's texts; run `mazmorra i18n update`"
            )
            for text in one.texts:
                err.print(f"    {escape(text)}")
        if stale:
            raise typer.Exit(1)


def _named(p: Problem) -> str:
    """A finding's place, component and field (`file:line comp.field`), without the parts it has not:
    never `None`."""
    what = ".".join(x for x in (p.component, p.field) if x) or p.rule
    return f"{p.loc} {what}" if p.loc else what


def _wide(table: object) -> str:
    """A Rich table as plain text as wide as it needs (no column cut to fit 80 characters): for a pipe."""
    import io

    from rich.console import Console
    from rich.table import Table

    assert isinstance(table, Table)
    widest = [max([len(str(c.header)), *(len(str(cell)) for cell in c.cells)]) for c in table.columns]
    text = io.StringIO()
    Console(file=text, width=sum(widest) + 3 * len(widest) + 4, no_color=True, highlight=False).print(table)
    return "".join(line.rstrip() + "\n" for line in text.getvalue().splitlines())


def _this_run(stats: dict[str, int]) -> str:
    """What an update changed in a catalogue this run, then what waits for the translator."""
    done = [f"{stats[k]} {k}" for k in ("new", "fuzzy", "obsolete") if stats[k]]
    said = ("this run: " + ", ".join(done)) if done else "up to date"
    waiting = stats["untranslated"] + stats["still_fuzzy"] + (stats["new"] + stats["fuzzy"])
    return said + (
        f" ({stats['kept']} translated; {waiting} waiting for the translator)"
        if waiting
        else f" ({stats['kept']} translated)"
    )


@i18n_app.command("add")
def i18n_add(
    lang: Annotated[str, typer.Argument(help="Language code, e.g. fr or pt_BR.")],
    packs: PacksArg = None,
) -> None:
    """Add a language to a pack: pack.yaml lists it and locale/<lang>.po is created for translators."""
    from mazmorra.i18n.catalogues import catalogue
    from mazmorra.i18n.langnames import code_named
    from mazmorra.load import load_pack

    with guard():
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            try:
                path = catalogue.add_language(pack, lang, *_measured(pack))
            except ValueError as exc:
                meant = code_named(lang)
                raise UsageError(str(exc) + (f"; did you mean '{meant}'?" if meant else "")) from None
            err.print(
                "[green]✓[/] "
                + escape(
                    f"{pack.id}: added '{lang}'; translate {path}, then "
                    f"`mazmorra build {pack.id} --lang {lang}` (or --draft to preview)"
                )
            )


@i18n_app.command("status")
def i18n_status(
    packs: PacksArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output for CI.")] = False,
) -> None:
    """Per language: translated, fuzzy, untranslated, obsolete and overflowing texts, with file:line."""
    from mazmorra.build.pipeline import BuildOptions, Loaded, build
    from mazmorra.i18n.catalogues import catalogue
    from mazmorra.layout import Templates
    from mazmorra.load import load_pack
    from mazmorra.support.paths import templates_dir

    with guard():
        report = []
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            templates = Templates(pack.root, templates_dir())  # templates parsed once: for labels and the build
            labels = _pack_labels(pack, templates)
            try:
                problems: list[Problem] = build(
                    pack_dir,
                    BuildOptions(draft=True, shrinks=True),
                    render=False,
                    templates=templates,
                    loaded=Loaded(pack),
                ).warnings
            except ContentError as exc:
                problems = exc.problems
            for lang in pack.spec.languages:
                st = catalogue.catalogue_status(pack, lang, labels)
                st.overflow = [p for p in problems if p.rule == "text.overflow" and p.lang == lang]
                st.glossary = [p for p in problems if p.rule.startswith("glossary.") and p.lang == lang]
                st.shrunk = [p for p in problems if p.rule == "text.shrunk" and p.lang == lang]
                st.cut = [p for p in problems if p.rule == "text.ellipsized" and p.lang == lang]
                report.append((pack.id, st))
        if as_json:
            sys.stdout.write(
                json.dumps(
                    [{"pack": pid, **st.as_dict()} for pid, st in report],
                    ensure_ascii=False,
                    indent=2,
                )
                + "\n"
            )
            return
        from rich import box
        from rich.table import Table

        # Box drawing only on a terminal: a pipe or a CI log gets plain columns.
        table = Table(title="Translations", title_justify="left", box=box.ROUNDED if out.is_terminal else None)
        for col in (
            "pack",
            "lang",
            "translated",
            "fuzzy",
            "untranslated",
            "obsolete",
            "in spreadsheets",
            "overflowing",
            "shrunk",
            "cut",
            "glossary",
        ):
            table.add_column(col, justify="left" if col in ("pack", "lang") else "right")
        for pid, st in report:
            table.add_row(
                escape(pid),
                escape(st.lang + (" (source)" if st.source else "")),
                f"{st.translated}/{st.total} ({st.percent(st.translated):g}%)",
                str(st.fuzzy),
                str(st.untranslated),
                str(st.obsolete),
                str(st.from_spreadsheets),
                str(len(st.overflow or [])),
                str(len(st.shrunk)),
                str(len(st.cut)),
                str(len(st.glossary)),
            )
        # A pipe or a CI log is as wide as the table needs: no column cut to fit 80 characters.
        if out.is_terminal:
            out.print(table)
        else:
            out.print(_wide(table), markup=False, end="")
        for pid, st in report:
            for item in st.items or []:
                colour = {"fuzzy": "yellow", "untranslated": "red", "obsolete": "dim"}[item.state]
                out.print(
                    f"[{colour}]{item.state:12}[/] {escape(f'{pid}/{st.lang} {item.loc} {item.ctx or item.component}')}"
                )
            for p in st.overflow or []:
                out.print(f"[red]{'overflowing':12}[/] {escape(f'{pid}/{st.lang} {_named(p)}: {p.message}')}")
            for p in st.shrunk:
                out.print(f"[yellow]{'shrunk':12}[/] {escape(f'{pid}/{st.lang} {_named(p)}: {p.message}')}")
            for p in st.cut:
                out.print(f"[yellow]{'cut':12}[/] {escape(f'{pid}/{st.lang} {_named(p)}: {p.message}')}")
            for p in st.glossary:
                out.print(f"[red]{'glossary':12}[/] {escape(f'{pid}/{st.lang} {_named(p)}: {p.message}')}")


@i18n_app.command("screenshots")
def i18n_screenshots(
    packs: PacksArg = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", "-l", metavar="LANG", help="Draw the faces in this language [default: the source]."),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the pictures into OUT/<pack>/screenshots/ [default: the pack's locale/screenshots/].",
            show_default=False,
        ),
    ] = None,
) -> None:
    """A PNG of every face with texts to translate, the picture each catalogue entry names.

    One picture per component (its front, and its own back beside it), `<component>.png`, and one
    per deck, `_deck-<deck>.png`, in the pack's source language; the template's `#. picture:` line
    names it for each entry. Pictures no entry names any more are removed. For Weblate's screenshot
    file mask and Crowdin's screenshot upload (docs/translating.md).
    """
    from mazmorra.build.pipeline import BuildOptions, Loaded, build
    from mazmorra.i18n.catalogues.potemplate import template_messages
    from mazmorra.i18n.langnames import suggest_code
    from mazmorra.i18n.pictures import FOLDER, wanted_pictures
    from mazmorra.load import load_pack
    from mazmorra.render.sinks.table import Outputs

    with guard():
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            shown = lang or pack.spec.source_language
            if shown not in pack.spec.languages:
                known = pack.spec.languages
                raise UsageError(
                    f"pack '{pack.id}' has no language '{shown}'{suggest_code(shown, known)} (it has {', '.join(known)})"
                )
            folder = (out_dir / pack.id if out_dir is not None else pack.root / "locale") / FOLDER
            wanted = wanted_pictures(pack, [m.component for m in template_messages(pack)])
            opts = BuildOptions(langs=(shown,), draft=True, outputs=Outputs(pdf=False), out_dir=out_dir_for(None))
            result = build(pack_dir, opts, also=partial(_screenshot_sinks, folder, wanted), loaded=Loaded(pack))
            said = f"{len(wanted.names())} pictures in {rel(folder)} ({shown}, {result.seconds:.1f} s)"
            err.print(f"[green]✓[/] {escape(pack.id)}: {escape(said)}")


def _screenshot_sinks(folder: Path, wanted: Wanted, ctx: SinkContext) -> list[Sink]:
    """The one sink of `i18n screenshots`' build."""
    from mazmorra.render.screenshots import ScreenshotSink

    return [ScreenshotSink(ctx, folder, wanted)]


@i18n_app.command("pseudo")
def i18n_pseudo(
    packs: PacksArg = None,
    expand: Annotated[
        float, typer.Option("--expand", min=0, max=300, help="How much longer every text gets, in percent.")
    ] = 35.0,
    out_dir: OutDirOpt = None,
) -> None:
    """Build the pseudo-locale (qps): every text accented, bracketed and EXPAND % longer, to find tight boxes.

    Built like any language (PDFs in <out>/<pack>/qps/ when every text fits); lists each box the
    longer text overflows (error) or fits only by shrinking below its design size (warning), with
    the YAML line of its source text. Exit 1 when a text overflows.
    """
    from mazmorra.build.pipeline import BuildOptions, Loaded, build
    from mazmorra.load import load_pack
    from mazmorra.support.filenames import output_path

    with guard():
        overflowing = 0
        out_dir = out_dir_for(out_dir)
        for pack_dir in pack_dirs(packs):
            pack = load_pack(pack_dir)
            opts = BuildOptions(pseudo=expand, shrinks=True, out_dir=out_dir, jobs=1)
            try:
                problems: list[Problem] = build(pack_dir, opts, loaded=Loaded(pack)).warnings
                written = True
            except ContentError as exc:
                problems, written = exc.problems, False
            tight = [
                p
                for p in problems
                if p.rule in ("text.overflow", "text.shrunk", "text.ellipsized", "text.missing-glyph")
            ]
            others = [p for p in problems if p not in tight]
            for p in tight + others:
                err.print(escape(p.format()))
            over = sum(p.rule == "text.overflow" for p in tight)
            overflowing += over
            shrunk = sum(p.rule == "text.shrunk" for p in tight)
            cut = sum(p.rule == "text.ellipsized" for p in tight)
            where = f"; PDFs in {output_path(out_dir, '{pack}/qps', pack=pack.id)}" if written else "; nothing written"
            mark = "[red]✗[/]" if over else "[green]✓[/]"
            said = f"{pack.id} at +{expand:g}%: {over} overflowing, {shrunk} shrunk" + (f", {cut} cut" if cut else "")
            err.print(f"{mark} {escape(said + where)}")
        if overflowing:
            raise typer.Exit(1)
