"""`mazmorra build`'s options, parsed into one typed object that checks its own combinations and
says what the build is to make (the command itself only declares the options)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.build.choices import Duplex, Fold, PaperSize, PngProfile, SheetLayout, back_offset_mm, parse_langs
from mazmorra.errors import UsageError

if TYPE_CHECKING:
    from mazmorra.build.pipeline import BuildOptions
    from mazmorra.model.content import Pack
    from mazmorra.render import Outputs


@dataclass(frozen=True)
class BuildArgs:
    lang: str = "all"
    page: PaperSize | None = None  # None: the pack's paper
    landscape: bool | None = None  # None: the deck's or pack's orientation, else whichever fits more
    duplex: Duplex = Duplex.long
    crop_marks: bool = True
    cut_lines: bool = False
    margin: float = 5.0
    layout: SheetLayout = SheetLayout.duplex
    fold: Fold = Fold.auto
    back_offset: str | None = None
    gutter: float = 0.0
    bleed: float | None = None
    overlap: float = 10.0
    out_dir: Path = Path("output")
    deck: tuple[str, ...] = ()
    changed_only: bool = False
    strict: bool = False
    draft: bool = False
    jobs: int = 1
    pdf: bool = True
    png: bool = False
    png_profile: PngProfile | None = None
    dpi: int | None = None  # None: 300, or the profile's
    png_bleed: bool = True
    tts: bool = False
    tts_url: tuple[str, ...] = ()
    gallery: bool = False
    changed_since: str | None = None  # a playtest round: only what changed since this revision or folder
    stamp: bool = False  # the version stamp on every face (playtest builds)
    card_pdfs: bool = False  # one PDF per component, trimmed to its bleed
    printer: str | None = None  # a printer profile's name: exactly its files
    values: tuple[str, ...] = ()  # --set NAME=VALUE: vars.NAME in templates

    def set_values(self) -> tuple[tuple[str, str], ...]:
        """--set's NAME=VALUE pairs; a UsageError naming one that is not."""
        out: dict[str, str] = {}
        for raw in self.values:
            name, eq, value = raw.partition("=")
            if not eq or not name.isidentifier():
                raise UsageError(
                    f"--set {raw!r}: write NAME=VALUE, NAME a word of letters, digits and _ (watermark=PLAYTEST)"
                )
            out[name] = value
        return tuple(sorted(out.items()))

    greyscale: bool = False  # print sheets in grey only
    ink_saver: bool = False  # print sheets with light tints and outlines
    cut_file: bool = False  # print-and-cut sheets and SVG cut paths for a cutting machine

    def check(self) -> None:
        """Options that cannot go together: a UsageError (exit 2) naming them."""
        self.set_values()
        offset = back_offset_mm(self.back_offset)
        if offset != (0.0, 0.0) and (self.layout is SheetLayout.fold or self.duplex is Duplex.none):
            raise UsageError("--back-offset moves backs pages: it needs --layout duplex and --duplex long or short")
        if self.layout is SheetLayout.fold and self.duplex is Duplex.none:
            raise UsageError("--layout fold prints every back beside its front: drop --duplex none")
        if self.png_profile is not None and self.dpi is not None:
            raise UsageError(f"--png-profile {self.png_profile.value} fixes the resolution: drop --dpi")
        if self.printer is not None and (self.png or self.png_profile or self.page or self.bleed is not None):
            raise UsageError(
                f"--printer {self.printer} says the paper, bleed and files itself: drop --page, --bleed, --png and "
                "--png-profile (or edit the profile: `mazmorra printers`)"
            )
        outputs = self.outputs(None)
        outputs.check()
        if self.changed_only and self.changed_since is not None:
            raise UsageError(
                "--changed-only (skip decks whose PDF is up to date, for make) and --changed-since REV (print only "
                "the components changed since REV) cannot go together: drop --changed-only"
            )
        if self.changed_only and (
            outputs.png or outputs.png_profile or outputs.tts or outputs.gallery or outputs.cut_file
        ):
            raise UsageError("--changed-only skips decks by their PDF's age: build exports without it")

    def outputs(self, pack: Pack | None) -> Outputs:
        """What stage 5 makes, for one pack (its paper when no --page is given)."""
        from mazmorra import printers
        from mazmorra.render import Outputs
        from mazmorra.render.impose import ImposeOptions

        sheet = None
        # without a pack (checking the options) a printer's name is not resolved: a pack may have its own
        printer = printers.load(self.printer, pack.root) if self.printer and pack is not None else None
        if pack is not None:
            sheet = ImposeOptions(
                page=(printer.page if printer and printer.page else self.page.value if self.page else pack.spec.page),
                landscape=self.landscape,
                margin=self.margin,
                crop_marks=self.crop_marks and (printer is None or printer.crop_marks),
                cut_lines=self.cut_lines,
                duplex=self.duplex.value,
                layout=self.layout.value,
                fold=self.fold.value,
                back_offset=back_offset_mm(self.back_offset),
                gutter=self.gutter,
                bleed=printer.bleed if printer is not None else self.bleed,
                overlap=self.overlap,
                greyscale=self.greyscale,
                ink_saver=self.ink_saver,
            )
        return Outputs(
            pdf=(self.pdf and (printer is None or printer.layout == "sheets"))
            or (self.printer is not None and pack is None),
            sheet=sheet,
            png=self.png,
            png_profile=self.png_profile.value if self.png_profile else None,
            dpi=self.dpi or 300,
            png_bleed=self.png_bleed,
            tts=self.tts,
            tts_url=self.tts_url,
            gallery=self.gallery,
            card_pdfs=self.card_pdfs,
            printer=printer,
            cut_file=self.cut_file,
        )

    def build_options(self, pack: Pack, since: Path | None = None) -> BuildOptions:
        """The pipeline's options for one pack; `since`: the folder its --changed-since revision is in
        (None: the pack was not in that revision)."""
        from mazmorra.build.pipeline import BuildOptions

        rnd = None
        if self.changed_since:  # a round's machinery (diffing, git archives) only for a round
            from mazmorra.rounds import Revision

            rnd = Revision(self.changed_since, since)
        outputs = self.outputs(pack)
        values = dict(outputs.printer.values if outputs.printer else ())  # the profile's `set:` defaults,
        values |= dict(self.set_values())  # which --set overrides
        return BuildOptions(
            langs=parse_langs(self.lang),
            out_dir=self.out_dir,
            strict=self.strict,
            draft=self.draft,
            decks=self.deck or None,
            changed_only=self.changed_only,
            outputs=outputs,
            jobs=self.jobs,
            changed_since=rnd,
            stamp=self.stamp,
            values=tuple(sorted(values.items())),
        )

    def copies(self, pack: Pack) -> int:
        """How many components the build lays out (for the progress bar)."""
        langs = parse_langs(self.lang) or pack.spec.languages
        return len(langs) * sum(
            c.data.copies for d in pack.decks if not self.deck or d.id in self.deck for c in d.components
        )
