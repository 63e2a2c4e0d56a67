"""Designer text made inert for the program an export targets: spreadsheets (the one CSV writer,
`csv_bytes`: formula injection, line breaks) and Tabletop Simulator labels (its rich-text tags). File
names are `filenames.py`'s."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

# OWASP's rule for CSV injection: a cell a spreadsheet would read as a formula starts with one of
# these; a leading apostrophe makes every spreadsheet show it as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Tabletop Simulator reads BBCode-like tags in names and descriptions ([b], [i], [u], [s], [sub],
# [sup], [-], [RRGGBB], [url=…]); a word joiner after the bracket shows them as typed.
_TTS_TAG = re.compile(r"\[(?=/?(?:[biu]|s|sub|sup|url[^\]]*|-|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\])", re.IGNORECASE)
_WORD_JOINER = "\u2060"
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_QUOTED = frozenset(',"\r\n\t')  # a cell holding one of these is quoted: it stays one cell of one row


# What no text may hold: control characters but tab, line feed and carriage return (XML 1.0, which
# templates are, refuses the C0 ones; the others are invisible in print), lone surrogates and the
# two non-characters. `control_problem` says where; the loaders refuse it at the value's line.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed", 0x1B: "ESC"}
CONTROL_RULE = "text.control"


def control_at(text: str) -> int | None:
    """Where the first character no text may hold is in `text`, or None."""
    m = _CONTROL.search(text)
    return None if m is None else m.start()


def without_control(text: str) -> str:
    """The text without the characters no text may hold (once refused at their line, so that nothing
    after the refusal trips on them)."""
    return _CONTROL.sub("", text)


def control_problem(text: str) -> str | None:
    """What is wrong with a text holding a character no text may hold (the first such), or None."""
    m = _CONTROL.search(text)
    if m is None:
        return None
    code = ord(m.group())
    what = _CONTROL_NAMES.get(code, "a control character" if code < 0xD800 else "not a character")
    before = text[: m.start()][-20:]
    where = f"after {before!r}" if before else "at its start"
    return (
        f"the text holds U+{code:04X} ({what}) {where}: no text may hold control characters but tab "
        "and line breaks; delete it (it is invisible in most editors)"
    )


def csv_cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as the text it is, never runs as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_bytes(rows: Iterable[Sequence[str | int]]) -> bytes:
    """The one CSV writer: UTF-8 with a byte order mark (without it Excel reads the file in the
    system's code page, and `Ojo del vigía` shows as `vigÃ­a`), comma-separated, one line per row
    ending in LF; every cell made inert (csv_cell) and quoted when it holds a comma, a quote, a CR, an
    LF or a tab (Python's csv module leaves a CR bare, so a reader would start a new row at it)."""
    lines = []
    for row in rows:
        cells = [csv_cell(str(v)) for v in row]
        lines.append(",".join('"' + c.replace('"', '""') + '"' if _QUOTED.intersection(c) else c for c in cells))
    return "".join(line + "\n" for line in lines).encode("utf-8-sig")


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
