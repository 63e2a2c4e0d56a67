"""The <text> element: a box of card text fitted to its frame (shrunk down to min-size), with
inline icons, bold and italic runs and paragraphs, laid out once per distinct text, box and place
(its ops made where they are drawn); optionally over a filled, rounded frame."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise

from mazmorra.assets import fonts
from mazmorra.contracts import IconOp, Op, TextBox, TextOp
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.layout.elements.attrs import AT, FaceContext
from mazmorra.layout.text import textattrs
from mazmorra.layout.text.ellipsis import cut_warning, ellipsized
from mazmorra.layout.text.fit import INSIDE_NUMBER, INSIDE_SCALE, Line, Placed, Style, fit, number_label, part_width
from mazmorra.layout.text.labelbox import printed_labels
from mazmorra.layout.text.segment import SPACE
from mazmorra.model.cardtext import ALIGNMENTS, PARAGRAPH_BREAK, IconPart, Span, TextPart, parse, size_ratio
from mazmorra.model.colour import parse as parse_colour
from mazmorra.model.colour import with_alpha
from mazmorra.model.units import PT_PER_MM

TEXT_ATTRS = frozenset(
    {"x", "y", "w", "h", "size", "min-size", "font", "color", "leading", "align", "valign", "field", "role", "shape"}
    | {"paragraph-spacing", "number-color", "fill", "stroke", "stroke-width", "r", "padding", "dash", "opacity", "join"}
    | {"letter-spacing", "outline", "outline-width", "outline-dash", "ellipsize", "cap"}
)
SHRUNK = "text.shrunk"  # a text set below its design size: reported where asked (`i18n status`, `--pseudo`)
I18N_SHRUNK = "i18n.shrunk"  # a translation set below its design size where its source is not: every build
STAND_IN = "ilnoMW"  # the letters an icon's stand-in for Weblate is made of (`_letters`)
SLASH_STAND_IN = "filrt"  # a slash's, one letter


def text_element(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<text x y w h [size min-size font color leading align valign field]>: a framed text box."""
    content = (el.text or "").strip()
    if not content:
        return
    k = textattrs.key(el, ox, oy, ctx.printing.min_size)
    kept = textattrs.known(k)  # every card of a template reads the same attributes: read once
    at = kept[0] if kept is not None else textattrs.read_frame(el, ox, oy, ctx.printing.min_size)
    fld = el.get("field")
    issues, spans = span_issues(content, ctx) if "[" in content else ([], ())
    for issue in issues:
        ctx.problems.append(Problem("text.span", issue, ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
    faces = _faces(el, ctx, at.role)
    if faces.bold == faces.regular and "**" in content and not fonts.is_bold(faces.regular):
        ctx.problems.append(_no_bold(faces.regular, ctx, fld))
    look = kept[1] if kept is not None else textattrs.read_look(el, at)
    if kept is None:
        textattrs.keep(k, at, look)
    style = Style(
        faces.regular,
        faces.bold,
        look.color,
        look.leading,
        look.align,
        look.valign,
        faces.italic,
        faces.bold_italic,
        look.paragraph_spacing,
        look.inside_color,
        look.spacing,
        spans,
    )
    if el.get("rotate") is None and ctx.top is not None:  # a design-mode outline (a turned box: not shown)
        ctx.outlines.append((at.x, at.y, at.w, at.h))
    if look.frame is not None:  # the box's own frame, behind its text
        out.append(look.frame)
    box = FitBox(look.w, look.h, at.size, at.min_size, ctx.lang_of(fld), at.role != "body", look.round_box)
    icons = InlineIcons(ctx.icons.name_set, ctx.icons.number_places)

    place = Place(look.x, look.y, look.see, look.outline, look.outline_width, look.outline_dash)

    def lay(text: str) -> TextBlock:
        return _text_block(text, box, style, icons, place)

    block = lay(content)
    if look.cuts != "none" and not block.fits:  # cut, "…" where it is (layout/text/ellipsis.py)
        block, cut = ellipsized(content, lay, look.cuts)
        ctx.problems.append(cut_warning(cut, box.w, box.h, ctx.text_loc(fld), ctx.component, fld, ctx.lang, look.cuts))
    # the label the box prints: all of it, or (measuring) the labels of a run; a field's box prints
    # a label where the field is empty (`card.restriction or _("This dungeon only")`)
    held = printed_labels(content, ctx.labels.said, ctx.measure and not fld) if ctx.labels is not None else []
    label = held[0] if len(held) == 1 and held[0].whole else None
    if fld:
        if ctx.measure:
            ctx.boxes.append(replace(_measured(content, box, style, at.role), field=fld, fitted=block.size))
        else:  # every field of every face: made whole (replace() is slow)
            ctx.boxes.append(TextBox(fld, box.w, box.h, at.size, at.min_size, block.size, at.role))
    if (
        held and ctx.measure and (label is not None or not fld)
    ):  # the label's own box, or a text labels share (no budget)
        # measured with the label as written (English), as a field with its source text: a label's
        # budgets change with the template, never with a translation
        own = _measured(label.written or content, box, style, at.role) if label is not None else None
        shared = TextBox("", box.w, box.h, at.size, at.min_size, block.size, at.role, inline=True, at=el.get(AT))
        for one in held:
            mine = replace(own, fitted=block.size, at=el.get(AT)) if own is not None else shared
            ctx.boxes.append(replace(mine, label=one.msgid))
    problems = _block_problems(block, box, at, ctx, fld)
    if label is not None and label.written is not None:
        problems = _label_problems(
            label.msgid, label.written, problems, _LabelFit(content, block, box, style, icons), ctx
        )
    ctx.problems.extend(problems)
    shrunk = fld and ctx.source_of is not None and block.fits and block.size < at.size - 1e-9
    source = ctx.source_of(fld) if shrunk and ctx.source_of is not None else None
    if fld and source is not None:
        text, src_box = _as_source(content, *source), replace(box, lang=source[1])
        if text is not None:
            lay_source = _text_block(text, src_box, style, icons)
            found = _shrunk_translation(block, lay_source, src_box, style, text, ctx, fld)
            ctx.problems += [p for p in found if p not in ctx.problems]  # a name printed twice: said once
    out.extend(block.ops)  # made in place: a label every card prints is the same ops on every card


def _faces(el: ET.Element, ctx: FaceContext, role: str) -> fonts.Faces:
    """The faces a box sets its text in: the language's own fonts (pack.yaml `fonts:`) replace the
    template's."""
    font = el.get("font", fonts.DEFAULT)
    faces = ctx.font(font, f"<text font='{font}'>")
    if ctx.lang_faces is not None:
        faces = ctx.lang_faces[1] if role == "title" else ctx.lang_faces[0]
    return faces


def _no_bold(font: str, ctx: FaceContext, fld: str | None) -> Problem:
    """A text with **bold** words set in a family that has no bold face: they would print regular,
    the emphasis lost; said at the text's line (its .po entry, its YAML line), naming the font."""
    return Problem(
        "text.no-bold",
        f"**bold** words print in the regular face: the font {fonts.font_label(font)} has no bold face; add the "
        "family's bold file to the pack's fonts/ (or choose a family with one, pack.yaml `fonts:`)",
        ctx.text_loc(fld),
        ctx.component,
        fld,
        Severity.WARNING,
        lang=ctx.lang,
    )


def _block_problems(
    block: TextBlock, box: FitBox, at: textattrs.Frame, ctx: FaceContext, fld: str | None
) -> list[Problem]:
    """What a fitted box reports: glyphs its fonts lack, a text shrunk below its design size (when
    asked), a text that does not fit even at its smallest size, icons nobody knows."""
    where, w, h, size = ctx.text_loc(fld), box.w, box.h, at.size
    out = [
        Problem(
            "text.missing-glyph", fonts.missing_message(set(missing), face), where, ctx.component, fld, lang=ctx.lang
        )
        for face, missing in block.missing
    ]
    if ctx.shrinks and block.fits and block.size < size - 1e-9:
        out.append(
            Problem(
                SHRUNK,
                f"text shrinks from its design size {size:g} pt to {block.size:g} pt to fit its {w:.1f}×{h:.1f} mm "
                f"box (the minimum is {at.min_size:g} pt); shorten it or enlarge the box",
                where,
                ctx.component,
                fld,
                Severity.WARNING,
                lang=ctx.lang,
            )
        )
    if not block.fits:
        out.append(
            Problem(
                "text.overflow",
                f"text does not fit its {w:.1f}×{h:.1f} mm box even at {block.size:g} pt"
                + (f", the smallest legible size for {at.role} text" if block.size <= at.floor else "")
                + f" (overflows by {block.overflow:.1f} mm); shorten it or enlarge the box",
                where,
                ctx.component,
                fld,
                lang=ctx.lang,
            )
        )
    out += [
        Problem("text.unknown-icon", f"unknown icon '{{{name}}}'", where, ctx.component, fld, lang=ctx.lang)
        for name in block.unknown_icons
    ]
    return out


@dataclass(frozen=True)
class FitBox:
    """What a text is fitted into: the box (mm), its design and smallest sizes (pt), the language,
    whether it is a heading (never hyphenated) and whether it is set inside the box's ellipse."""

    w: float
    h: float
    size: float
    min_size: float
    lang: str
    heading: bool
    round_box: bool = False


@dataclass(frozen=True)
class InlineIcons:
    """The icons a text may draw: their names, and where a number sits inside each (icons.yaml)."""

    names: frozenset[str]
    places: tuple[tuple[str, float, float, float], ...] = ()


def _measured(content: str, box: FitBox, style: Style, role: str) -> TextBox:
    """The box with a translator's two budgets measured: what fits at the design size (unshrunk) and
    at the smallest size, in characters, and how many lines it holds at the design size."""
    held = box.h * PT_PER_MM / (box.size * style.leading)  # lines the box holds, a fraction
    lines = 1 if box.heading else max(1, math.floor(held + 1e-6))
    flag_w, flag_lines = (
        _inscribed(box.w, held)
        if box.round_box
        else (box.w, lines if box.heading else _flag_lines(content, held, style))
    )
    return TextBox(
        "",
        box.w,
        box.h,
        box.size,
        box.min_size,
        0.0,
        role,
        _capacity(content, box, style, box.min_size),
        _capacity(content, box, style, box.size),
        lines,
        style.font,
        style.spacing,
        flag_lines=flag_lines,
        flag_w=flag_w,
        stand_ins=_stand_ins(content, style),
    )


def _inscribed(w: float, held: float) -> tuple[float, int]:
    """The rectangle Weblate checks for a circular box, whose lines are chords of its ellipse (Weblate
    wraps at one width): as many lines as the box holds, each as wide as their chords on average
    (each chord where its line, centred in the ellipse, is narrowest), so that it holds what the
    ellipse holds; a text at the edge of its budget may still fit one and not the other."""
    n = max(1, math.floor(held + 1e-6))
    top = -n / 2  # in lines, from the ellipse's centre; its half-height is held / 2
    chords = []
    for k in range(n):
        far = max(abs(top + k), abs(top + k + 1)) / (held / 2)
        chords.append(w * math.sqrt(max(0.0, 1 - far * far)))
    return sum(chords) / n, n


def _flag_lines(content: str, held: float, style: Style) -> int:
    """The lines Weblate's max-size allows: Weblate counts a paragraph break as a blank line, the box
    spends `paragraph_spacing` of a line on it, so k lines in p + 1 paragraphs fit the box when
    k + spacing·p <= held, and Weblate's k + p <= floor(held + (1 - spacing)·p) says the same."""
    breaks = len(PARAGRAPH_BREAK.findall(content.strip("\n")))
    return max(1, math.floor(held + (1 - style.paragraph_spacing) * breaks + 1e-6))


def _stand_ins(content: str, style: Style) -> tuple[tuple[str, str], ...]:
    """Each icon token of the text with the letters of the box's font that are as wide as the icon
    (and its number) is drawn: what Weblate renders in its place (`replacements`), never the token's
    own characters, which are several times wider than its icon. And a slash as the letter closest
    to its width: a card's line breaks at a space or a hyphen, never after a slash (a web address
    stays whole), where Weblate's Pango breaks (UAX #14)."""
    out = []
    if "/" in content:
        out.append(
            (
                "/",
                min(
                    SLASH_STAND_IN,
                    key=lambda c: abs(fonts.width(c, style.font, 1.0) - fonts.width("/", style.font, 1.0)),
                ),
            )
        )
    for token in {t.written: t for t in parse(content).tokens}.values():
        icon = token.icon
        if "," in token.written or '"' in token.written:  # Weblate's flag grammar: not a parameter
            continue
        aligns = icon.name in ALIGNMENTS and icon.number is None  # {center}: no icon, nothing drawn
        out.append((token.written, "" if aligns else _letters(part_width(icon, style, 1.0), style.font)))
    return tuple(out)


def _letters(target: float, font: str) -> str:
    """Letters whose width at 1 pt in `font` is closest to `target` (pt at 1 pt): Ms, then the one
    letter of STAND_IN that comes closest."""
    m = fonts.width("M", font, 1.0)
    n = max(0, int(target // m))
    rest = target - n * m
    best = min(("", *STAND_IN), key=lambda c: abs(rest - fonts.width(c, font, 1.0)))
    return "M" * n + best or "M"


def _as_source(content: str, pairs: tuple[tuple[str, str], ...], lang: str) -> str | None:
    """The box's text as the source language prints it: each translation the template placed in it
    replaced by its source text (None when the box does not hold them as written)."""
    for translation, source in pairs:
        if translation not in content:
            return None
        content = content.replace(translation, source, 1)
    return content


@dataclass(frozen=True)
class _LabelFit:
    """A label's box as fitted: its text, the block, the box, its style and the icons it may draw."""

    content: str
    block: TextBlock
    box: FitBox
    style: Style
    icons: InlineIcons


def _label_problems(
    msgid: str, written: str, problems: list[Problem], fitted: _LabelFit, ctx: FaceContext
) -> list[Problem]:
    """A box that is one translated label: a text that overflows said at the label's catalogue entry,
    and `i18n.shrunk` there when the translation shrinks where the label as written does not; each
    once, whichever faces print it."""
    where = ctx.labels.translated(msgid) if ctx.labels is not None else None
    if where is None:
        return problems
    out = [
        replace(p, loc=where, once=True, message=f"the label '{msgid}': {p.message}")
        if p.rule == "text.overflow"
        else p
        for p in problems
    ]
    block, box = fitted.block, fitted.box
    if block.fits and block.size < box.size - 1e-9:
        source = _text_block(written, replace(box, lang="en"), fitted.style, fitted.icons)
        shrunk = _shrunk_translation(block, source, box, fitted.style, fitted.content, ctx, None, where)
        out += [replace(p, once=True, message=f"the label '{msgid}': {p.message}") for p in shrunk]
    return out


def _shrunk_translation(
    block: TextBlock,
    source: TextBlock,
    box: FitBox,
    style: Style,
    text: str,
    ctx: FaceContext,
    fld: str | None,
    where: Loc | None = None,
) -> list[Problem]:
    """A translation set below its design size where its source text is not (or below the size its
    source is set at): `i18n.shrunk`, at the translation's line (its .po entry or spreadsheet cell;
    `where`, a label's catalogue entry)."""
    if not source.fits or block.size >= source.size - 1e-9:
        return []
    room = _capacity(text, box, style, box.size)
    was = f"its source text is set at {source.size:g} pt" if source.size < box.size - 1e-9 else "its source text is not"
    return [
        Problem(
            I18N_SHRUNK,
            f"the '{ctx.lang}' translation shrinks from its design size {box.size:g} pt to {block.size:g} pt to fit its "
            f"{box.w:.1f}×{box.h:.1f} mm box ({was}); shorten it: about {room} characters fit at {box.size:g} pt "
            "(the entry's design budget, `#, max-size`)",
            where or ctx.text_loc(fld),
            ctx.component,
            fld,
            Severity.WARNING,
            lang=ctx.lang,
        )
    ]


@lru_cache(maxsize=1024)
def _capacity(content: str, box: FitBox, style: Style, size: float) -> int:
    """How many characters of text like `content` (its characters, repeated) fit the box at `size`
    without shrinking: a translator's budget (the design budget at the design size, the hard limit
    at min_size), measured with the fitting engine itself."""
    filler = " ".join(content.split()) + " "
    if not filler.strip():
        return 0

    def text(n: int) -> str:
        cut = (filler * (n // len(filler) + 1))[:n]
        if cut.rfind("{") > cut.rfind("}"):  # never half an icon token
            cut = cut[: cut.rfind("{")]
        return cut.rstrip()

    def fits(n: int) -> bool:  # fitted as a build fits it (a title shrinks on one line before it breaks), unshrunk
        w, h = box.w * PT_PER_MM, box.h * PT_PER_MM
        f = fit(text(n), w, h, style, size, box.min_size, box.lang, heading=box.heading, round_box=box.round_box)
        return f.fits and f.size >= size - 1e-9

    lo, hi = 0, len(filler)
    while fits(hi) and hi < 64 * len(filler):
        lo, hi = hi, hi * 2
    while hi - lo > 1:  # lo fits, hi does not
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return len(text(lo))


@dataclass(frozen=True, slots=True)
class Place:
    """Where a text block's ops are drawn and in what ink: the box's top-left (mm, on the face), its
    opacity and its outline. Part of the block's cache key: a label every card prints in the same
    place is laid out once, and its ops are made once."""

    x: float = 0.0
    y: float = 0.0
    see: float = 1.0  # opacity
    outline: str | None = None
    outline_width: float = 0.0
    outline_dash: tuple[float, ...] = ()

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str,
        size: float,
        color: str,
        spacing: float = 0.0,
        rise: float = 0.0,
        underline: bool = False,
        strike: bool = False,
    ) -> TextOp:
        """A run of text laid out at (x, y) in the box, drawn in place: moved, faded and outlined."""
        see = self.see
        return TextOp(
            x + self.x,
            y + self.y,
            text,
            font,
            size,
            color if see >= 1 else with_alpha(color, see),
            spacing,
            self.outline,
            self.outline_width,
            rise,
            underline,
            strike,
            self.outline_dash,
        )

    def icon(self, name: str, x: float, y: float, size: float) -> IconOp:
        """An inline icon laid out at (x, y) in the box, drawn in place."""
        return IconOp(name, x + self.x, y + self.y, size, None, self.see)


AT_ORIGIN = Place()  # a block measured, not drawn


@dataclass(frozen=True)
class TextBlock:
    """A fitted text box, its ops drawn in its place: shared by every box with the same text,
    geometry and place."""

    ops: tuple[TextOp | IconOp, ...]
    size: float
    fits: bool
    overflow: float  # mm
    missing: tuple[tuple[str, frozenset[str]], ...]  # (font, characters it has no glyph for)
    unknown_icons: tuple[str, ...]


@lru_cache(maxsize=512)  # the texts every card repeats (labels, shared lines); a long deck's own texts pass
def _text_block(content: str, box: FitBox, style: Style, icons: InlineIcons, place: Place = AT_ORIGIN) -> TextBlock:
    """A text fitted to its box and drawn in its place: its lines' runs of text, icons and numbers."""
    w, h = box.w, box.h
    fitted = fit(
        content,
        w * PT_PER_MM,
        h * PT_PER_MM,
        style,
        box.size,
        box.min_size,
        box.lang,
        heading=box.heading,
        round_box=box.round_box,
    )
    drawn = _Drawn()
    x = y = 0.0
    s = fitted.size
    line_h = s * style.leading / PT_PER_MM
    total = len(fitted.lines) * line_h + sum(ln.gap_before for ln in fitted.lines) / PT_PER_MM
    top = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}.get(style.valign, 0.0)
    ascent = s * 0.78 / PT_PER_MM
    space_pt = fonts.width(" ", style.font, s)
    justify = style.align == "justify"
    gaps = 0.0  # paragraph spacing above the line
    for i, line in enumerate(fitted.lines):
        lw = line.width / PT_PER_MM
        lx = x + {"left": 0.0, "center": (w - lw) / 2, "right": w - lw}.get(line.align or style.align, 0.0)
        items = _justified(line, w * PT_PER_MM) if justify and not line.align and not line.last else line.items
        gaps += line.gap_before / PT_PER_MM
        base = top + i * line_h + ascent + (line_h - s / PT_PER_MM) / 2 + gaps
        _draw_line(items, lx, base, s, style, icons, drawn, space_pt, place)
    return TextBlock(
        tuple(drawn.ops),
        fitted.size,
        fitted.fits,
        fitted.overflow / PT_PER_MM,
        tuple((f, frozenset(m)) for f, m in sorted(drawn.missing.items())),
        tuple(drawn.unknown),
    )


@dataclass
class _Drawn:
    """What one text block draws and meets while it is drawn: its ops, the icons nobody knows and
    the characters each font lacks (one block's own, filled by its lines)."""

    ops: list[TextOp | IconOp] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    missing: dict[str, set[str]] = field(default_factory=dict)

    def lacks(self, text: str, font: str) -> None:
        """Note the characters of text the font has no glyph for."""
        gone = fonts.missing_chars(text, font)
        if gone:
            self.missing.setdefault(font, set()).update(gone)


def _draw_line(
    items: tuple[Placed, ...],
    lx: float,
    base: float,
    s: float,
    style: Style,
    icons: InlineIcons,
    drawn: _Drawn,
    space_pt: float,
    place: Place,
) -> None:
    """One line's parts drawn from lx (mm) on its baseline: words sharing a font and span joined in
    one run, so PDF text extracts as written; icons and their numbers between."""
    justify = style.align == "justify"
    run: list[str] = []
    run_font, run_x, run_end = "", 0.0, 0.0
    run_span: Span | None = None
    for placed in (*items, None):
        part = placed.part if placed is not None else None
        pfont = style.part_font(part) if isinstance(part, TextPart) else ""
        pspan = part.span if isinstance(part, TextPart) else None
        gap = placed.x - run_end if placed is not None else 0.0
        if run and (
            pfont != run_font
            or pspan != run_span
            or placed is None
            or gap > space_pt * 1.5
            or (justify and gap > space_pt * 1.01)
        ):
            joined = "".join(run)
            drawn.ops.append(spanned(lx + run_x / PT_PER_MM, base, joined, run_font, s, style, run_span, place))
            run = []
            drawn.lacks(joined, run_font)  # a run's, not each word's: the same characters
        if placed is None:
            break
        px = lx + placed.x / PT_PER_MM
        if not run and part == SPACE:  # a space held to the next word (segment.held) opens no run: a gap
            continue
        if isinstance(part, TextPart):
            if not run:
                run_font, run_x, run_span = pfont, placed.x, pspan
            elif placed.x - run_end > 1e-6:
                run.append(" ")
            run.append(part.text)
            run_end = placed.x + placed.width
        elif isinstance(part, IconPart) and part.inside:
            _inside(part, px, base, s, style, icons, drawn, place)
        elif isinstance(part, IconPart):
            _beside(part, px, base, s, style, icons, drawn, place)


def _beside(
    part: IconPart, px: float, base: float, s: float, style: Style, icons: InlineIcons, drawn: _Drawn, place: Place
) -> None:
    """An icon on the line, its number (if any) in bold after it."""
    isz = s * 1.15 / PT_PER_MM
    if part.name not in icons.names:
        drawn.unknown.append(part.name)
    else:
        drawn.ops.append(place.icon(part.name, px, base - isz * 0.82, isz))
    if part.number is not None:
        drawn.ops.append(
            place.text(px + isz + s * 0.1 / PT_PER_MM, base, number_label(part), style.bold_font, s, style.color)
        )


def spanned(
    x: float, base: float, text: str, font: str, size: float, style: Style, span: Span | None, place: Place
) -> TextOp:
    """A run of text as drawn: in its span's colour, size, decorations and height when it has one."""
    if span is None:
        return place.text(x, base, text, font, size, style.color, style.spacing * size)
    rise = {"sup": 0.36, "sub": -0.16}.get(span.shift, 0.0) * size
    color = style.color
    if span.color is not None:
        try:
            color = parse_colour(span.color)
        except ValueError:
            pass  # reported by the text box (span_issues) as an error: the build fails
    return place.text(
        x,
        base,
        text,
        font,
        size * span.size,
        color,
        style.spacing * size * span.size,
        rise,
        span.underline,
        span.strike,
    )


def span_issues(content: str, ctx: FaceContext) -> tuple[list[str], tuple[tuple[str, tuple[str, str, str, str]], ...]]:
    """A text's span mistakes in words (tags, colours, sizes, fonts), and the faces of its [font=] names."""
    card = parse(content)
    issues = list(card.span_problems)
    found: dict[str, tuple[str, str, str, str]] = {}
    for t in card.tags:
        tag, value = t.name, t.value
        if value is None or t.closing:
            continue
        if tag == "color":
            try:
                parse_colour(value)
            except ValueError as exc:
                issues.append(f"'{t.written}': {exc}")
        elif tag == "size" and size_ratio(value) == 1.0 and value != "100%":
            issues.append(f"'{t.written}': a size relative to the text, 30% to 300% (e.g. [size=80%])")
        elif tag == "font" and value not in found:
            try:
                f = ctx.font(value, f"'{t.written}'")
            except ValueError as exc:
                issues.append(str(exc))
                continue
            found[value] = (f.regular, f.bold, f.italic, f.bold_italic)
    return issues, tuple(sorted(found.items()))


def _justified(line: Line, width: float) -> tuple[Placed, ...]:
    """A line's parts spread so it fills the box's width (pt): the spare room shared between its
    word gaps (a word's own parts, a hyphenated piece or bold inside a word, stay together)."""
    gaps = sum(1 for a, b in pairwise(line.items) if b.x - (a.x + a.width) > 1e-6)
    spare = width - line.width
    if gaps == 0 or spare <= 0:
        return line.items
    out, k = [line.items[0]], 0
    for a, b in pairwise(line.items):
        k += b.x - (a.x + a.width) > 1e-6
        out.append(b._replace(x=b.x + spare * k / gaps))
    return tuple(out)


def _inside(
    part: IconPart, px: float, base: float, s: float, style: Style, icons: InlineIcons, drawn: _Drawn, place: Place
) -> None:
    """An icon with its number drawn inside (a coin with 3 in it): centred, or where the pack's
    icons.yaml places it for this icon."""
    dx, dy, scale = next(((x, y, k) for n, x, y, k in icons.places if n == part.name), (0.0, 0.0, 1.0))
    isz = s * INSIDE_SCALE / PT_PER_MM
    top = base - s * 0.78 / PT_PER_MM / 2 - isz / 2  # centred on the line's x-height
    if part.name not in icons.names:
        drawn.unknown.append(part.name)
    else:
        drawn.ops.append(place.icon(part.name, px, top, isz))
    label = number_label(part)
    nsize = s * INSIDE_SCALE * INSIDE_NUMBER * scale
    nw = fonts.width(label, style.bold_font, nsize) / PT_PER_MM
    drawn.lacks(label, style.bold_font)
    cap = nsize * 0.72 / PT_PER_MM
    cx, cy = px + isz / 2 + dx * isz, top + isz / 2 + dy * isz
    drawn.ops.append(place.text(cx - nw / 2, cy + cap / 2, label, style.bold_font, nsize, style.inside_color))
