"""The `mazmorra` command: parses options, calls the library, prints. No logic lives here."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from mazmorra import kinds
from mazmorra.i18n import catalogue
from mazmorra.i18n.labels import Label
from mazmorra.i18n.po import catalogue_path
from mazmorra.errors import ContentError, MazmorraError, Problem, Severity, UsageError
from mazmorra.exports import ExportOptions
from mazmorra.impose import SheetSpec
from mazmorra.load import all_packs, find_pack, load_pack
from mazmorra.model import ID_PATTERN, Pack
from mazmorra.paths import SKELETON_DIR, templates_dir
from mazmorra.pipeline import BuildOptions, build

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Print-and-play content pipeline: YAML components -> validated, localised, "
                       "print-ready PDFs.")
i18n_app = typer.Typer(no_args_is_help=True, help="Translation catalogues (gettext .po) for translators.")
app.add_typer(i18n_app, name="i18n")

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


class Page(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Duplex(str, Enum):
    long = "long"
    short = "short"
    none = "none"


class Layout(str, Enum):
    duplex = "duplex"
    fold = "fold"


class Fold(str, Enum):
    auto = "auto"
    vertical = "vertical"
    horizontal = "horizontal"


BackOffsetOpt = Annotated[Optional[str], typer.Option(
    help="X,Y: mm every backs page moves (+X right, +Y down as the backs page reads) to make up for "
         "the printer's duplex misregistration; read it off `mazmorra calibrate`.", show_default=False,
    rich_help_panel="Sheets")]


def _back_offset(value: str | None) -> tuple[float, float]:
    """'1.5,-0.5' (mm, or with units: '0.5mm,-1pt') -> (1.5, -0.5)."""
    from mazmorra.units import parse_length

    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (parse_length(v) for v in parts)
    except ValueError:
        raise UsageError(f"--back-offset {value!r}: expected X,Y in mm, e.g. 1.5,-0.5") from None
    if max(abs(dx), abs(dy)) > 10:
        raise UsageError(f"--back-offset {value!r}: more than 10 mm; print `mazmorra calibrate` again and "
                         "read the offset on the back's scales")
    return (dx, dy)


class PngProfile(str, Enum):
    tgc = "tgc"
    mpc = "mpc"


PacksArg = Annotated[Optional[list[str]], typer.Argument(
    help="Pack folders or names under content/ (default: every pack in content/).", show_default=False)]
LangOpt = Annotated[str, typer.Option("--lang", "-l", help="Language code, comma list, or 'all'.")]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Treat warnings as errors (missing or fuzzy "
                                                          "translations in a draft, too).")]
DraftOpt = Annotated[bool, typer.Option("--draft", help="Missing or out-of-date translations fall back to the "
                                                        "source text, marked UNTRANSLATED on the component.")]


def _packs(refs: list[str] | None) -> list[Path]:
    return [find_pack(r) for r in refs] if refs else all_packs()


def _langs(value: str) -> tuple[str, ...] | None:
    if value in ("all", ""):
        return None
    return tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))  # in order, once each


def _show(problems: list[Problem]) -> None:
    for p in problems:
        colour = "red" if p.severity is Severity.ERROR else "yellow"
        err.print(f"[{colour}]{escape(p.format())}[/]")


def _summary(problems: list[Problem], what: str) -> None:
    n_err = sum(p.severity is Severity.ERROR for p in problems)
    n_warn = len(problems) - n_err
    err.print(f"[bold red]✗ {what}: {n_err} error(s), {n_warn} warning(s); nothing was written for it.[/]")


@contextmanager
def _guard() -> Iterator[None]:
    """Every known failure becomes a message and an exit code, never a traceback."""
    try:
        yield
    except ContentError as exc:
        _show(exc.problems)
        _summary(exc.problems, "content has problems")
        raise typer.Exit(exc.exit_code) from None
    except MazmorraError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("[bold red]interrupted[/]; no partial file was left in the output folder")
        raise typer.Exit(130) from None
    except OSError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(1) from None


class _ProgressPrinter:
    """A Rich progress bar on a terminal, plain lines elsewhere (CI, pipes)."""

    def __init__(self, total: int, label: str):
        self.fancy = err.is_terminal and not os.environ.get("CI")
        self.total = total
        self.label = label
        self._progress: Any = None

    def __enter__(self) -> _ProgressPrinter:
        if self.fancy:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), console=err, transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task(self.label, total=self.total)
        return self

    def __call__(self, what: str, n: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=n, **({"description": what} if what else {}))
        elif what:
            err.print(f"  {what}")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)


@app.command()
def validate(packs: PacksArg = None, lang: LangOpt = "all", strict: StrictOpt = False,
             draft: DraftOpt = False,
             as_json: Annotated[bool, typer.Option("--json", help="Problems as JSON on stdout (for CI and "
                                                   "editors).")] = False) -> None:
    """Check packs against their rules, translations and text boxes; exit 1 on any error."""
    import json

    with _guard():
        failed = False
        report = []
        for pack_dir in _packs(packs):
            try:
                res = build(pack_dir, BuildOptions(langs=_langs(lang), strict=strict, draft=draft), render=False)
                problems, ok = res.warnings, True
            except ContentError as exc:
                problems, ok = exc.problems, False
            failed |= not ok
            report.append({"pack": pack_dir.name, "ok": ok, "problems": [p.as_dict() for p in problems]})
            if as_json:
                continue
            _show(problems)
            if ok:
                err.print(f"[green]✓[/] {pack_dir.name}: valid ({len(problems)} warning(s))")
            else:
                _summary(problems, pack_dir.name)
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
        if failed:
            raise typer.Exit(1)


@app.command("build")
def build_cmd(
    packs: PacksArg = None,
    lang: LangOpt = "all",
    page: Annotated[Optional[Page], typer.Option(help="Paper size (default: the pack's).",
                                                 rich_help_panel="Sheets")] = None,
    landscape: Annotated[bool, typer.Option(help="Landscape sheets.", rich_help_panel="Sheets")] = False,
    duplex: Annotated[Duplex, typer.Option(help="The edge the sheet flips on for duplex backs pages (on "
                                                "landscape sheets the long edge is the top), or none: "
                                                "no backs.", rich_help_panel="Sheets")] = Duplex.long,
    crop_marks: Annotated[bool, typer.Option("--crop-marks/--no-crop-marks", help="Crop marks outside the bleed.",
                                             rich_help_panel="Sheets")] = True,
    cut_lines: Annotated[bool, typer.Option("--cut-lines", help="Dashed cut lines across the sheet.",
                                            rich_help_panel="Sheets")] = False,
    margin: Annotated[float, typer.Option(help="Printable margin in mm (at least 5).", min=5.0,
                                          rich_help_panel="Sheets")] = 5.0,
    layout: Annotated[Layout, typer.Option(help="duplex: backs on their own pages after each fronts page; "
                                                "fold: fold-and-glue, each back beside its front across a "
                                                "fold line through the page's centre.", rich_help_panel="Sheets")] = Layout.duplex,
    fold: Annotated[Fold, typer.Option(help="The fold line of --layout fold: vertical (fronts left, backs "
                                            "right), horizontal (fronts top), or auto: whichever fits "
                                            "more.", rich_help_panel="Sheets")] = Fold.auto,
    back_offset: BackOffsetOpt = None,
    gutter: Annotated[float, typer.Option(help="mm between neighbouring bleed boxes (crop marks then also "
                                               "sit in the gutters).", min=0.0, max=50.0, rich_help_panel="Sheets")] = 0.0,
    bleed: Annotated[Optional[float], typer.Option(
        help="Bleed in mm instead of the pack's; 0 abuts the cards, neighbours sharing one cut line.",
        min=0.0, max=10.0, show_default=False, rich_help_panel="Sheets")] = None,
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("output"),
    deck: Annotated[Optional[list[str]], typer.Option("--deck", "-d", help="Only this deck (repeatable).")] = None,
    changed_only: Annotated[bool, typer.Option("--changed-only", help="Skip decks whose PDF is newer than every "
                                               "file it was made from (what `make` uses).")] = False,
    strict: StrictOpt = False,
    draft: DraftOpt = False,
    pdf: Annotated[bool, typer.Option("--pdf/--no-pdf", help="Print-and-play PDFs.", rich_help_panel="Outputs")] = True,
    png: Annotated[bool, typer.Option("--png", help="A PNG per face: output/<pack>/<lang>/png/<deck>/.",
                                      rich_help_panel="Outputs")] = False,
    png_profile: Annotated[Optional[PngProfile], typer.Option(
        help="PNGs at a print shop's exact size (implies --png): tgc = The Game Crafter poker 825×1125 px, "
             "mpc = MakePlayingCards poker 822×1122 px.", rich_help_panel="Outputs")] = None,
    dpi: Annotated[Optional[int], typer.Option(help="PNG resolution (default 300; a profile has its own); also "
                                                    "the resolution cap of TTS sheets.", show_default=False,
                                               min=30, max=1200, rich_help_panel="Outputs")] = None,
    png_bleed: Annotated[bool, typer.Option("--png-bleed/--no-png-bleed", help="PNGs include the bleed.",
                                            rich_help_panel="Outputs")] = True,
    tts: Annotated[bool, typer.Option("--tts", help="Tabletop Simulator deck sheets and saved objects: "
                                                    "output/<pack>/<lang>/tts/.", rich_help_panel="Outputs")] = False,
    tts_url: Annotated[Optional[str], typer.Option(
        help="URL the tts/ folder will be uploaded to (default: file:/// URIs of this machine).",
        rich_help_panel="Outputs")] = None,
    gallery: Annotated[bool, typer.Option("--gallery", help="An HTML gallery with translation status: "
                                                            "output/<pack>/gallery/index.html.",
                                          rich_help_panel="Outputs")] = False,
) -> None:
    """Validate, then write output/<pack>/<lang>/<deck>.pdf for every deck and the exports asked for
    (nothing if invalid)."""
    with _guard():
        offset = _back_offset(back_offset)
        if offset != (0.0, 0.0) and (layout is Layout.fold or duplex is Duplex.none):
            raise UsageError("--back-offset moves backs pages: it needs --layout duplex and --duplex long or short")
        if layout is Layout.fold and duplex is Duplex.none:
            raise UsageError("--layout fold prints every back beside its front: drop --duplex none")
        if png_profile is not None and dpi is not None:
            raise UsageError(f"--png-profile {png_profile.value} fixes the resolution: drop --dpi")
        exports = ExportOptions(png=png, png_profile=png_profile.value if png_profile else None,
                                dpi=dpi or 300, png_bleed=png_bleed, tts=tts, tts_url=tts_url, gallery=gallery)
        exports.check()
        if not (pdf or png or png_profile or tts or gallery):
            raise UsageError("nothing to build: --no-pdf and no --png, --tts or --gallery")
        if changed_only and (png or png_profile or tts or gallery):
            raise UsageError("--changed-only skips decks by their PDF's age: build exports without it")
        failed = []
        for pack_dir in _packs(packs):
            try:
                pack = load_pack(pack_dir)
            except ContentError as exc:  # each pack stands alone: report it, build the others
                _show(exc.problems)
                _summary(exc.problems, pack_dir.name)
                failed.append(pack_dir.name)
                continue
            sheet = SheetSpec(page=(page.value if page else pack.spec.page), landscape=landscape, margin=margin,
                              crop_marks=crop_marks, cut_lines=cut_lines, duplex=duplex.value,
                              layout=layout.value, fold=fold.value, back_offset=offset, gutter=gutter, bleed=bleed)
            total = sum(c.data.copies for d in pack.decks if not deck or d.id in deck for c in d.components) * len(
                _langs(lang) or pack.spec.languages)
            opts = BuildOptions(langs=_langs(lang), sheet=sheet, out_dir=out_dir, strict=strict, draft=draft,
                                decks=tuple(deck) if deck else None, changed_only=changed_only, pdf=pdf,
                                exports=exports)
            try:
                with _ProgressPrinter(total, f"building {pack.id}") as progress:
                    res = build(pack_dir, opts, progress)
            except ContentError as exc:
                _show(exc.problems)
                _summary(exc.problems, pack.id)
                failed.append(pack.id)
                continue
            _show(res.warnings)
            err.print(f"[green]✓[/] {res.pack.id}: {len(res.outputs)} PDF(s), {res.pages} pages, "
                      f"{res.faces} faces in {res.seconds:.1f} s")
            for p in res.outputs:
                out.print(f"  {p}")
            for line in res.exports:
                out.print(f"  {line}")
        if failed:
            err.print(f"[bold red]✗ not built: {', '.join(failed)}[/]")
            raise typer.Exit(1)


@app.command()
def calibrate(
    page: Annotated[Page, typer.Option(help="Paper size.")] = Page.a4,
    landscape: Annotated[bool, typer.Option(help="Landscape sheets.")] = False,
    duplex: Annotated[Duplex, typer.Option(help="The edge you flip on (only the instructions change).")] = Duplex.long,
    back_offset: BackOffsetOpt = None,
    out_path: Annotated[Optional[Path], typer.Option("--out", "-o", help="The PDF to write [default: "
                                                "output/calibration-<page>.pdf].", show_default=False)] = None,
) -> None:
    """Write a 2-page duplex calibration PDF: print it double-sided, hold it to the light and read
    the --back-offset X,Y for `mazmorra build` off the back's scales."""
    from mazmorra.calibrate import write_calibration

    with _guard():
        if duplex is Duplex.none:
            raise UsageError("--duplex none has no backs to calibrate: use long or short")
        sheet = SheetSpec(page=page.value, landscape=landscape, duplex=duplex.value,
                          back_offset=_back_offset(back_offset))
        path = out_path or Path("output") / f"calibration-{page.value}{'-landscape' if landscape else ''}.pdf"
        write_calibration(path, sheet)
        err.print(f"[green]✓[/] {path}: print both pages double-sided ({duplex.value}-edge flip) at actual size")
        out.print(f"  {path}")


@app.command()
def new(name: Annotated[str, typer.Argument(help="Id of the new pack (lowercase, digits, -).")],
        content_dir: Annotated[Path, typer.Option("--content", help="Where packs live.")] = Path("content")) -> None:
    """Start a new pack from a minimal one that builds at once."""
    import re

    with _guard():
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
def outputs(packs: PacksArg = None,
            out_dir: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("output"),
            stamps: Annotated[bool, typer.Option("--stamps", help="One make stamp per pack and language instead "
                                                 "of one PDF per deck.")] = False) -> None:
    """Print what a build makes, one path per line (used by the Makefile)."""
    from mazmorra.incremental import stamp_path

    with _guard():
        for pack_dir in _packs(packs):
            pack = load_pack(pack_dir)
            for lang in pack.spec.languages:
                if stamps:
                    out.print(str(stamp_path(out_dir, pack.id, lang)))
                    continue
                for d in pack.decks:
                    out.print(str(out_dir / pack.id / lang / f"{d.id}.pdf"))


@app.command()
def icons(packs: PacksArg = None) -> None:
    """List the icon names text tokens ({name:N}) and templates can use: bundled, plus each pack's own."""
    from mazmorra.icons import IconSet

    with _guard():
        if not packs:
            out.print(" ".join(IconSet.for_pack(None).names()))
            return
        for pack_dir in _packs(packs):
            out.print(f"[bold]{pack_dir.name}[/]: " + " ".join(IconSet.for_pack(pack_dir).names()))


@app.command("kinds")
def kinds_cmd() -> None:
    """List the registered component kinds."""
    for name, kind in kinds.all_kinds().items():
        out.print(f"[bold]{name}[/]  {kind.summary}")


def _pack_labels(pack: Pack) -> list[Label]:
    """The labels the templates of the pack's kinds print (and what those templates include)."""
    from mazmorra.layout import Templates

    names = sorted({n for k in pack.kinds() for n in (k.template, k.back_template) if n})
    return Templates(pack.root, templates_dir()).labels(names)


@i18n_app.command("update")
def i18n_update(packs: PacksArg = None) -> None:
    """Create or update locale/<lang>.po for every non-source language, keeping translations.

    A changed source text keeps its translation, marked fuzzy; removed texts become obsolete entries.
    """
    with _guard():
        for pack_dir in _packs(packs):
            pack = load_pack(pack_dir)
            labels = _pack_labels(pack)
            for lang in pack.spec.languages:
                if lang == pack.spec.source_language:
                    continue
                stats = catalogue.update_catalogue(pack, lang, labels)
                err.print(f"[green]✓[/] {catalogue_path(pack.root, lang)}: {stats['kept']} kept, {stats['new']} new, "
                          f"{stats['fuzzy']} fuzzy, {stats['obsolete']} obsolete")


@i18n_app.command("add")
def i18n_add(lang: Annotated[str, typer.Argument(help="Language code, e.g. fr or pt_BR.")],
             packs: PacksArg = None) -> None:
    """Add a language to a pack: pack.yaml lists it and locale/<lang>.po is created for translators."""
    with _guard():
        for pack_dir in _packs(packs):
            pack = load_pack(pack_dir)
            try:
                path = catalogue.add_language(pack, lang, _pack_labels(pack))
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            err.print(f"[green]✓[/] {pack.id}: added '{lang}'; translate {path}, then "
                      f"`mazmorra build {pack.id} --lang {lang}` (or --draft to preview)")


@i18n_app.command("status")
def i18n_status(packs: PacksArg = None,
                as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output for CI.")] = False,
                ) -> None:
    """Per language: translated, fuzzy, untranslated, obsolete and overflowing texts, with file:line."""
    import json

    with _guard():
        report = []
        for pack_dir in _packs(packs):
            pack = load_pack(pack_dir)
            try:
                build(pack_dir, BuildOptions(draft=True), render=False)
                problems: list[Problem] = []
            except ContentError as exc:
                problems = exc.problems
            for lang in pack.spec.languages:
                st = catalogue.catalogue_status(pack, lang)
                st.overflow = [p for p in problems if p.rule == "text.overflow" and p.lang == lang]
                report.append((pack.id, st))
        if as_json:
            sys.stdout.write(json.dumps([{"pack": pid, **st.as_dict()} for pid, st in report], ensure_ascii=False,
                                        indent=2) + "\n")
            return
        from rich.table import Table

        table = Table(title="Translations", title_justify="left")
        for col in ("pack", "lang", "translated", "fuzzy", "untranslated", "obsolete", "overflowing"):
            table.add_column(col, justify="left" if col in ("pack", "lang") else "right")
        for pid, st in report:
            table.add_row(pid, st.lang + (" (source)" if st.source else ""),
                          f"{st.translated}/{st.total} ({st.percent(st.translated):g}%)", str(st.fuzzy),
                          str(st.untranslated), str(st.obsolete), str(len(st.overflow or [])))
        out.print(table)
        for pid, st in report:
            for item in st.items or []:
                colour = {"fuzzy": "yellow", "untranslated": "red", "obsolete": "dim"}[item.state]
                out.print(f"[{colour}]{item.state:12}[/] {pid}/{st.lang} {item.loc} {escape(item.ctx)}")
            for p in st.overflow or []:
                out.print(f"[red]{'overflowing':12}[/] {pid}/{st.lang} {p.loc} {p.component}.{p.field}: "
                          f"{escape(p.message)}")


def main() -> None:
    try:
        app()
    except SystemExit:
        raise
    except Exception as exc:  # a bug in mazmorra itself: still no traceback wall for the user
        if os.environ.get("MAZMORRA_DEBUG"):
            raise
        err.print(f"[bold red]internal error:[/] {type(exc).__name__}: {escape(str(exc))}\n"
                  "This is a bug in mazmorra; rerun with MAZMORRA_DEBUG=1 for details.")
        sys.exit(70)


if __name__ == "__main__":
    main()
