"""Translators' budgets: the box each text is set in, its type sizes and how many characters fit
it, measured by laying the pack out in its source language with the fitting engine itself."""

from __future__ import annotations

from pathlib import Path

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextBox
from mazmorra.i18n.labels import Labels
from mazmorra.i18n.localise import localise
from mazmorra.layout.context import LayoutContext
from mazmorra.layout.faces import lay_out
from mazmorra.layout.templates import Templates
from mazmorra.model.content import Pack
from mazmorra.support.paths import templates_dir


def text_boxes(pack: Pack, templates: Templates | None = None) -> dict[tuple[str, str], TextBox]:
    """(component id, field) -> the box its source text is set in, with its measured capacity (the
    first box a field is printed in, front before back)."""
    lang = pack.spec.source_language
    ctx = LayoutContext(
        pack,
        localise(pack, lang),
        templates or Templates(pack.root, templates_dir()),
        IconSet.for_pack(pack.root),
        Labels(pack.root, templates_dir(), lang),
        Path("output"),
        draft=True,
        measure=True,
    )
    out: dict[tuple[str, str], TextBox] = {}
    for deck in pack.decks:
        for item in lay_out(deck, ctx).items():
            for box in item.boxes:
                out.setdefault((item.front.component, box.field), box)
    return out
