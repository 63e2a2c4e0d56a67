"""`mazmorra build`'s options, parsed into one typed object that checks its own combinations and
says what the build is to make (the command itself only declares the options). The sinks' options
come as the sink table names them (`render/sinks/table.py`), checked and turned into `Outputs` by it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.build.choices import Duplex, Fold, PaperSize, SheetLayout, back_offset_mm, parse_langs
from mazmorra.errors import UsageError
from mazmorra.render.sinks import table

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
    changed_since: str | None = None  # a playtest round: only what changed since this revision or folder
    stamp: bool = False  # the version stamp on every face (playtest builds)
    printer: str | None = None  # a printer profile's name: exactly its files
    values: tuple[str, ...] = ()  # --set NAME=VALUE: vars.NAME in templates
    greyscale: bool = False  # print sheets in grey only
    ink_saver: bool = False  # print sheets with light tints and outlines
    sinks: Mapping[str, Any] = field(default_factory=dict)  # the sinks' options as given, by the table's names

    def given(self) -> dict[str, Any]:
        """Every sink option as given, those not given at their defaults; a TypeError names one the
        sink table does not declare."""
        defaults = table.given_defaults()
        unknown = sorted(set(self.sinks) - set(defaults))
        if unknown:
            raise TypeError(f"not an option of any sink: {', '.join(unknown)}")
        return defaults | dict(self.sinks)

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

    def check(self) -> None:
        """Options that cannot go together: a UsageError (exit 2) naming them. What a printer profile
        asks for is checked with each pack (`build_options`: a pack may have its own profile)."""
        self.set_values()
        offset = back_offset_mm(self.back_offset)
        if offset != (0.0, 0.0) and (self.layout is SheetLayout.fold or self.duplex is Duplex.none):
            raise UsageError("--back-offset moves backs pages: it needs --layout duplex and --duplex long or short")
        if self.layout is SheetLayout.fold and self.duplex is Duplex.none:
            raise UsageError("--layout fold prints every back beside its front: drop --duplex none")
        given = self.given()
        table.check_given(given)
        if self.printer is not None:
            mine = ["--page"] * (self.page is not None) + ["--bleed"] * (self.bleed is not None)
            drop = mine + table.printer_conflicts(given)
            if drop:
                raise UsageError(
                    f"--printer {self.printer} says the paper, bleed and files itself: drop {', '.join(drop)} "
                    "(or edit the profile: `mazmorra printers`)"
                )
        if self.changed_only and self.changed_since is not None:
            raise UsageError(
                "--changed-only (skip decks whose PDF is up to date, for make) and --changed-since REV (print only "
                "the components changed since REV) cannot go together: drop --changed-only"
            )
        if self.printer is None:
            table.check_outputs(self.outputs(None), self.changed_only)

    def outputs(self, pack: Pack | None) -> Outputs:
        """What stage 5 makes, for one pack (its paper when no --page is given; without a pack, the
        options alone: no sheet, and a printer's name not resolved, as a pack may have its own)."""
        from mazmorra import printers
        from mazmorra.render import Outputs
        from mazmorra.render.impose import ImposeOptions

        if pack is None:
            return Outputs.of(self.given(), None, None)
        printer = printers.load(self.printer, pack.root) if self.printer else None
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
        return Outputs.of(self.given(), sheet, printer)

    def build_options(self, pack: Pack, since: Path | None = None) -> BuildOptions:
        """The pipeline's options for one pack; `since`: the folder its --changed-since revision is in
        (None: the pack was not in that revision). A UsageError when its printer profile asks for
        files --changed-only cannot keep up to date."""
        from mazmorra.build.pipeline import BuildOptions

        rnd = None
        if self.changed_since:  # a round's machinery (diffing, git archives) only for a round
            from mazmorra.rounds import Revision

            rnd = Revision(self.changed_since, since)
        outputs = self.outputs(pack)
        table.check_outputs(outputs, self.changed_only)
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
