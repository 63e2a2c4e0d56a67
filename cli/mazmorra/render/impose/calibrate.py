"""A duplex calibration sheet: print it double-sided, hold it to the light, read the back offset.

Both pages carry the same centred target, millimetre scales and corner crosses, so a printer that
registers its backs exactly prints them on top of each other. The back is read upright, against
the light: where the front's centre cross falls on the back's scales is the `--back-offset X,Y`
that moves the backs onto their fronts (+X right, +Y down, as the back page reads).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from mazmorra.assets import fonts
from mazmorra.contracts import TextBox
from mazmorra.model.units import PT_PER_MM as K
from mazmorra.render.impose import ImposeOptions
from mazmorra.support.atomic import atomic_write_bytes

SCALE = 10  # mm each way from the centre
CORNER_INSET = 20.0  # mm from each page edge to a corner cross
GRID = 30  # mm each way: the light 5 mm grid around the target
SCALE_AT = 20.0  # mm from the centre to the X scale (below) and the Y scale (right)
TEXT_W = 160.0  # mm: the instructions' width, centred
LEADING = 4.0  # mm between the instructions' lines (8 pt)
TEXT_FOOT = 28.0  # mm from the bottom edge to the last line: clear of the corner crosses

CALIBRATION_SHEET = "the duplex calibration sheet (mazmorra calibrate)"  # where its words' boxes are
TITLE_SIZE, TITLE_LEAST = 11.0, 7.0  # pt: the title, shrunk to the page's width down to its least size
STEP_SIZE = 8.0  # pt: the instructions (they wrap, never shrink)
CAPTION_W = 60.0  # mm a scale's caption may take (7 pt, never shrunk)

Words = Callable[[str], str]  # a label in the sheet's language (i18n.labels.Labels): the English as is


def english(msgid: str) -> str:
    return msgid


def calibration_pdf(sheet: ImposeOptions, words: Words = english, lang: str = "en") -> bytes:
    """The two pages: front, then back (moved by sheet.back_offset, to check a measured offset), in
    the words `words` gives (the calibration sheet's labels, i18n.labels.CALIBRATION_WORDS)."""
    fonts.register_all()
    pw, ph = sheet.size
    buf = io.BytesIO()
    c = Canvas(
        buf,
        pagesize=(pw * K, ph * K),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.register(fonts.DEFAULT),
        lang=lang,
    )
    c.setTitle(f"mazmorra · {words('Duplex calibration · front · %(paper)s') % {'paper': sheet.page.upper()}}")
    c.setAuthor("mazmorra")
    c.setCreator("mazmorra")
    _side(c, sheet, False, words)
    _side(c, sheet, True, words)
    c.save()
    return buf.getvalue()


def write_calibration(path: Path, sheet: ImposeOptions, words: Words = english, lang: str = "en") -> None:
    atomic_write_bytes(path, calibration_pdf(sheet, words, lang))


def _side(c: Canvas, sheet: ImposeOptions, back: bool, words: Words) -> None:
    pw, ph = sheet.size
    dx, dy = sheet.back_offset if back else (0.0, 0.0)

    def X(x: float) -> float:  # mm from the left (moved on the back) -> pt
        return (x + dx) * K

    def Y(y: float) -> float:  # mm from the top (moved on the back) -> pt from the bottom
        return (ph - y - dy) * K

    def line(x1: float, y1: float, x2: float, y2: float) -> None:
        c.line(X(x1), Y(y1), X(x2), Y(y2))

    def text(x: float, y: float, s: str, size: float = 7, font: str = "sans", centred: bool = True) -> None:
        c.setFont(fonts.register(font), size)
        (c.drawCentredString if centred else c.drawString)(X(x), Y(y), s)

    cx, cy = pw / 2, ph / 2
    c.setStrokeColor(HexColor("#cccccc"))  # a light 5 mm grid around the target
    c.setLineWidth(0.2)
    for g in range(-GRID, GRID + 1, 5):
        line(cx + g, cy - GRID, cx + g, cy + GRID)
        line(cx - GRID, cy + g, cx + GRID, cy + g)
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.4)
    for r in (3, 8):
        c.circle(X(cx), Y(cy), r * K, stroke=1, fill=0)
    line(cx - GRID - 5, cy, cx + GRID + 5, cy)  # the centre cross: its lines run through both scales
    line(cx, cy - GRID - 5, cx, cy + GRID + 5)
    # X is read where the other side's vertical line crosses the scale below the centre, Y where its
    # horizontal line crosses the scale right of the centre: half-millimetre ticks, numbered every 5.
    sx, sy = cx + SCALE_AT, cy + SCALE_AT
    c.setLineWidth(0.25)
    line(cx - SCALE, sy, cx + SCALE, sy)
    line(sx, cy - SCALE, sx, cy + SCALE)
    for i in range(-2 * SCALE, 2 * SCALE + 1):
        v = i / 2
        n = 3.0 if i % 10 == 0 else 2.0 if i % 2 == 0 else 1.0
        line(cx + v, sy, cx + v, sy - n)
        line(sx, cy + v, sx - n, cy + v)
        if i % 10 == 0:
            label = f"{v:+g}" if v else "0"
            text(cx + v, sy + 3.5, label, 7)
            text(sx + 1.5, cy + v + 1, label, 7, centred=False)
    text(cx + SCALE + 3, sy + 1, words("X mm (+ right)"), 7, "sans-bold", centred=False)
    text(sx - 2, cy + SCALE + 5, words("Y mm (+ down)"), 7, "sans-bold")
    c.setLineWidth(0.4)
    for x in (
        CORNER_INSET,
        pw - CORNER_INSET,
    ):  # corner crosses: the offset should match the centre's
        for y in (CORNER_INSET, ph - CORNER_INSET):
            line(x - 5, y, x + 5, y)
            line(x, y - 5, x, y + 5)
            c.circle(X(x), Y(y), 2 * K, stroke=1, fill=0)
    text(cx, 16, f"↑ {words('TOP')} ↑", 9, "sans-bold")
    paper = sheet.page.upper()
    if sheet.landscape:
        paper = words("%(paper)s landscape") % {"paper": paper}
    flip = "short" if sheet.duplex == "short" else "long"
    edge = words(f"{flip} edge")
    if not back:
        title = words("Duplex calibration · front · %(paper)s") % {"paper": paper}
        steps = [
            words("Print both pages double-sided, flipping on the %(edge)s, at actual size (never “fit to page”).")
            % {"edge": edge},
            words("Hold the sheet up to a light with the back facing you and the TOP arrows at the top."),
            words(
                "Read where this side's centre cross shows through on the back's scales: X on the horizontal "
                "scale (+ right), Y on the vertical one (+ down)."
            ),
            words(
                "Build with --back-offset X,Y (for example --back-offset 1.5,-0.5), then print this sheet again "
                "with the same --back-offset: both sides' marks should now coincide."
            ),
        ]
        paragraphs = [f"{n}. {step}" for n, step in enumerate(steps, 1)]
    else:
        title = words("Back · read here · %(paper)s") % {"paper": paper}
        paragraphs = [
            words("The front's centre cross falls at X, Y on these scales: pass --back-offset X,Y."),
            words(
                "The four corner crosses should be off by as much as the centre; if they differ, the printer "
                "scales or skews its backs: print at actual size."
            ),
            words(
                "If the TOP arrows point down through the paper, the sheet was flipped on the other edge: use "
                "--duplex %(other)s."
            )
            % {"other": "long" if flip == "short" else "short"},
        ]
        if dx or dy:
            paragraphs.append(
                words("This back is already moved by --back-offset %(x)s,%(y)s.") % {"x": f"{dx:g}", "y": f"{dy:g}"}
            )
    bold = fonts.register("sans-bold")
    size = TITLE_SIZE  # the title, as large as fits the page's width less its margins
    while size > TITLE_LEAST and stringWidth(title, bold, size) > (pw - 2 * CORNER_INSET) * K:
        size -= 0.5
    text(cx, 30, title, size, "sans-bold")
    regular = fonts.register("sans")
    lines = [
        (row, i > 0) for paragraph in paragraphs for i, row in enumerate(simpleSplit(paragraph, regular, 8, TEXT_W * K))
    ]
    top = ph - TEXT_FOOT - LEADING * (len(lines) - 1)
    for i, (row, follows) in enumerate(lines):
        text(cx - TEXT_W / 2 + (3 if follows else 0), top + LEADING * i, row, STEP_SIZE, centred=False)
    c.showPage()


# The sheet's words as boxes, for translators' budgets (layout/text/budget.py, i18n/labels.py's
# CALIBRATION_WORDS): what each may hold at the size it prints at, on the pack's paper.
_TITLES = ("Duplex calibration · front · %(paper)s", "Back · read here · %(paper)s")
_CAPTIONS = ("X mm (+ right)", "Y mm (+ down)")
_INLINE = ("long edge", "short edge", "%(paper)s landscape")  # words set inside a sentence or a title


def label_boxes(paper: str) -> list[TextBox]:
    """The box each of the sheet's words prints in on `paper`: the titles one line the page's width
    wide (shrinking to 7 pt), TOP and the scales' captions one line at their fixed sizes, each
    instruction the lines the English takes and one more, 160 mm wide at 8 pt (it wraps, never
    shrinks); the words set inside a sentence or a title have no box of their own."""
    from mazmorra.i18n.labels import CALIBRATION_WORDS

    pw, _ = ImposeOptions(page=paper).size
    wide = pw - 2 * CORNER_INSET
    out = []
    for msgid, _note in CALIBRATION_WORDS:
        if msgid in _INLINE:
            out.append(TextBox("", wide, 0.0, STEP_SIZE, STEP_SIZE, STEP_SIZE, "label", label=msgid, inline=True))
        elif msgid in _TITLES:
            out.append(_box(msgid, "sans-bold", wide, 1, TITLE_SIZE, TITLE_LEAST))
        elif msgid == "TOP":
            out.append(_box(msgid, "sans-bold", wide, 1, 9.0, 9.0))
        elif msgid in _CAPTIONS:
            out.append(_box(msgid, "sans-bold", CAPTION_W, 1, 7.0, 7.0))
        else:
            lines = len(simpleSplit(msgid, fonts.register("sans"), STEP_SIZE, TEXT_W * K)) + 1
            out.append(_box(msgid, "sans", TEXT_W, lines, STEP_SIZE, STEP_SIZE))
    return out


def _box(msgid: str, font: str, w: float, lines: int, size: float, least: float) -> TextBox:
    name = fonts.register(font)
    return TextBox(
        "",
        w,
        lines * (LEADING if lines > 1 else size / K * 1.2),
        size,
        least,
        size,
        "label",
        _room(msgid, name, least, w, lines),
        _room(msgid, name, size, w, lines),
        lines,
        font,
        label=msgid,
    )


def _room(msgid: str, font: str, size: float, w: float, lines: int) -> int:
    """How many characters of text like the English (its characters, repeated) the sheet sets in
    `lines` lines `w` mm wide at `size`, as it sets them (ReportLab's line splitting)."""
    filler = " ".join(msgid.split()) + " "

    def fits(n: int) -> bool:
        text = (filler * (n // len(filler) + 1))[:n].rstrip()
        return len(simpleSplit(text, font, size, w * K)) <= lines and stringWidth(text, font, size) <= w * K * lines

    lo, hi = 0, len(filler)
    while fits(hi) and hi < 64 * len(filler):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo
