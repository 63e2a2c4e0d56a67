"""A translator's two budgets for one entry, as the catalogues carry them (docs/translating.md, Budgets):
the design budget (what fits the box at its design size, unshrunk: the number a translator aims at)
and the hard limit (what fits at the smallest legible size). In words on a `#.` line for Poedit; as
Weblate's flags for Weblate, which renders the translation and checks its real width in every script:
`max-size:<width>:<lines>` at `font-size:<px>` in the font group `font-family:<pack>-<face>` made of
the pack's fonts; `max-length:N` only where characters are the right measure.

The mapping to Weblate's pixels: Weblate renders the text at `font-size` pixels and wraps it at
`width` pixels (Pango, at an absolute size: a pixel is the unit of both). The font size is the design
size in pt times PX_PER_PT rounded to a whole pixel (Weblate reads an integer), and the width is the
box's width in pt times the same ratio, rounded down: 1 pt = font-size ÷ design size px, so the text
stands to the box as it does on the card. Four pixels a point, not one: Weblate's Cairo rounds every
glyph's advance to a whole pixel (hinted metrics), which at 11 px moved a title's width by -4 % to
+8 % against the font's own advances the card is set with; at 44 px, by -5 % to +1 %, the rest being
the font's kerning, which Pango applies and the card does not (bench/README.md, Weblate).

What Weblate renders is the translation as written; `replacements` makes it render what the card
prints: each icon token as letters as wide as its icon (measured by the layout, `TextBox.stand_ins`),
bold and italic marks and span tags as nothing. A paragraph break is a blank line to Weblate and half
a line on the card: the `lines` of max-size count it as Weblate does (`TextBox.flag_lines`). A
circular box is checked as a rectangle that holds what its ellipse holds (`TextBox.flag_w`)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from mazmorra.assets import fonts
from mazmorra.contracts import TextBox
from mazmorra.model.cardtext import parse
from mazmorra.model.content import Pack
from mazmorra.model.units import PT_PER_MM

# Languages written without spaces between words or in wide characters: a character count says
# nothing about the room a text takes (a CJK character is about twice a Latin letter's width, a Thai
# line breaks inside words), so their entries carry no `max-length`, only the width budget.
WIDE_SCRIPTS = frozenset({"ja", "zh", "ko", "yue", "th", "lo", "km", "my", "bo"})
PANGO_PER_PX = 1024 * 72 / 96  # Pango's letter_spacing unit is 1/1024 pt at its 96 dpi: `font-spacing`
PX_PER_PT = 4  # Weblate's pixels a point: large enough that its whole-pixel glyph advances do not matter


def counts_characters(lang: str | None) -> bool:
    """Whether a character count is a fair measure of a text's room in `lang` (None: the template,
    which serves every language: as the alphabetic scripts)."""
    return lang is None or re.split(r"[-_@]", lang)[0].lower() not in WIDE_SCRIPTS


@dataclass(frozen=True)
class Budgets:
    """One entry's budgets: characters at the design size and at the smallest, and the box in
    Weblate's pixels."""

    size: float  # pt, the design size
    min_size: float  # pt, the smallest legible size
    room: int  # characters that fit at the design size (the design budget)
    capacity: int  # characters that fit at min_size (the hard limit)
    px: int  # Weblate's font-size
    width: int  # Weblate's max-size width, px
    lines: int  # lines the box holds at the design size
    group: str  # Weblate's font group
    spacing: int  # Weblate's font-spacing (Pango units), 0: none
    single_line: bool  # one line (a title or a label: it shrinks before it breaks)
    flag_lines: int = 0  # Weblate's max-size lines, a paragraph break's blank line counted (0: lines)
    stand_ins: tuple[tuple[str, str], ...] = ()  # (icon token, letters as wide): Weblate's replacements
    inscribed: bool = False  # a circular box: Weblate checks a rectangle as roomy as its ellipse


def budgets(pack: Pack, box: TextBox, share: float = 1.0) -> Budgets | None:
    """The budgets of a text set in `box` (its measured capacities); `share`: the part of the box the
    text has (a list's item: its source's share of the list's characters). None: not measured."""
    if box.room is None or box.capacity is None:
        return None
    px = max(1, round(box.size * PX_PER_PT))
    scale = px / box.size
    lines = box.lines if share >= 1 else max(1, round(box.lines * share))
    flag_lines = (box.flag_lines or box.lines) if share >= 1 else lines
    return Budgets(
        box.size,
        box.min_size,
        max(1, math.floor(box.room * share)),
        max(1, math.floor(box.capacity * share)),
        px,
        math.floor((box.flag_w or box.w) * PT_PER_MM * scale),
        lines,
        font_group(pack, box.font, box.role),
        round(box.spacing * px * PANGO_PER_PX),
        box.lines == 1,
        flag_lines,
        box.stand_ins,
        0 < box.flag_w < box.w,
    )


def flags(b: Budgets | None, lang: str | None, limit: int | None = None, source: str = "") -> list[str]:
    """The entry's Weblate flags for a catalogue in `lang` (None: the template): the width budget at
    the design size with its font, what Weblate renders in place of the `source` text's icons and
    marks, and `max-length` where characters are the right measure: a single line's hard limit, or
    the kind's own limit (which the build enforces in characters)."""
    out = []
    if b is not None:
        out += [f"max-size:{b.width}:{b.flag_lines or b.lines}", f"font-family:{b.group}", f"font-size:{b.px}"]
        if b.spacing:
            out.append(f"font-spacing:{b.spacing}")
        pairs = replacements(b, source)
        if pairs:
            out.append("replacements:" + ":".join(f'"{text}"' for pair in pairs for text in pair))
    single = b.capacity if b is not None and b.single_line else None
    chars = min((n for n in (limit, single) if n), default=None)
    if chars and counts_characters(lang):
        out.append(f"max-length:{chars}")
    return out


def replacements(b: Budgets, source: str) -> list[tuple[str, str]]:
    """What Weblate renders in place of what the card does not print as written: each icon token of
    the source as letters as wide as its icon, `**`, `*` and span tags as nothing (the longest first:
    Weblate tries them in order)."""
    text = parse(source)
    pairs = [pair for pair in b.stand_ins if pair[0] in source]
    pairs += [(t, "") for t in dict.fromkeys(tag.written for tag in text.tags) if _flag_safe(t)]
    pairs += [(mark, "") for mark in ("**", "*") if mark in text.untokened]
    return pairs


def _flag_safe(text: str) -> bool:
    """Whether a text can be a quoted parameter of a Weblate flag that polib and msgmerge keep."""
    return not any(c in text for c in ',"\\\n')


def note(b: Budgets | None) -> str:
    """Both budgets in words, for a translator's tool that shows comments only (Poedit)."""
    if b is None:
        return "budget: printed in no text box of a card (document titles, the gallery, exports): no size budget"
    fit = f"{b.lines} lines" if b.lines > 1 else "one line"
    lines = b.flag_lines or b.lines
    counted = f"{lines} lines" if lines > 1 else "one line"
    if lines != b.lines and not b.inscribed:
        counted += ", a paragraph break counted as one"
    return (
        f"budget: fits at {b.size:g} pt: about {b.room} characters ({fit}); at most {b.capacity} characters at "
        f"{b.min_size:g} pt, the smallest size; Weblate checks the width: {b.width} px × {counted} at {b.px} px"
        + (" (a rectangle as roomy as the circular box)" if b.inscribed else "")
    )


def box_note(box: TextBox) -> str:
    """A box in words: its size, role and type sizes."""
    return f"box {box.w:.1f}×{box.h:.1f} mm ({box.role}): {box.size:g} pt design size, {box.min_size:g} pt at least"


@dataclass(frozen=True)
class LabelBox:
    """Where a template label prints, measured in the source language: the tightest box it has to
    itself (None: it only prints inside longer texts), where that box is written and on which
    component, and how many distinct boxes it has to itself and shares."""

    box: TextBox | None
    where: str  # the template line of the tightest box (or of a text it shares), as catalogues name it
    component: str
    own: int  # distinct boxes it fills alone
    shared: int  # distinct texts it is part of


def label_budget_notes(lb: LabelBox | None, found: Budgets | None) -> list[str]:
    """A label's box and budgets in words (`#.` lines), or why it has no budget."""
    if lb is None:
        return [
            "budget: printed by no text box of this pack's components (a branch none of them takes, a name in "
            "the exports): no size budget; keep it about as long as the English"
        ]
    if lb.box is None:
        return [
            f"budget: printed inside a longer text ({lb.where}, on {lb.component}), no box of its own: no size "
            "budget; keep it about as long as the English"
        ]
    many = f"; the tightest of its {lb.own} boxes" if lb.own > 1 else ""
    return [f"{box_note(lb.box)}{many}; at {lb.where} (on {lb.component})", note(found)]


def font_groups_header(pack: Pack, boxes: Iterable[TextBox]) -> str:
    """A template header's list of the Weblate font groups its entries' `font-family` flags name,
    with the font file each is made of (docs/translating.md, Weblate's font groups)."""
    lines = font_group_lines(pack, boxes)
    if not lines:
        return ""
    return "\nWeblate font groups (font-family flags; upload each file into its group):\n" + "\n".join(lines)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "font"


def font_group(pack: Pack, face: str, role: str) -> str:
    """The Weblate font group a box's text is rendered with: the pack and the box's face (and, when
    the pack sets a language's titles in their own fonts, whether it is a title)."""
    titled = role == "title" and any(lf.title for lf in pack.spec.fonts.values())
    return f"{_slug(pack.id)}-{_slug(face or fonts.DEFAULT)}" + ("-title" if titled else "")


def font_group_lines(pack: Pack, boxes: Iterable[TextBox]) -> list[str]:
    """The font groups the template's entries name, each with the font file to upload as its font
    and, per language whose `fonts:` replaces it, the file of that language's override."""
    own, _ = fonts.pack_fonts(pack.root)
    groups: dict[str, tuple[str, str]] = {}
    for box in boxes:
        if box.room is not None:
            groups.setdefault(font_group(pack, box.font, box.role), (box.font or fonts.DEFAULT, box.role))
    out = []
    for name, (face, role) in sorted(groups.items()):
        overrides = []
        for lang, lf in sorted(pack.spec.fonts.items()):
            found = fonts.faces(lf.title_family if role == "title" else lf.body, own)
            if found is not None:
                overrides.append(f"{lang}: {_file(found.regular)}")
        out.append(f"{name}: {_file(face)}" + (f" ({'; '.join(overrides)})" if overrides else ""))
    return out


def _file(face: str) -> str:
    path = fonts.FONTS.get(face)
    return path.name if path is not None else face
