"""Translators' budgets: the box each text is set in, its type sizes and how many characters fit
it, measured by laying the pack out in its source language with the fitting engine itself; and the
box each template label is printed in (the tightest, where it prints in several): on the pack's
faces, and where the tool prints its own labels (the removal list's page, the draft band)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextBox
from mazmorra.i18n.catalogues.budgets import LabelBox
from mazmorra.i18n.catalogues.labelcat import reference
from mazmorra.i18n.labels import Labels
from mazmorra.i18n.localise import localise
from mazmorra.layout.context import LayoutContext
from mazmorra.layout.face import band_boxes
from mazmorra.layout.faces import lay_out
from mazmorra.layout.templates import Templates
from mazmorra.model.content import Pack
from mazmorra.support.paths import templates_dir

DRAFT_BAND = "the draft band"  # where a band word's box is, in its note
Measured = tuple[dict[tuple[str, str], TextBox], dict[str, LabelBox]]
# A page the tool prints itself, by the name a label's note gives it: its text boxes, laid out and
# measured in a context's language (rounds/removal.py `label_boxes`: floors above lay it out).
Page = Callable[[LayoutContext], list[TextBox]]


def text_boxes(pack: Pack, templates: Templates | None = None) -> dict[tuple[str, str], TextBox]:
    """(component id, field) -> the box its source text is set in, with its measured capacity (the
    first box a field is printed in, front before back)."""
    return measured_boxes(pack, templates)[0]


def measured_boxes(pack: Pack, templates: Templates | None = None, pages: Mapping[str, Page] | None = None) -> Measured:
    """The fields' boxes (`text_boxes`) and, by msgid, the box each template label is printed in:
    the tightest it fills alone (the least room at its design size), else a text it is part of; on
    the pack's components, the tool's own `pages` and the draft band."""
    lang = pack.spec.source_language
    tmpl = templates or Templates(pack.root, templates_dir())
    ctx = LayoutContext(
        pack,
        localise(pack, lang),
        tmpl,
        IconSet.for_pack(pack.root),
        Labels(pack.root, templates_dir(), lang),
        Path("output"),
        draft=True,
        measure=True,
    )
    out: dict[tuple[str, str], TextBox] = {}
    printed: dict[str, dict[tuple[object, ...], tuple[str, TextBox]]] = {}  # msgid -> distinct boxes

    def label_at(box: TextBox, component: str) -> None:
        key = (box.at, box.inline, box.w, box.h, box.size, box.min_size, box.font)
        printed.setdefault(box.label, {}).setdefault(key, (component, box))

    narrowest = None
    for deck in pack.decks:
        for item in lay_out(deck, ctx).items():
            narrowest = min(narrowest or item.front.w, item.front.w)
            for box in item.boxes:
                if box.label:
                    label_at(box, item.front.component)
                else:
                    out.setdefault((item.front.component, box.field), box)
    # the tool's own pages and band, where their labels print: the draft band on the narrowest face
    for page, measure in (pages or {}).items():
        for box in measure(ctx):
            if box.label:
                label_at(box, page)
    for box in band_boxes(ctx, narrowest) if narrowest is not None else ():
        label_at(box, DRAFT_BAND)
    labels = {}
    for msgid, places in printed.items():
        own = [(c, b) for c, b in places.values() if not b.inline and b.room is not None]
        shared = [(c, b) for c, b in places.values() if b.inline]
        comp, box = min(own, key=lambda cb: (cb[1].room or 0, cb[1].capacity or 0)) if own else shared[0]
        name, line = reference(tmpl.element_loc(box.at, None), pack.root)
        where = f"{name}:{line}" if line != "0" else name
        if comp == DRAFT_BAND:  # drawn by the tool, written in no template
            comp, where = "the narrowest face", DRAFT_BAND
        elif box.at is None and comp in (pages or {}):  # a page the tool draws in code, in no template
            comp, where = f"{pack.spec.page.upper()} paper", comp
        labels[msgid] = LabelBox(box if own else None, where, comp, len(own), len(shared))
    return out, labels
