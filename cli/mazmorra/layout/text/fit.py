"""The text-fitting engine of the layout stage: a card text's parts (model/cardtext.py) cut where a line may
break without a space (segment.py: UAX #14, BudouX phrases), measured, broken into lines
(linebreak.py, hyphenating where it helps) and shrunk step by step until they fit their box, or
set inside a circular box's ellipse."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

from mazmorra.assets import fonts
from mazmorra.layout.text.linebreak import HYPHEN, SHORT, optimal_breaks, word_splits
from mazmorra.layout.text.segment import held, inner_breaks, maybe_wide, phrased, segments
from mazmorra.model.cardtext import Block, IconPart, Part, TextPart, parse
from mazmorra.support.reuse import kept_when_asked_again

Joins = list[tuple[bool, ...]]  # per hard line, per chunk: it follows the chunk before without a space (() none)

PLUS_ICONS = frozenset({"stealth", "alert"})  # their number reads "+N"
ICON_SCALE = 1.15  # icon height relative to the font size
INSIDE_SCALE = 1.3  # an icon with its number inside is drawn larger, so the number stays legible
INSIDE_NUMBER = 0.62  # the number's size relative to the icon


@dataclass(frozen=True)
class Style:
    font: str = fonts.DEFAULT
    bold_font: str = "sans-bold"
    color: str = "#222222"
    leading: float = 1.18
    align: str = "left"  # left | center | right | justify
    valign: str = "top"  # top | middle | bottom
    italic_font: str = "sans-italic"
    bold_italic_font: str = "sans-bold-italic"
    paragraph_spacing: float = 0.5  # extra space between paragraphs, in lines
    inside_color: str = "#222222"  # a number drawn inside its icon
    spacing: float = 0.0  # letter-spacing, em: added after every character (and space)
    # [font=NAME] spans: each name's regular, bold, italic and bold-italic faces (resolved by the text box)
    span_fonts: tuple[tuple[str, tuple[str, str, str, str]], ...] = ()

    def face(self, bold: bool, italic: bool = False) -> str:
        """The font a run of text is drawn in."""
        if italic:
            return self.bold_italic_font if bold else self.italic_font
        return self.bold_font if bold else self.font

    def part_font(self, part: TextPart) -> str:
        """The font a part is drawn in: its span's font (in its weight and slant), else the box's."""
        if part.span is not None and part.span.font is not None:
            for name, (regular, bold, italic, bold_italic) in self.span_fonts:
                if name == part.span.font:
                    return (bold_italic if part.bold else italic) if part.italic else (bold if part.bold else regular)
        return self.face(part.bold, part.italic) if part.bold or part.italic else self.font


class Placed(NamedTuple):
    """A part placed on a line: x offset in pt from the line start. A named tuple: every word of every
    block is one, made in half a frozen dataclass's time."""

    x: float
    part: Part
    width: float


@dataclass(frozen=True)
class Line:
    items: tuple[Placed, ...]
    width: float
    align: str | None = None  # its paragraph's own alignment (None: the box's)
    gap_before: float = 0.0  # pt of paragraph spacing above it
    last: bool = False  # the last line of its hard line (never stretched when justified)


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
    if part.span is not None:
        size *= part.span.size
    return fonts.width(part.text, style.part_font(part), size) + style.spacing * size * len(part.text)


def number_label(part: IconPart) -> str:
    n = part.number or ""
    if part.name in PLUS_ICONS and n and n[0] not in "+-":
        return "+" + n
    return n


@lru_cache(maxsize=20000)
def split_points(chunk: tuple[Part, ...], lang: str) -> tuple[tuple[int, int, bool], ...]:
    """Where a chunk can be hyphenated, in reading order: (its text run, the character the next line
    starts at, whether the line ending there gets a hyphen; a word's own hyphen stays where it is).
    A Japanese or Chinese phrase is never hyphenated: it splits where UAX #14 allows, hyphen-less."""
    if phrased(lang):
        return tuple(sorted((m, k, False) for m, k in inner_breaks(chunk)))
    out = []
    for m, part in enumerate(chunk):
        if isinstance(part, TextPart):
            for left, right in word_splits(part.text, lang):
                own = left + right == part.text
                out.append((m, len(left) if own else len(left) - len(HYPHEN), not own))
    return tuple(sorted(out))


@kept_when_asked_again(maxsize=4096, remembered=4096)  # a build fits each text once; the preview, at every edit
def breakable(text: str, lang: str) -> tuple[list[Block], list[Joins]]:
    """A text's paragraphs (its parsed blocks, model/cardtext.py) with each chunk cut where a line may break inside it
    (layout/text/segment.py), and which pieces follow the one before without a space."""
    whole = not phrased(lang) and not maybe_wide(text)  # all Latin, Greek, Cyrillic…: no chunk is cut
    blocks, joins = [], []
    for block in parse(text).blocks():
        lines: list[list[list[Part]]] = []
        block_joins: Joins = []
        for chunks in block.lines:
            chunks = held(chunks)
            if whole:
                lines.append(chunks)
                block_joins.append(())
                continue
            pieces: list[list[Part]] = []
            glued: list[bool] = []
            for chunk in chunks:
                for k, seg in enumerate(segments(tuple(chunk), lang)):
                    pieces.append(list(seg))
                    glued.append(k > 0)
            lines.append(pieces)
            block_joins.append(tuple(glued))
        blocks.append(Block(lines, block.align))
        joins.append(block_joins)
    return blocks, joins


@lru_cache(maxsize=50000)
def piece(chunk: tuple[Part, ...], lang: str, style: Style, a: int, b: int) -> tuple[tuple[Part, ...], float]:
    """A chunk from its split point a to point b (0: its start, len(points) + 1: its end), with the
    hyphen that ends a line at b; and its width at 1 pt."""
    pts = split_points(chunk, lang)
    m0, lo0 = (0, 0) if a == 0 else pts[a - 1][:2]
    m1, hi1, hyphen = (len(chunk) - 1, -1, False) if b > len(pts) else pts[b - 1]
    parts: list[Part] = []
    for m in range(m0, m1 + 1):
        p = chunk[m]
        if not isinstance(p, TextPart):
            parts.append(p)
            continue
        lo = lo0 if m == m0 else 0
        hi = hi1 if m == m1 and hi1 >= 0 else len(p.text)
        text = p.text[lo:hi] + (HYPHEN if m == m1 and hyphen else "")
        if text:
            parts.append(replace(p, text=text))
    return tuple(parts), sum(part_width(p, style, 1.0) for p in parts)


def layout(
    paragraphs: list[list[list[Part]]],
    width: float | Callable[[int], float],
    style: Style,
    size: float,
    lang: str,
    units: list[list[list[float]]] | None = None,
    hyphenate: bool = True,
    balance: bool = False,
    joins: Joins | None = None,
    inside_phrases: bool = False,
) -> tuple[list[Line], float]:
    """Each hard line broken into lines of at most `width` pt (or `width(n)` for the n-th line of
    the paragraph), the whole paragraph at once (linebreak.optimal_breaks); returns the lines and
    the widest line's width (pt).

    `units` holds each part's width at 1 pt (widths scale linearly with size), so fitting at
    several sizes measures every word once. `balance` evens the last line too (centred text).
    `joins` says which chunks follow the one before without a space (breakable.joins).
    `inside_phrases`: a Japanese or Chinese line may end inside a phrase wherever UAX #14 allows,
    not only where a phrase is wider than the line (what fitting does before shrinking the text).
    """
    if units is None:
        units = unit_widths(paragraphs, style)
    space = space_width(style, size)
    lines: list[Line] = []
    widest = 0.0
    for row, (chunks, chunk_units) in enumerate(zip(paragraphs, units)):
        keys = [tuple(c) for c in chunks] if hyphenate else []
        glued = joins[row] if joins is not None else ()
        gaps: float | list[float] = [0.0 if g else space for g in glued] if any(glued) else space

        def points(j: int, keys: list[tuple[Part, ...]] = keys) -> int:
            return len(split_points(keys[j], lang))

        def cut(j: int, a: int, b: int, keys: list[tuple[Part, ...]] = keys) -> float:
            return piece(keys[j], lang, style, a, b)[1] * size

        widths = [sum(u) * size for u in chunk_units]
        breaks = optimal_breaks(
            widths,
            gaps,
            width,
            points if hyphenate else None,
            cut,
            balance,
            short_splits=inside_phrases or not phrased(lang),
            empty=0.0 if inside_phrases else SHORT,
        )
        for (i, a), (j, b) in breaks:
            cur: list[Placed] = []
            x = 0.0
            for n, c in enumerate(range(i, j + 1 if b else j)):
                if n:
                    x += space if isinstance(gaps, float) else gaps[c]
                if (c == i and a) or (c == j and b):  # a hyphenated chunk's piece
                    for p in piece(keys[c], lang, style, a if c == i else 0, b if c == j else 10**6)[0]:
                        pw = part_width(p, style, size)
                        cur.append(Placed(x, p, pw))
                        x += pw
                    continue
                for p, u in zip(chunks[c], chunk_units[c]):
                    pw = u * size
                    cur.append(Placed(x, p, pw))
                    x += pw
            lines.append(Line(tuple(cur), x))
            widest = max(widest, x)
        if lines:  # built whole: dataclasses.replace costs more than the line
            end = lines[-1]
            lines[-1] = Line(end.items, end.width, end.align, end.gap_before, True)
    return lines, widest


def space_width(style: Style, size: float) -> float:
    """The width (pt) of a space between words, letter-spacing included."""
    return fonts.width(" ", style.font, size) + style.spacing * size


def unit_widths(paragraphs: list[list[list[Part]]], style: Style) -> list[list[list[float]]]:
    """Each part's width at 1 pt, as `part_width` gives it: a plain word (no span, no letter-spacing)
    measured straight in its face, every word of every text passing here."""
    if style.spacing:
        return [[[part_width(p, style, 1.0) for p in chunk] for chunk in chunks] for chunks in paragraphs]
    unit, faces = (
        fonts.unit_width,
        {
            (False, False): style.font,
            (True, False): style.bold_font,
            (False, True): style.italic_font,
            (True, True): style.bold_italic_font,
        },
    )
    return [
        [
            [
                unit(p.text, faces[p.bold, p.italic])
                if type(p) is TextPart and p.span is None
                else part_width(p, style, 1.0)
                for p in chunk
            ]
            for chunk in chunks
        ]
        for chunks in paragraphs
    ]


def fit(
    text: str,
    width: float,
    height: float,
    style: Style,
    size: float,
    min_size: float,
    lang: str,
    step: float = 0.25,
    heading: bool = False,
    round_box: bool = False,
) -> Fitted:
    """The largest size in [min_size, size] (by step) at which text fits width × height (pt).
    Paragraphs are broken one by one (each keeps its alignment) and stacked with their spacing.

    A `heading` (a title or a label) is never hyphenated: it shrinks on one line first, and breaks
    at spaces only when even `min_size` is too large for one line. A `round_box` sets the text
    inside the ellipse the box holds (a circular token's rules): each line as wide as the ellipse is
    where the line, centred in the box, stands.

    Japanese and Chinese lines end between phrases; a text that does not fit so at its design size
    may end a line inside a phrase (where UAX #14 allows, as any CJK typesetting does) before it
    shrinks: a smaller size is the worse of the two, and Weblate's max-size, which breaks there,
    then agrees with the box (bench/README.md, Weblate)."""
    blocks, joins = breakable(text, lang)
    units = [unit_widths(b.lines, style) for b in blocks]

    def attempt(s: float, inside_phrases: bool = False) -> Fitted:
        if round_box:
            return _round_attempt(blocks, units, width, height, style, s, lang, not heading, joins)
        lines: list[Line] = []
        widest = 0.0
        for i, (block, block_units) in enumerate(zip(blocks, units)):
            balance = (block.align or style.align) == "center"
            broken, w = layout(
                block.lines, width, style, s, lang, block_units, not heading, balance, joins[i], inside_phrases
            )
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

    hi = math.ceil((size - min_size) / step - 1e-9) if min_size < size else 0  # shrink steps down to min_size

    def at(k: int) -> float:  # the k-th step down; the last one is min_size itself, on the step grid or not
        return max(size - k * step, min_size)

    if heading:  # one line per hard line, at the largest size that allows it
        one = _one_line_size(blocks, units, width, height, style, joins)
        k = max(0, math.ceil((size - one) / step - 1e-9))
        if k <= hi:
            f = attempt(at(k))
            if f.fits:
                return f
    best = attempt(size)
    if not best.fits and not heading and not round_box and phrased(lang):
        inside = attempt(size, inside_phrases=True)
        best = inside if inside.fits else best
    if best.fits or hi == 0:
        return best
    # Start near the size at which the text's area fills the box, then walk to the exact step.
    area = sum(u for block in units for chunks in block for chunk in chunks for u in chunk) * style.leading
    est = (width * height / area) ** 0.5 if area > 0 and width > 0 and height > 0 else min_size
    k = min(hi, max(1, round((size - est) / step)))
    f = attempt(at(k))
    if f.fits:
        while k > 1:  # grow while it still fits
            g = attempt(at(k - 1))
            if not g.fits:
                break
            f, k = g, k - 1
        return f
    while k < hi:  # shrink until it fits
        k += 1
        f = attempt(at(k))
        if f.fits:
            return f
    return f


def _one_line_size(
    blocks: list[Block],
    units: list[list[list[list[float]]]],
    width: float,
    height: float,
    style: Style,
    joins: list[Joins],
) -> float:
    """The largest size (pt) at which every hard line of the text fits the box on one line."""
    space = space_width(style, 1.0)
    widest = max(
        (
            sum(map(sum, line)) + space * (max(0, len(line) - 1) - sum(glued))
            for block, block_joins in zip(units, joins)
            for line, glued in zip(block, block_joins)
        ),
        default=0.0,
    )
    lines = sum(len(b.lines) for b in blocks)
    tall = lines * style.leading + (len(blocks) - 1) * style.leading * style.paragraph_spacing
    return min(width / widest if widest > 0 else math.inf, height / tall if tall > 0 else math.inf)


def _round_attempt(
    blocks: list[Block],
    units: list[list[list[list[float]]]],
    width: float,
    height: float,
    style: Style,
    s: float,
    lang: str,
    hyphenate: bool,
    joins: list[Joins],
) -> Fitted:
    """One size of a text set inside the box's ellipse, centred: guess how many lines, give each
    line the chord of the ellipse at its height, break, and try again with the count it took."""
    step = s * style.leading
    count = 1
    lines: list[Line] = []
    for _ in range(6):
        chords = _chords(count, step, width, height)
        lines = []
        for i, (block, block_units) in enumerate(zip(blocks, units)):

            def chord(k: int, done: int = len(lines), chords: list[float] = chords) -> float:
                return chords[min(done + k, len(chords) - 1)]

            broken, _ = layout(block.lines, chord, style, s, lang, block_units, hyphenate, True, joins[i])
            gap = s * style.leading * style.paragraph_spacing if i else 0.0
            lines += [replace(ln, gap_before=gap if k == 0 else 0.0) for k, ln in enumerate(broken)]
        if len(lines) == count:
            break
        count = len(lines)
    h = len(lines) * step + sum(ln.gap_before for ln in lines)
    chords = _chords(len(lines), step, width, height, sum(ln.gap_before for ln in lines))
    over = max([h - height, *(ln.width - c for ln, c in zip(lines, chords)), 0.0])
    return Fitted(s, tuple(replace(ln, align="center") for ln in lines), h, over <= 1e-6, over)


def _chords(n: int, step: float, width: float, height: float, gaps: float = 0.0) -> list[float]:
    """The width of the box's ellipse across each of n lines `step` pt tall, centred in the box."""
    a, b = width / 2, height / 2
    top = (height - n * step - gaps) / 2 - b  # relative to the ellipse's centre
    out = []
    for k in range(n):
        far = max(abs(top + k * step), abs(top + (k + 1) * step))
        out.append(2 * a * math.sqrt(max(0.0, 1 - (far / b) ** 2)) if far < b else 0.0)
    return out
