"""PNG per face for print shops: output/<pack>/<lang>/png/<deck>/<component>-front.png / -back.png.

One file per component and side, not per copy (copies are identical; cards.csv says how many).
A deck's common back is written once, as back.png. Sizes are round(mm / 25.4 × dpi) of the bleed
box (or of the trim with --no-png-bleed), or a print-shop profile's exact pixels. The rasteriser
(`render/raster.py`) is imported by the methods that draw: the sink table reads this module's
declaration without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.errors import Problem, Severity
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, back_image, prune
from mazmorra.render.sinks.table import SinkDecl, SinkOption
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Face, Item
    from mazmorra.render.raster import ImageFrame, Profile

MAX_PIXELS = 40e6  # a poster-sized map at 300 dpi would need gigabytes: lower the dpi, keep the print size


class PngSink(Sink):
    """One PNG per face, or a printer profile's images."""

    def __init__(self, ctx: SinkContext):
        from mazmorra.render.raster import png_profiles, printer_profiles

        super().__init__(ctx)
        opts = ctx.outputs
        self.printer = opts.printer if opts.printer is not None and opts.printer.layout == "images" else None
        self.profiles: list[Profile] = (
            printer_profiles(self.printer)
            if self.printer is not None
            else png_profiles(opts.png_profile)
            if opts.png_profile
            else []
        )
        self.profile = self.profiles[0] if self.profiles else None
        self.dpi = self.printer.dpi if self.printer else self.profile.dpi if self.profile else opts.dpi
        self._rows: list[list[str]] = []
        self._backs_done: set[str] = set()
        self._drawn: dict[str, int] = {}  # component -> items of it so far in this document
        self._misfit = False
        self._sizing: set[str] = set()  # how the document's images were sized (profile, dpi)
        self.sizing: dict[Path, set[str]] = {}  # deck folder -> the same, for the whole build

    def start(self, doc: Document) -> None:
        self._rows, self._backs_done, self._misfit, self._sizing = [], set(), False, set()
        self._drawn = {}

    def folder(self, doc: Document) -> Path:
        shop = self.printer.id if self.printer is not None else "png"
        return output_path(
            self.out_dir, "{pack}/{lang}/{shop}/{deck}", pack=self.pack.id, lang=doc.lang, shop=shop, deck=doc.file_name
        )

    def _frame(self, doc: Document, face: Face) -> ImageFrame:
        from mazmorra.render.raster import dpi_frame, fits_profile, fitting_dpi, profile_frame

        how = self._sizing
        if self.profile is not None:
            for profile in self.profiles:
                fitted = fits_profile(face, profile)
                if fitted is not None:
                    how.add(f"{profile.name} profile")
                    return profile_frame(face, fitted)
            if not self._misfit:
                self._misfit = True
                pw, ph = self.profile.trim_mm
                self.problem(
                    Problem(
                        "export.profile",
                        f"{face.w:g}×{face.h:g} mm components do not fit the {self.profile.name} profile "
                        f"({self.profile.label}, {pw:.1f}×{ph:.1f} mm): exported at {self.dpi} dpi with bleed instead",
                        self.pack.deck(doc.deck_id).loc,
                        f"deck:{doc.deck_id}",
                        lang=doc.lang,
                        severity=Severity.WARNING,
                    )
                )
        dpi = fitting_dpi(face, self.dpi, self.opts.png_bleed, MAX_PIXELS)
        how.add(f"{dpi:.0f} dpi" + (f", not fitting the {self.profile.name} profile" if self.profile else ""))
        if dpi < self.dpi:
            self.problem(
                Problem(
                    "export.png-size",
                    f"{face.component}: {face.w:g}×{face.h:g} mm at {self.dpi} dpi would be over "
                    f"{MAX_PIXELS / 1e6:g} megapixels; exported at {dpi:.0f} dpi (it still prints at its true size)",
                    self.pack.deck(doc.deck_id).loc,
                    face.component,
                    lang=doc.lang,
                    severity=Severity.WARNING,
                )
            )
        return dpi_frame(face, dpi, self.opts.png_bleed)

    def add(self, doc: Document, item: Item) -> None:
        from mazmorra.render.raster import MM_PER_IN, Rasteriser, png_bytes

        folder = self.folder(doc)
        comp = item.front.component
        self._drawn[comp] = n = self._drawn.get(comp, 0) + 1  # a component drawn copy by copy: one file a copy
        front = (
            self.file(folder, "{component}-front.png", component=comp)
            if n == 1
            else self.file(folder, "{component}-{n}-front.png", component=comp, n=n)
        )
        wanted: list[tuple[Path, Face]] = [(front, item.front)]
        back_name = ""
        if item.back is not None:
            pattern, values = back_image(doc, item, ".png")
            back = self.file(folder, pattern, **values)
            back_name = back.name
            if not (item.shared_back and back_name in self._backs_done):
                wanted.append((back, item.back))
                if item.shared_back:
                    self._backs_done.add(back_name)
        raster = Rasteriser(self.icons, doc.lang)
        frames = [self._frame(doc, face) for _, face in wanted]
        images = raster.images(list(zip((face for _, face in wanted), frames)))
        for (target, _), img, fr in zip(wanted, images, frames):
            self.write(target, png_bytes(img, fr.scale * MM_PER_IN))
        self._rows.append([comp, item.name, str(item.copies), front.name, back_name])

    def end(self, doc: Document) -> Part:
        from mazmorra.support.safetext import csv_bytes

        rows = [["component", "name", "copies", "front", "back"], *self._rows]
        self.write(self.file(self.folder(doc), "cards.csv"), csv_bytes(rows))
        part = super().end(doc)
        part.data = self._sizing
        return part

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        super().absorb(doc, part, problems)
        self.sizing.setdefault(self.folder(doc), set()).update(part.data)

    def committed(self) -> None:
        for folder, files in self.written.items():
            prune(folder, files, (".png", ".csv"))

    def summary(self) -> list[str]:
        n = sum(len(f) - 1 for f in self.written.values())
        return (
            [
                f"{folder}/ ({len(files) - 1} PNG, {'; '.join(sorted(self.sizing.get(folder, set())))})"
                for folder, files in self.written.items()
            ]
            if n
            else []
        )


class PngProfile(str, Enum):
    """A print shop's exact image sizes (`--png-profile`): every raster product of its printer
    profile (mazmorra.render.raster.PNG_PROFILES names the profile of each)."""

    tgc = "tgc"
    mpc = "mpc"


def _check(given: Mapping[str, Any]) -> str | None:
    """What is wrong with the PNG options as given: a profile fixes the resolution and the bleed."""
    profile, dpi = given["png_profile"], given["dpi"]
    if profile is not None and profile not in {p.value for p in PngProfile}:
        return f"unknown PNG profile '{profile}' (known: {', '.join(p.value for p in PngProfile)})"
    if profile is not None and dpi is not None:
        return f"--png-profile {PngProfile(profile).value} fixes the resolution: drop --dpi"
    if profile is not None and not given["png_bleed"]:
        return "a PNG profile includes the print shop's bleed: drop --no-png-bleed"
    return None


SINK = SinkDecl(
    "png",
    PngSink,
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
    check=_check,
    order=20,
)
