"""Card text: inline icon tokens, **bold** and *italic*, paragraphs, hyphenation and shrink-to-fit.

Content text is never markup: it is split into our own tokens ({icon:N}, {icon=N}, **bold**,
*italic*, line breaks, blank lines between paragraphs, {center} at a paragraph's start) and laid
out here word by word, so no user character can reach a markup parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

import pyphen

from mazmorra import fonts

# {name}, {name:N} or {icon:name:N} (icon, then N beside it); {name=N} (N drawn inside the icon)
TOKEN = re.compile(r"\{([a-z][a-z0-9_-]*)(?:=([+-]?\d{1,3}|[A-Za-z])|(?::([a-z0-9_-]+))?(?::([+-]?\d+|[A-Za-z]))?)\}")
EMPHASIS = re.compile(r"(\*\*|\*)")
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a blank line
BREAKING_SPACE = re.compile(r"[^\S\u00a0\u2007\u202f]+")  # whitespace a line may break at: never a no-break space
ALIGNMENTS = ("left", "center", "right")  # `{center}` opening a paragraph aligns it: reserved words, not icons
_ALIGN_MARK = re.compile(r"^\s*\{(left|center|right)\}[ \t]*")
PLUS_ICONS = frozenset({"stealth", "alert"})  # their number reads "+N"
ICON_SCALE = 1.15  # icon height relative to the font size
INSIDE_SCALE = 1.3  # an icon with its number inside is drawn larger, so the number stays legible
INSIDE_NUMBER = 0.62  # the number's size relative to the icon
HYPHEN = "-"


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


@dataclass(frozen=True)
class Style:
    font: str = fonts.DEFAULT
    bold_font: str = "sans-bold"
    color: str = "#222222"
    leading: float = 1.18
    align: str = "left"  # left | center | right
    valign: str = "top"  # top | middle | bottom
    italic_font: str = "sans-italic"
    bold_italic_font: str = "sans-bold-italic"
    paragraph_spacing: float = 0.5  # extra space between paragraphs, in lines
    inside_color: str = "#222222"  # a number drawn inside its icon

    def face(self, bold: bool, italic: bool = False) -> str:
        """The font a run of text is drawn in."""
        if italic:
            return self.bold_italic_font if bold else self.italic_font
        return self.bold_font if bold else self.font


@dataclass(frozen=True)
class Placed:
    """A part placed on a line: x offset in pt from the line start."""

    x: float
    part: Part
    width: float


@dataclass(frozen=True)
class Line:
    items: tuple[Placed, ...]
    width: float
    align: str | None = None  # its paragraph's own alignment (None: the box's)
    gap_before: float = 0.0  # pt of paragraph spacing above it


@dataclass(frozen=True)
class Fitted:
    size: float  # pt
    lines: tuple[Line, ...]
    height: float  # pt
    fits: bool
    overflow: float  # pt beyond the box (height or width), 0 when it fits


def part_width(part: Part, style: Style, size: float) -> float:
    if isinstance(part, IconPart):
        if part.inside:
            return size * INSIDE_SCALE
        w = size * ICON_SCALE
        if part.number is not None:
            w += size * 0.1 + fonts.width(number_label(part), style.bold_font, size)
        return w
    font = style.face(part.bold, part.italic) if part.bold or part.italic else style.font
    return fonts.width(part.text, font, size)


def number_label(part: IconPart) -> str:
    n = part.number or ""
    if part.name in PLUS_ICONS and n and n[0] not in "+-":
        return "+" + n
    return n


@lru_cache(maxsize=8)
def _hyphenator(lang: str) -> pyphen.Pyphen | None:
    for cand in (lang, lang.split("_")[0]):
        if cand in pyphen.LANGUAGES:
            return pyphen.Pyphen(lang=cand)
    return None


@lru_cache(maxsize=20000)
def _splits(word: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Ways to break `word` across two lines, longest first: (what ends the line, what starts the
    next). Punctuation around the word stays with it; a word that has a hyphen breaks only there."""
    core = word.strip(_PUNCT)
    if not core:
        return ()
    start = word.index(core)
    prefix, suffix = word[:start], word[start + len(core) :]
    if "-" in core:
        parts = core.split("-")
        return tuple(
            (prefix + "-".join(parts[:i]) + "-", "-".join(parts[i:]) + suffix)
            for i in range(len(parts) - 1, 0, -1)
            if parts[i - 1] and parts[i]
        )
    hy = _hyphenator(lang)
    if hy is None or len(core) < 5 or not core.isalpha():
        return ()
    return tuple((prefix + left + HYPHEN, right + suffix) for left, right in hy.iterate(core))


_PUNCT = "\"'«»“”‘’()[]¿?¡!.,;:…—–-/*"


def layout(
    paragraphs: list[list[list[Part]]],
    width: float,
    style: Style,
    size: float,
    lang: str,
    units: list[list[list[float]]] | None = None,
) -> tuple[list[Line], float]:
    """Greedy line breaking with hyphenation; returns lines and the widest line width (pt).

    `units` holds each part's width at 1 pt (widths scale linearly with size), so fitting at
    several sizes measures every word once.
    """
    if units is None:
        units = unit_widths(paragraphs, style)
    space = fonts.width(" ", style.font, size)
    lines: list[Line] = []
    widest = 0.0
    limit = width + 1e-6
    for chunks, chunk_units in zip(paragraphs, units):
        cur: list[Placed] = []
        x = 0.0
        i = 0
        pending: list[Part] | None = None  # the rest of a hyphenated chunk
        while i < len(chunks) or pending is not None:
            if pending is not None:
                chunk, widths = pending, [part_width(p, style, size) for p in pending]
                pending = None
            else:
                chunk, widths = chunks[i], [u * size for u in chunk_units[i]]
                i += 1
            w = sum(widths)
            gap = space if cur else 0.0
            if x + gap + w <= limit:
                x += gap
                for p, pw in zip(chunk, widths):
                    cur.append(Placed(x, p, pw))
                    x += pw
                continue
            first = chunk[0]
            # Hyphenate only when the line would otherwise end more than a fifth short.
            if isinstance(first, TextPart) and width - x > width * 0.2:
                font = style.face(first.bold, first.italic)
                for left, right in _splits(first.text, lang):
                    lw = fonts.width(left, font, size)
                    if x + gap + lw <= limit:
                        x += gap
                        cur.append(Placed(x, TextPart(left, first.bold, first.italic), lw))
                        x += lw
                        chunk = [TextPart(right, first.bold, first.italic), *chunk[1:]]
                        widths = [part_width(p, style, size) for p in chunk]
                        break
            if cur:
                lines.append(Line(tuple(cur), x))
                widest = max(widest, x)
                cur, x = [], 0.0
                pending = chunk
                continue
            # A chunk alone wider than the line: place it anyway (reported as overflow).
            for p, pw in zip(chunk, widths):
                cur.append(Placed(x, p, pw))
                x += pw
        lines.append(Line(tuple(cur), x))
        widest = max(widest, x)
    return lines, widest


def unit_widths(paragraphs: list[list[list[Part]]], style: Style) -> list[list[list[float]]]:
    return [[[part_width(p, style, 1.0) for p in chunk] for chunk in chunks] for chunks in paragraphs]


def fit(
    text: str,
    width: float,
    height: float,
    style: Style,
    size: float,
    min_size: float,
    lang: str,
    step: float = 0.25,
) -> Fitted:
    """The largest size in [min_size, size] (by step) at which text fits width × height (pt).
    Paragraphs are broken one by one (each keeps its alignment) and stacked with their spacing."""
    blocks = split_blocks(text)
    units = [unit_widths(b.lines, style) for b in blocks]

    def attempt(s: float) -> Fitted:
        lines: list[Line] = []
        widest = 0.0
        for i, (block, block_units) in enumerate(zip(blocks, units)):
            broken, w = layout(block.lines, width, style, s, lang, block_units)
            if i == 0 and block.align is None:  # the common case: one paragraph, the box's alignment
                lines += broken
            else:
                gap = s * style.leading * style.paragraph_spacing if i else 0.0
                lines += [
                    replace(ln, align=block.align, gap_before=gap if k == 0 else 0.0) for k, ln in enumerate(broken)
                ]
            widest = max(widest, w)
        h = len(lines) * s * style.leading + sum(ln.gap_before for ln in lines)
        over = max(h - height, widest - width, 0.0)
        return Fitted(s, tuple(lines), h, over <= 1e-6, over)

    best = attempt(size)
    if best.fits or min_size >= size:
        return best
    hi = round((size - min_size) / step)  # shrink steps down to min_size
    # Start near the size at which the text's area fills the box, then walk to the exact step.
    area = sum(u for block in units for chunks in block for chunk in chunks for u in chunk) * style.leading
    est = (width * height / area) ** 0.5 if area > 0 and width > 0 and height > 0 else min_size
    k = min(hi, max(1, round((size - est) / step)))
    f = attempt(size - k * step)
    if f.fits:
        while k > 1:  # grow while it still fits
            g = attempt(size - (k - 1) * step)
            if not g.fits:
                break
            f, k = g, k - 1
        return f
    while k < hi:  # shrink until it fits
        k += 1
        f = attempt(size - k * step)
        if f.fits:
            return f
    return f
