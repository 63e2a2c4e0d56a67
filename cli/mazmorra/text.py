"""Card text: inline icon tokens, **bold**, hyphenation and shrink-to-fit.

Content text is never markup: it is split into our own tokens ({icon:N}, **bold**, line breaks)
and laid out here word by word, so no user character can reach a markup parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pyphen

from mazmorra import fonts

TOKEN = re.compile(r"\{([a-z][a-z0-9_-]*)(?::([a-z0-9_-]+))?(?::([+-]?\d+|[A-Za-z]))?\}")
PLUS_ICONS = frozenset({"stealth", "alert"})  # their number reads "+N"
ICON_SCALE = 1.15  # icon height relative to the font size
HYPHEN = "-"


@dataclass(frozen=True)
class TextPart:
    text: str
    bold: bool


@dataclass(frozen=True)
class IconPart:
    name: str
    number: str | None


Part = TextPart | IconPart


def parse_token(m: re.Match[str]) -> IconPart:
    a, b, c = m.group(1), m.group(2), m.group(3)
    if a == "icon" and b:
        return IconPart(b, c)
    if c is not None:  # {a:N} (a letter: the regex reads it as the third group), or {a:b:c} with a != icon
        return IconPart(a, c if b is None else f"{b}:{c}")
    return IconPart(a, b)


def icon_tokens(text: str) -> list[IconPart]:
    """The icon tokens of a text, in order."""
    return [parse_token(m) for m in TOKEN.finditer(text)]


def token_signature(text: str) -> list[str]:
    """Sorted icon tokens and bold markers: what a translation must keep."""
    sig = [m.group(0) for m in TOKEN.finditer(text)]
    sig += ["**"] * text.count("**")
    return sorted(sig)


def split_paragraphs(text: str) -> list[list[list[Part]]]:
    """text -> paragraphs -> chunks (unbreakable at spaces) -> parts."""
    paragraphs: list[list[list[Part]]] = []
    bold = False
    for para in text.split("\n"):
        chunks: list[list[Part]] = []
        for raw in para.split():
            parts: list[Part] = []
            pos = 0
            for m in TOKEN.finditer(raw):
                bold = _add_text(parts, raw[pos : m.start()], bold)
                parts.append(parse_token(m))
                pos = m.end()
            bold = _add_text(parts, raw[pos:], bold)
            if parts:
                chunks.append(parts)
        paragraphs.append(chunks)
    return paragraphs


def _add_text(parts: list[Part], s: str, bold: bool) -> bool:
    pieces = s.split("**")
    for i, piece in enumerate(pieces):
        if i:
            bold = not bold
        if piece:
            parts.append(TextPart(piece, bold))
    return bold


@dataclass(frozen=True)
class Style:
    font: str = fonts.DEFAULT
    bold_font: str = "sans-bold"
    color: str = "#222222"
    leading: float = 1.18
    align: str = "left"  # left | center | right
    valign: str = "top"  # top | middle | bottom


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


@dataclass(frozen=True)
class Fitted:
    size: float  # pt
    lines: tuple[Line, ...]
    height: float  # pt
    fits: bool
    overflow: float  # pt beyond the box (height or width), 0 when it fits


def part_width(part: Part, style: Style, size: float) -> float:
    if isinstance(part, IconPart):
        w = size * ICON_SCALE
        if part.number is not None:
            w += size * 0.1 + fonts.width(number_label(part), style.bold_font, size)
        return w
    return fonts.width(part.text, style.bold_font if part.bold else style.font, size)


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
                font = style.bold_font if first.bold else style.font
                for left, right in _splits(first.text, lang):
                    lw = fonts.width(left, font, size)
                    if x + gap + lw <= limit:
                        x += gap
                        cur.append(Placed(x, TextPart(left, first.bold), lw))
                        x += lw
                        chunk = [TextPart(right, first.bold), *chunk[1:]]
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
    """The largest size in [min_size, size] (by step) at which text fits width × height (pt)."""
    paragraphs = split_paragraphs(text)
    units = unit_widths(paragraphs, style)

    def attempt(s: float) -> Fitted:
        lines, widest = layout(paragraphs, width, style, s, lang, units)
        h = len(lines) * s * style.leading
        over = max(h - height, widest - width, 0.0)
        return Fitted(s, tuple(lines), h, over <= 1e-6, over)

    best = attempt(size)
    if best.fits or min_size >= size:
        return best
    hi = round((size - min_size) / step)  # shrink steps down to min_size
    # Start near the size at which the text's area fills the box, then walk to the exact step.
    area = sum(u for chunks in units for chunk in chunks for u in chunk) * style.leading
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
