"""Bundled TrueType fonts: registered once, embedded and subset by ReportLab in every PDF."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).parent / "fonts"

# Template font names -> bundled files. DejaVu covers Spanish, English and most of Latin/Greek.
FONTS = {
    "sans": "DejaVuSansCondensed.ttf",
    "sans-bold": "DejaVuSansCondensed-Bold.ttf",
    "sans-italic": "DejaVuSansCondensed-Oblique.ttf",
    "serif-bold": "DejaVuSerifCondensed-Bold.ttf",
}
BOLD_OF = {
    "sans": "sans-bold",
    "sans-italic": "sans-bold",
    "sans-bold": "sans-bold",
    "serif-bold": "serif-bold",
}
DEFAULT = "sans"


def _rl_name(name: str) -> str:
    return "Mz-" + name


@cache
def register(name: str) -> str:
    """Register a bundled font with ReportLab and return its ReportLab name."""
    if name not in FONTS:
        raise KeyError(name)
    rl = _rl_name(name)
    pdfmetrics.registerFont(TTFont(rl, str(FONT_DIR / FONTS[name])))
    return rl


def register_all() -> None:
    for name in FONTS:
        register(name)


def font_files() -> list[Path]:
    return [FONT_DIR / f for f in FONTS.values()]


@cache
def _charset(name: str) -> frozenset[str]:
    font = pdfmetrics.getFont(register(name))
    return frozenset(chr(c) for c in font.face.charToGlyph)


def missing_chars(text: str, name: str) -> set[str]:
    """Characters of text the font cannot draw (whitespace aside)."""
    missing = set(text).difference(_charset(name))  # in C: every card's text goes through here
    return {ch for ch in missing if not ch.isspace()} if missing else missing


@lru_cache(maxsize=65536)
def _unit_width(text: str, name: str) -> float:
    return float(pdfmetrics.stringWidth(text, register(name), 1000.0)) / 1000.0


def width(text: str, name: str, size_pt: float) -> float:
    """Advance width in pt (no kerning, so it scales exactly with size: cached per word at 1 pt)."""
    return _unit_width(text, name) * size_pt
