"""The removal list of `build --changed-since`: the components to take out of the printed deck, laid
out with the shipped template `removed.xml.j2` (its fixed words are template labels, translated like
any other) as one document of page-sized faces, printed on the build's sheets as `removed.pdf`."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import jinja2

from mazmorra.contracts import Document, Face, Item, TextBox
from mazmorra.errors import Problem
from mazmorra.i18n.labels import FaceLabels, number_formatter
from mazmorra.layout import LayoutContext
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.face import draft_marker, fallbacks, label_box
from mazmorra.layout.templates import TemplateError
from mazmorra.render.impose import DoesNotFit, ImposeOptions, impose
from mazmorra.rounds.compare import Changes
from mazmorra.support.filenames import deck_pdf

TEMPLATE = "removed.xml.j2"
DOCUMENT = "removed"  # its file: output/<pack>/<lang>/removed.pdf
PAGE_NAME = "the removed cards' page"  # where its labels' boxes are, as their catalogue notes say
HEADER = 27.0  # mm above the first row: title, pack and revision
NARROW = 120.0  # mm: a page narrower than this puts a row's deck and copies under its name
_CLEAR = 10.0  # mm kept clear of the printable margin on each side (room for the crop marks)


def removal_document(changes: Changes, ctx: LayoutContext, sheet: ImposeOptions) -> Document | None:
    """The pages listing what `changes` takes out of the deck, each as wide as one fits alone on the
    build's print sheets (half a sheet for fold-and-glue) and as tall as its rows need; None when
    nothing is to be taken out."""
    rows = [
        {"deck": c.deck_name, "name": c.name, "copies": c.to_take_out, "id": c.component}
        for c in changes.changes
        if c.to_take_out
    ]
    if not rows:
        return None
    w, h = page_size(sheet, ctx.pack.bleed_mm)
    row_height = 10.0 if w < NARROW else 6.0
    per_page = max(1, int((h - HEADER - 4) // row_height))
    chunks = [rows[i : i + per_page] for i in range(0, len(rows), per_page)]
    sizes = [(w, content_height(len(chunk), row_height, h)) for chunk in chunks]
    named = FaceLabels(ctx.labels)
    title = named("Take out of the deck")

    def items(spare: int = 0) -> Iterator[Item]:  # (a page at a time: no helper)
        for n, chunk in enumerate(chunks, 1):
            labels = FaceLabels(ctx.labels)
            face, problems = _page(ctx, changes.pack, changes.since, chunk, (n, len(chunks)), sizes[n - 1], labels)
            missing = [*(named.missing if n == 1 else ()), *labels.missing]  # reported like any template's
            marks = fallbacks([], tuple(missing), ctx.labels, ctx.contexts.untranslated)
            if ctx.draft and marks:  # a draft's page in another language says so, as a card does
                face = draft_marker(face, ctx.lang, marks, ctx.icons, ctx.pack, ctx.labels)
            yield Item(face, None, 1, False, f"{title} {n}", problems=tuple(problems), labels=tuple(missing))

    pack_name = ctx.localisation.name("pack.name")
    return Document(
        changes.pack,
        DOCUMENT,
        DOCUMENT,
        ctx.lang,
        f"{pack_name} — {title}",
        title,
        deck_pdf(ctx.out_dir, changes.pack, ctx.lang, DOCUMENT),
        sizes,
        [False] * len(chunks),
        items,
        {p for p in ctx.templates.files([TEMPLATE])},
        pack_name,
        sheets_only=True,
    )


def _page(
    ctx: LayoutContext,
    pack: str,
    since: str,
    rows: list[dict[str, object]],
    at: tuple[int, int],
    size: tuple[float, float],
    labels: FaceLabels,
    boxes: list[TextBox] | None = None,
) -> tuple[Face, list[Problem]]:
    """One page of the list, and what laying it out met (its labels untranslated: in `labels`; a
    translated label's overflow and shrink at its catalogue entry); measuring (`ctx.measure`), its
    text boxes added to `boxes`."""
    component = f"{DOCUMENT}:{at[0]}"
    fctx = FaceContext(
        component, ctx.lang, ctx.icons, ctx.pack.root, lambda f: None, fonts=ctx.fonts, measure=ctx.measure
    )
    fctx.labels = labels
    tctx = {
        "lang": ctx.lang,
        "_": labels,
        "ngettext": labels.ngettext,
        "num": number_formatter(ctx.lang),
        "w": size[0],
        "h": size[1],
        "pack": {"id": pack, "name": ctx.localisation.name("pack.name")},
        "since": since,
        "rows": rows,
        "page": at[0],
        "pages": at[1],
        "row_height": 10.0 if size[0] < NARROW else 6.0,
        "narrow": size[0] < NARROW,
    }
    try:
        xml = ctx.templates.get(TEMPLATE).render(tctx)
        face = parse_face(xml, fctx, "front", size[0], size[1], 0.0, "rect")
        if boxes is not None:
            boxes += fctx.boxes
        return face, fctx.problems
    except TemplateError as exc:
        problem = exc.problem
    except (jinja2.TemplateError, ValueError) as exc:
        problem = Problem("template.render", f"template {TEMPLATE}: {exc}", None, component, lang=ctx.lang)
    return Face(component, "front", size[0], size[1], 0.0, ()), [problem]


def label_boxes(ctx: LayoutContext) -> list[TextBox]:
    """The boxes the list's labels print in (translators' budgets, layout/text/budget.py): a page of
    one row laid out and measured as the pack's print sheets print it, in `ctx`'s language. A label
    that shares its line with the pack's name (`removed since %(rev)s`) gets the room the line leaves
    it (`label_box`)."""
    w, h = page_size(ImposeOptions(page=ctx.pack.spec.page, landscape=None), ctx.pack.bleed_mm)
    row_height = 10.0 if w < NARROW else 6.0
    rows: list[dict[str, object]] = [{"deck": "Deck", "name": "Name", "copies": 1, "id": "x"}]
    since, labels, boxes = "HEAD~1", FaceLabels(ctx.labels), list[TextBox]()
    _page(ctx, ctx.pack.id, since, rows, (1, 1), (w, content_height(1, row_height, h)), labels, boxes)
    out = []
    for box in boxes:
        if not box.inline or not box.label:
            out.append(box)
            continue
        found = next(((text, m) for text, m in labels.said.items() if m[0] == box.label), None)
        if found is None:
            continue
        text, (msgid, written) = found
        printed = text.replace("%(rev)s", since)
        rest = f"{ctx.localisation.name('pack.name')} · "  # what the template prints beside it
        own = label_box(ctx, box, msgid, printed, written.replace("%(rev)s", since), rest)
        out += [own] if own is not None else [box]
    return out


def content_height(rows: int, row_height: float, most: float) -> float:
    """A page of the list as tall as its rows need (mm, the header and a foot included, in 5 mm steps):
    a one-line list is a slip, not a sheet; never taller than the sheet allows."""
    return min(most, math.ceil((HEADER + rows * row_height + 4) / 5) * 5)


def page_size(sheet: ImposeOptions, bleed: float) -> tuple[float, float]:
    """The largest page of the list (mm, in 5 mm steps) the sheets print alone, whole, on one side
    of one sheet: the sheet less its margins, or half of it where fold-and-glue keeps the other half
    for backs."""
    if sheet.landscape is None:  # the list reads down a portrait page unless the build turns every sheet
        sheet = replace(sheet, landscape=False)
    pw, ph = sheet.size
    clear = 2 * (sheet.margin + _CLEAR)
    for h in (ph - clear, ph / 2 - clear):
        w = pw - clear
        while w >= 40:
            try:
                pages = impose(sheet, [(w, h)], [False], bleed)
            except DoesNotFit:
                pages = []
            if len(pages) == 1 and pages[0].tile is None:
                return (w, h)
            w -= 5
    return (40.0, 60.0)  # no sheet is that small: imposition says so, in its words
