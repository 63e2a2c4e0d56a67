"""Translators' budgets: the box each text is set in, its type sizes and how many characters fit
it, measured by laying the pack out in its source language with the fitting engine itself; and the
box each template label is printed in (the tightest, where it prints in several)."""

from __future__ import annotations

from pathlib import Path

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextBox
from mazmorra.i18n.catalogues.budgets import LabelBox
from mazmorra.i18n.catalogues.labelcat import reference
from mazmorra.i18n.labels import Labels
from mazmorra.i18n.localise import localise
from mazmorra.layout.context import LayoutContext
from mazmorra.layout.faces import lay_out
from mazmorra.layout.templates import Templates
from mazmorra.model.content import Pack
from mazmorra.support.paths import templates_dir

Measured = tuple[dict[tuple[str, str], TextBox], dict[str, LabelBox]]


def text_boxes(pack: Pack, templates: Templates | None = None) -> dict[tuple[str, str], TextBox]:
    """(component id, field) -> the box its source text is set in, with its measured capacity (the
    first box a field is printed in, front before back)."""
    return measured_boxes(pack, templates)[0]


def measured_boxes(pack: Pack, templates: Templates | None = None) -> Measured:
    """The fields' boxes (`text_boxes`) and, by msgid, the box each template label is printed in:
    the tightest it fills alone (the least room at its design size), else a text it is part of."""
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
    for deck in pack.decks:
        for item in lay_out(deck, ctx).items():
            for box in item.boxes:
                if box.label:
                    key = (box.at, box.inline, box.w, box.h, box.size, box.min_size, box.font)
                    printed.setdefault(box.label, {}).setdefault(key, (item.front.component, box))
                else:
                    out.setdefault((item.front.component, box.field), box)
    labels = {}
    for msgid, places in printed.items():
        own = [(c, b) for c, b in places.values() if not b.inline and b.room is not None]
        shared = [(c, b) for c, b in places.values() if b.inline]
        comp, box = min(own, key=lambda cb: (cb[1].room or 0, cb[1].capacity or 0)) if own else shared[0]
        name, line = reference(tmpl.element_loc(box.at, None), pack.root)
        where = f"{name}:{line}" if line != "0" else name
        labels[msgid] = LabelBox(box if own else None, where, comp, len(own), len(shared))
    return out, labels
