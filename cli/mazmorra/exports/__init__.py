"""Stage 5 besides the PDF: renderers for print shops (PNG), Tabletop Simulator and a gallery.

Each is fed the same streamed items as the PDF (`add` per component, `end` per deck and language,
`finish` once per pack) and writes only through `stage`, which hands out temporary files that the
pipeline renames into place once the whole build is valid. Pixels exist only in these modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem, UsageError

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Item
    from mazmorra.icons import IconSet
    from mazmorra.model import Pack

Stage = Callable[[Path], Path]  # target -> the temporary file to write it to


@dataclass(frozen=True)
class ExportOptions:
    png: bool = False  # one PNG per face, for print shops
    png_profile: str | None = None  # a print shop's exact image size (raster.PROFILES); implies png
    dpi: int = 300  # PNG resolution; the resolution cap of TTS sheets
    png_bleed: bool = True
    tts: bool = False  # Tabletop Simulator deck sheets and a saved-object JSON
    tts_url: tuple[str, ...] = ()  # where the TTS images will be served from, per language (default: file:/// URIs)
    gallery: bool = False  # output/<pack>/gallery/index.html

    def check(self) -> None:
        if self.png_profile is not None:
            from mazmorra.exports.raster import PROFILES  # pypdfium2: only when a profile is named

            if self.png_profile not in PROFILES:
                raise UsageError(f"unknown PNG profile '{self.png_profile}' (known: {', '.join(PROFILES)})")
        if self.png_profile is not None and not self.png_bleed:
            raise UsageError("a PNG profile includes the print shop's bleed: drop --no-png-bleed")
        if not 30 <= self.dpi <= 1200:
            raise UsageError(f"--dpi must be between 30 and 1200 (got {self.dpi})")
        for value in self.tts_url:
            if not _TTS_URL.match(value):
                raise UsageError(
                    f"--tts-url must be a URL such as https://example.org/decks/{{lang}}, or LANG=URL for one "
                    f"language (got '{value}')"
                )

    def tts_base(self, lang: str) -> str | None:
        """Where one language's tts/ folder is served from: its own `--tts-url LANG=URL`, else the
        shared URL with `{lang}` filled in, or with the language added as a last folder (so that two
        languages never share an address); None for file:/// URIs."""
        shared = None
        for value in self.tts_url:
            m = _TTS_URL.match(value)
            assert m is not None  # checked
            if m.group(1) == lang:
                return m.group(2)
            if m.group(1) is None:
                shared = m.group(2)
        if shared is None:
            return None
        return shared.replace("{lang}", lang) if "{lang}" in shared else f"{shared.rstrip('/')}/{lang}"


_TTS_URL = re.compile(r"^(?:([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?)=)?([a-z][a-z0-9+.-]*://.+)$")


def back_stem(doc: Document, item: Item) -> str:
    """The file stem of a component's back image: `<id>-back` for its own back; `back` for the
    deck's back, `back-<kind>-<size>` for the backs of the other kinds and sizes a deck mixes (one
    image each, written once per deck)."""
    assert item.back is not None
    if not item.shared_back:
        return f"{item.front.component}-back"
    own = f"deck:{doc.deck_id}"
    if item.back.component == own:
        return "back"
    return "back-" + item.back.component[len(own) + 1 :].replace(":", "-")


class Exporter:
    """A stage-5 renderer besides the PDF."""

    def add(self, doc: Document, item: Item) -> None:
        """One component laid out (all its copies)."""

    def end(self, doc: Document) -> None:
        """The document's last component has been added."""

    def finish(self) -> None:
        """Every document of the pack is done (pack-wide outputs)."""

    def committed(self) -> None:
        """Everything staged is in place: remove files a previous build left that this one did not
        write, in folders this exporter owns."""

    def summary(self) -> list[str]:
        """What to tell the user was written."""
        return []


def make_exporters(
    opts: ExportOptions,
    pack: Pack,
    out_dir: Path,
    icons: IconSet,
    stage: Stage,
    problems: list[Problem],
) -> list[Exporter]:
    """The renderers the options ask for, in a fixed order."""
    from mazmorra.exports.gallery import GalleryExport
    from mazmorra.exports.png import PngExport
    from mazmorra.exports.tts import TtsExport

    found: list[Exporter] = []
    if opts.png or opts.png_profile:
        found.append(PngExport(opts, pack, out_dir, icons, stage, problems))
    if opts.tts:
        found.append(TtsExport(opts, pack, out_dir, icons, stage))
    if opts.gallery:
        found.append(GalleryExport(pack, out_dir, icons, stage, problems))
    return found


def prune(folder: Path, keep: set[Path], suffixes: tuple[str, ...]) -> None:
    """Delete files with these suffixes under folder that are not in keep, then empty folders."""
    if not folder.is_dir():
        return
    keep = {p.resolve() for p in keep}
    for p in sorted(folder.rglob("*"), reverse=True):
        if p.is_file() and p.suffix in suffixes and p.resolve() not in keep:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
