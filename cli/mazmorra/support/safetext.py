"""Designer text made inert for the program an export targets: spreadsheet cells (CSV formula
injection), Tabletop Simulator labels (its rich-text tags) and file names."""

from __future__ import annotations

import re
import unicodedata

# OWASP's rule for CSV injection: a cell a spreadsheet would read as a formula starts with one of
# these; a leading apostrophe makes every spreadsheet show it as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Tabletop Simulator reads BBCode-like tags in names and descriptions ([b], [i], [u], [s], [sub],
# [sup], [-], [RRGGBB], [url=…]); a word joiner after the bracket shows them as typed.
_TTS_TAG = re.compile(r"\[(?=/?(?:[biu]|s|sub|sup|url[^\]]*|-|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\])", re.IGNORECASE)
_WORD_JOINER = "\u2060"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Names Windows refuses for a file, whatever its extension.
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
)


def csv_cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as the text it is, never runs as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_row(values: list[str]) -> list[str]:
    """Every cell of a row made inert (see csv_cell)."""
    return [csv_cell(v) for v in values]


def plain_text(value: str, keep_newlines: bool = True) -> str:
    """Text without control characters or bidirectional overrides (they break the target's parser or
    hide text); newlines kept where the target shows them."""
    return "".join(
        ch for ch in value if (ch == "\n" and keep_newlines) or (unicodedata.category(ch) != "Cc" and ch not in _BIDI)
    )


def tts_text(value: str, keep_newlines: bool = True) -> str:
    """A Tabletop Simulator name or description that shows as typed: no control characters, no live
    rich-text tag."""
    return _TTS_TAG.sub("[" + _WORD_JOINER, plain_text(value, keep_newlines))


def file_stem(value: str, fallback: str = "file") -> str:
    """A file name stem safe on every system: ASCII letters, digits, dot, dash and underscore, never
    empty, never a dot name (`.`, `..`, hidden), at most 100 characters."""
    stem = _UNSAFE_NAME.sub("-", unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode())
    stem = stem.strip(".-")[:100] or fallback
    return "_" + stem if stem.split(".")[0].lower() in _RESERVED else stem
