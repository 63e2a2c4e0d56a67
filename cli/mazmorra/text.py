"""Card text as written: inline icon tokens, **bold** and *italic*, paragraphs and their alignment.

Content text is never markup: it is split into our own tokens ({icon:N}, {icon=N}, **bold**,
*italic*, line breaks, blank lines between paragraphs, {center} at a paragraph's start), so no user
character can reach a markup parser. Validation and localisation read the tokens; the layout stage
fits the parts this module splits a text into (layout/fit.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# {name}, {name:N} or {icon:name:N} (icon, then N beside it); {name=N} (N drawn inside the icon)
TOKEN = re.compile(r"\{([a-z][a-z0-9_-]*)(?:=([+-]?\d{1,3}|[A-Za-z])|(?::([a-z0-9_-]+))?(?::([+-]?\d+|[A-Za-z]))?)\}")
EMPHASIS = re.compile(r"(\*\*|\*)")
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a blank line
BREAKING_SPACE = re.compile(r"[^\S\u00a0\u2007\u202f]+")  # whitespace a line may break at: never a no-break space
ALIGNMENTS = ("left", "center", "right")  # `{center}` opening a paragraph aligns it: reserved words, not icons
_ALIGN_MARK = re.compile(r"^\s*\{(left|center|right)\}[ \t]*")


@dataclass(frozen=True)
class TextPart:
    text: str
    bold: bool
    italic: bool = False


@dataclass(frozen=True)
class IconPart:
    name: str
    number: str | None
    inside: bool = False  # the number is drawn inside the icon (a coin with 3 in it)


Part = TextPart | IconPart


@dataclass(frozen=True)
class Block:
    """A paragraph: its hard lines (each a list of unbreakable chunks of parts) and its alignment."""

    lines: list[list[list[Part]]]
    align: str | None = None  # None: the text box's alignment


def parse_token(m: re.Match[str]) -> IconPart:
    if m.group(2) is not None:
        return IconPart(m.group(1), m.group(2), inside=True)
    a, b, c = m.group(1), m.group(3), m.group(4)
    if a == "icon" and b:
        return IconPart(b, c)
    if c is not None:  # {a:N} (a letter: the regex reads it as the third group), or {a:b:c} with a != icon
        return IconPart(a, c if b is None else f"{b}:{c}")
    return IconPart(a, b)


def icon_tokens(text: str) -> list[IconPart]:
    """The icon tokens of a text, in order (a paragraph's alignment word is not an icon)."""
    return [t for t in (parse_token(m) for m in TOKEN.finditer(text)) if not _is_alignment(t)]


def _is_alignment(part: IconPart) -> bool:
    return part.name in ALIGNMENTS and part.number is None


def token_signature(text: str) -> list[str]:
    """Sorted icon tokens and bold/italic markers: what a translation must keep."""
    sig = [m.group(0) for m in TOKEN.finditer(text)]
    sig += EMPHASIS.findall(TOKEN.sub("", text))
    return sorted(sig)


def split_blocks(text: str) -> list[Block]:
    """text -> paragraphs (separated by blank lines, each maybe opening with {center}/{right}/{left})."""
    blocks = []
    state = (False, False)  # bold, italic: a run may go on across lines and paragraphs
    for para in PARAGRAPH_BREAK.split(text.strip("\n")):
        m = _ALIGN_MARK.match(para)
        lines, state = _split_lines(para[m.end() :] if m else para, state)
        blocks.append(Block(lines, m.group(1) if m else None))
    return blocks


def split_paragraphs(text: str) -> list[list[list[Part]]]:
    """text -> lines -> chunks (unbreakable at spaces) -> parts (one paragraph's hard lines)."""
    return _split_lines(text, (False, False))[0]


def _split_lines(text: str, state: tuple[bool, bool]) -> tuple[list[list[list[Part]]], tuple[bool, bool]]:
    paragraphs: list[list[list[Part]]] = []
    for para in text.split("\n"):
        chunks: list[list[Part]] = []
        for raw in BREAKING_SPACE.split(para):
            if not raw:
                continue
            parts: list[Part] = []
            pos = 0
            for m in TOKEN.finditer(raw):
                state = _add_text(parts, raw[pos : m.start()], state)
                parts.append(parse_token(m))
                pos = m.end()
            state = _add_text(parts, raw[pos:], state)
            if parts:
                chunks.append(parts)
        paragraphs.append(chunks)
    return paragraphs, state


def _add_text(parts: list[Part], s: str, state: tuple[bool, bool]) -> tuple[bool, bool]:
    """Text of one chunk (no spaces) into parts; `**` toggles bold, `*` italic. A `*` opens italics
    only when text follows it and closes only open italics, so `7 * 7` or `5*` keep their star."""
    bold, italic = state
    if "*" not in s:  # most text: no markers
        if s:
            parts.append(TextPart(s, bold, italic))
        return state
    pieces = EMPHASIS.split(s)
    for i, piece in enumerate(pieces):
        if piece == "**":
            bold = not bold
        elif piece == "*" and (italic or any(pieces[i + 1 :])):
            italic = not italic
        elif piece:
            if parts and isinstance(parts[-1], TextPart) and parts[-1].bold == bold and parts[-1].italic == italic:
                parts[-1] = TextPart(parts[-1].text + piece, bold, italic)  # a literal star joins its word
            else:
                parts.append(TextPart(piece, bold, italic))
    return bold, italic
