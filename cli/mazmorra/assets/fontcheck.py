"""A pack font's glyphs checked when it is loaded, as the PDF writer will read them: ReportLab
subsets a TrueType font only when it saves a PDF, so a font whose glyph table is garbage passed
`validate` and ended the build in the subsetter's traceback."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


def check_glyphs(path: Path) -> None:
    """Raise (a ValueError saying so) when ReportLab cannot subset the font's every character; a
    CFF-outline font (`OTTO`) is converted glyph by glyph when registered, which checks it already."""
    stat = path.stat()
    _check(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _check(path: Path, mtime_ns: int, size: int) -> None:
    with path.open("rb") as fh:
        if fh.read(4) == b"OTTO":
            return
    from reportlab.pdfbase.ttfonts import TTFontFile

    try:
        font = TTFontFile(str(path))
        font.makeSubset(sorted(font.charToGlyph))  # every character the font maps, as a PDF would embed them
    except Exception as exc:  # ReportLab raises IndexError, struct.error, KeyError… for a damaged table
        raise ValueError(f"its glyph tables are damaged: {type(exc).__name__} when subsetting them") from None
