"""The sink table: every output of stage 5 declared once, light enough for `mazmorra --help`.

An entry (`SinkDecl`) names a sink and the class that makes it (imported only by a build that
wants it), its `mazmorra build` options, the docs section that explains it, the printer profile
layouts whose files it makes and what it supports: make's dependency files (so `--changed-only`
can skip up-to-date decks) and the documents only printed. Everything else reads this table: the
command line's output options, `Outputs` (the values every sink reads), which sinks a build runs,
the guards on their options and the meta-test (tests/render/test_sinks.py). A new output is its
sink module, its entry here, its docs section and its test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from mazmorra.errors import UsageError

if TYPE_CHECKING:
    from mazmorra.printers import Printer
    from mazmorra.render.impose import ImposeOptions


@dataclass(frozen=True)
class SinkOption:
    """One `mazmorra build` option of a sink: the `Outputs` value of the same name."""

    name: str  # "png_profile": the value sinks read (`outputs.png_profile`) and the command's parameter
    flags: str  # "--png-bleed/--no-png-bleed"
    type: Any  # what the command line parses: bool, int | None, an Enum | None, list[str] | None
    default: Any
    help: str
    asks: bool = False  # set, it asks for its sink (--png); else it only says how (--dpi)
    value: Callable[[Any], Any] | None = None  # the value sinks read, from the one given (None: as given)
    metavar: str | None = None
    show_default: bool = True
    limits: tuple[int, int] | None = None  # the command line refuses a number outside
    panel: str = "Outputs"  # its heading in `mazmorra build --help`

    def read(self, given: Any) -> Any:
        """The value sinks read, from the one the command line (or a caller) gave."""
        return self.value(given) if self.value is not None else given

    def spelt(self, given: Any) -> str:
        """How the command line writes this value: `--no-pdf`, `--png`, `--dpi`."""
        on, _, off = self.flags.partition("/")
        return off if off and not given else on


@dataclass(frozen=True)
class SinkDecl:
    """One sink, declared: everything about it that is not how it writes its files."""

    name: str
    where: str  # "mazmorra.render.sinks.png:PngSink": the class, imported only when a build wants it
    docs: str  # "docs/exports.md#png-per-face": where a designer reads about it
    options: tuple[SinkOption, ...] = ()
    layouts: tuple[str, ...] = ()  # the printer profile layouts (mazmorra.printers.LAYOUTS) whose files it makes
    changed_only: bool = False  # it writes make's dependency files: --changed-only skips its up-to-date decks
    prints: bool = False  # it makes print sheets: it also takes the documents only printed (a round's removals)
    check: Callable[[Mapping[str, Any]], str | None] | None = None  # what is wrong with its options as given

    def wanted(self, outputs: Outputs) -> bool:
        """Whether a build with these outputs runs this sink: with a printer profile, a sink making
        printers' files runs when the profile's layout is one of its own; else when an option asks."""
        if outputs.printer is not None and self.layouts:
            return outputs.printer.layout in self.layouts
        return any(outputs.values[o.name] for o in self.options if o.asks)

    def asked_by(self, outputs: Outputs) -> list[str]:
        """The options that ask for this sink, as the command line writes them (or the printer)."""
        if outputs.printer is not None and self.layouts:
            return [f"--printer {outputs.printer.id}"]
        return [o.spelt(outputs.values[o.name]) for o in self.options if o.asks and outputs.values[o.name]]


@dataclass(frozen=True, init=False)
class Outputs:
    """What stage 5 makes, and how: the value of every sink option in the table (`outputs.dpi`), how
    faces go on print sheets (None: the pack's page, defaults otherwise) and the printer's profile
    (`--printer`: its files, as its profile says)."""

    values: dict[str, Any]
    sheet: ImposeOptions | None
    printer: Printer | None

    def __init__(self, sheet: ImposeOptions | None = None, printer: Printer | None = None, **values: Any) -> None:
        options = {o.name: o for decl in SINKS for o in decl.options}
        unknown = sorted(set(values) - set(options))
        if unknown:
            raise TypeError(f"not an option of any sink: {', '.join(unknown)}")
        resolved = {name: o.read(o.default) for name, o in options.items()} | values
        if printer is not None:  # its profile alone says which of the sinks making printers' files run:
            for decl in (d for d in SINKS if d.layouts):  # their asking options read as whether they do
                for o in (o for o in decl.options if o.asks):
                    resolved[o.name] = printer.layout in decl.layouts if o.type is bool else o.read(o.default)
        object.__setattr__(self, "values", resolved)
        object.__setattr__(self, "sheet", sheet)
        object.__setattr__(self, "printer", printer)

    @classmethod
    def of(cls, given: Mapping[str, Any], sheet: ImposeOptions | None, printer: Printer | None) -> Outputs:
        """The outputs of the sinks' options as the command line gave them (every one in `given`)."""
        options = {o.name: o for decl in SINKS for o in decl.options}
        return cls(sheet, printer, **{name: o.read(given[name]) for name, o in options.items()})

    def __getattr__(self, name: str) -> Any:
        """A sink option's value, as an attribute: `outputs.dpi`."""
        values = self.__dict__.get("values")
        if values is None or name not in values:  # (unpickling asks before `values` is set)
            raise AttributeError(name)
        return values[name]


def given_defaults() -> dict[str, Any]:
    """Every sink option as the command line gives it when not set."""
    return {o.name: o.default for decl in SINKS for o in decl.options}


def wanted(outputs: Outputs) -> list[SinkDecl]:
    """The sinks a build with these outputs runs, in the table's order."""
    return [decl for decl in SINKS if decl.wanted(outputs)]


def check_given(given: Mapping[str, Any]) -> None:
    """Each sink's options as given (a caller's too, which the command line's limits do not guard),
    checked: a UsageError (exit 2) saying what is wrong."""
    for decl in SINKS:
        for o in decl.options:
            value = given[o.name]
            if o.limits is not None and value is not None and not o.limits[0] <= value <= o.limits[1]:
                raise UsageError(f"{o.flags} must be between {o.limits[0]} and {o.limits[1]} (got {value})")
        wrong = decl.check(given) if decl.check is not None else None
        if wrong:
            raise UsageError(wrong)


def check_outputs(outputs: Outputs, changed_only: bool) -> None:
    """What the outputs ask for, against the table: a UsageError (exit 2) when no sink is wanted, or
    when --changed-only would skip decks for a wanted sink that writes no dependency files for make."""
    runs = wanted(outputs)
    if not runs:
        asking = [o for decl in SINKS for o in decl.options if o.asks]
        no = [o.spelt(True) for o in asking if not o.default] + ["--printer"]
        nor = f"{', '.join(no[:-1])} or {no[-1]}" if len(no) > 1 else no[0]
        raise UsageError(
            f"nothing to build: {' and '.join([o.spelt(False) for o in asking if o.default] + [f'no {nor}'])}"
        )
    lacking = [decl for decl in runs if not decl.changed_only]
    if changed_only and lacking:
        keeping = [o.spelt(True) for decl in SINKS if decl.changed_only for o in decl.options if o.asks]
        asked = list(dict.fromkeys(a for decl in lacking for a in decl.asked_by(outputs)))
        raise UsageError(
            f"--changed-only skips decks by make's dependency files, which only {' and '.join(keeping)} "
            f"writes: build {', '.join(asked)} without it"
        )


def printer_conflicts(given: Mapping[str, Any]) -> list[str]:
    """The options given that ask for a sink whose files a printer profile says instead (with --printer)."""
    return [
        o.spelt(given[o.name])
        for decl in SINKS
        if decl.layouts
        for o in decl.options
        if o.asks and given[o.name] != o.default
    ]


def declaration_of(cls: type) -> SinkDecl | None:
    """The entry of a sink class (or of the class it extends: the live preview's gallery)."""
    where = {decl.where: decl for decl in SINKS}
    for c in cls.__mro__:
        decl = where.get(f"{c.__module__}:{c.__qualname__}")
        if decl is not None:
            return decl
    return None


# -- the sinks' own option checks, light: the command line runs them before any pack loads


class PngProfile(str, Enum):
    """A print shop's exact image sizes (`--png-profile`): every raster product of its printer
    profile (mazmorra.render.raster.PNG_PROFILES names the profile of each)."""

    tgc = "tgc"
    mpc = "mpc"


def _png(given: Mapping[str, Any]) -> str | None:
    profile, dpi = given["png_profile"], given["dpi"]
    if profile is not None and profile not in {p.value for p in PngProfile}:
        return f"unknown PNG profile '{profile}' (known: {', '.join(p.value for p in PngProfile)})"
    if profile is not None and dpi is not None:
        return f"--png-profile {PngProfile(profile).value} fixes the resolution: drop --dpi"
    if profile is not None and not given["png_bleed"]:
        return "a PNG profile includes the print shop's bleed: drop --no-png-bleed"
    return None


_TTS_URL = re.compile(r"^(?:([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?)=)?([a-z][a-z0-9+.-]*://.+)$")


def _tts(given: Mapping[str, Any]) -> str | None:
    for value in given["tts_url"] or ():
        if not _TTS_URL.match(value):
            return (
                f"--tts-url must be a URL such as https://example.org/decks/{{lang}}, or LANG=URL for one "
                f"language (got '{value}')"
            )
    return None


def tts_base(urls: tuple[str, ...], lang: str) -> str | None:
    """Where one language's tts/ folder is served from (`--tts-url`): its own `LANG=URL`, else the
    shared URL with `{lang}` filled in, or with the language added as a last folder (so that two
    languages never share an address); None for file:/// URIs."""
    shared = None
    for value in urls:
        m = _TTS_URL.match(value)
        assert m is not None  # checked
        if m.group(1) == lang:
            return m.group(2)
        if m.group(1) is None:
            shared = m.group(2)
    if shared is None:
        return None
    return shared.replace("{lang}", lang) if "{lang}" in shared else f"{shared.rstrip('/')}/{lang}"


# Every sink, in the order they run.
SINKS: tuple[SinkDecl, ...] = (
    SinkDecl(
        "pdf",
        "mazmorra.render.sinks.pdf:PdfSink",
        "docs/printing.md#print-and-play-pdfs",
        (SinkOption("pdf", "--pdf/--no-pdf", bool, True, "Print-and-play PDFs.", asks=True),),
        layouts=("sheets",),
        changed_only=True,
        prints=True,
    ),
    SinkDecl(
        "png",
        "mazmorra.render.sinks.png:PngSink",
        "docs/exports.md#png-per-face",
        (
            SinkOption("png", "--png", bool, False, "A PNG per face: output/<pack>/<lang>/png/<deck>/.", asks=True),
            SinkOption(
                "png_profile",
                "--png-profile",
                PngProfile | None,
                None,
                "PNGs at a print shop's exact size (implies --png), every raster product of its printer profile "
                "(`mazmorra printers`): tgc = thegamecrafter (poker 825×1125 px, mini 600×825 px), mpc = "
                "makeplayingcards (poker 822×1122 px).",
                asks=True,
                value=lambda v: None if v is None else PngProfile(v).value,
            ),
            SinkOption(
                "dpi",
                "--dpi",
                int | None,
                None,
                "PNG resolution (default 300; a profile has its own); also the resolution cap of TTS deck images.",
                value=lambda v: v or 300,
                show_default=False,
                limits=(30, 1200),
            ),
            SinkOption("png_bleed", "--png-bleed/--no-png-bleed", bool, True, "PNGs include the bleed."),
        ),
        layouts=("images",),
        check=_png,
    ),
    SinkDecl(
        "cards",
        "mazmorra.render.sinks.cardpdf:CardPdfSink",
        "docs/printing.md#per-card-pdfs",
        (
            SinkOption(
                "card_pdfs",
                "--card-pdfs",
                bool,
                False,
                "One PDF per component (front page, back page), trimmed to the bleed with its TrimBox at the "
                "cut: output/<pack>/<lang>/cards/<deck>/.",
                asks=True,
            ),
        ),
        layouts=("per-card", "per-face", "deck-front-first", "deck-back-first", "fronts-backs"),
    ),
    SinkDecl(
        "sheet-images",
        "mazmorra.render.sinks.sheetimages:SheetImageSink",
        "docs/printing.md#sheet-images",
        layouts=("sheet-images",),
        prints=True,
    ),
    SinkDecl(
        "tts",
        "mazmorra.render.sinks.tts:TtsSink",
        "docs/exports.md#tabletop-simulator",
        (
            SinkOption(
                "tts",
                "--tts",
                bool,
                False,
                "Tabletop Simulator deck images and saved objects: output/<pack>/<lang>/tts/.",
                asks=True,
            ),
            SinkOption(
                "tts_url",
                "--tts-url",
                list[str] | None,
                None,
                "URL each language's tts/ folder will be uploaded to: https://example.org/decks/{lang}, or "
                "LANG=URL per language (repeatable); a URL without {lang} gets /<lang> added "
                "(default: file:/// URIs of this machine).",
                value=lambda v: tuple(v or ()),
            ),
        ),
        check=_tts,
    ),
    SinkDecl(
        "gallery",
        "mazmorra.render.sinks.gallery:GallerySink",
        "docs/exports.md#gallery",
        (
            SinkOption(
                "gallery",
                "--gallery",
                bool,
                False,
                "An HTML gallery with translation status: output/<pack>/gallery/index.html.",
                asks=True,
            ),
        ),
    ),
    SinkDecl(
        "cut",
        "mazmorra.render.sinks.cutfile:CutSink",
        "docs/printing.md#cutting-machines-print-and-cut---cut-file",
        (
            SinkOption(
                "cut_file",
                "--cut-file",
                bool,
                False,
                "Print-and-cut files for a cutting machine (Silhouette, Cricut): sheets with registration marks "
                "and SVG cut paths, output/<pack>/<lang>/cut/<deck>/.",
                asks=True,
            ),
        ),
    ),
)
