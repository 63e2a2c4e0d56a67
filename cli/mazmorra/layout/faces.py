"""A deck in one language -> a Document whose items are laid out lazily, component by component:
each face is its kind's template rendered with the component's localised data, then parsed into
drawing ops."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.contracts import Document, Face, Item, TextBox
from mazmorra.errors import Problem
from mazmorra.i18n.labels import Labels, number_formatter
from mazmorra.i18n.localise import Localised
from mazmorra.i18n.po import catalogue_path, labels_path
from mazmorra.layout import ahead
from mazmorra.layout.cache import facecache
from mazmorra.layout.context import LayoutContext, Values
from mazmorra.layout.face import compile_template, draft_marker, one_face
from mazmorra.layout.printcheck.colouronly import ColourOnly
from mazmorra.layout.versionstamp import stamp_text
from mazmorra.model.content import Deck, Kind
from mazmorra.support import workers
from mazmorra.support.filenames import deck_pdf

Backs = tuple[dict[tuple[str, tuple[float, float]], "Face | None"], dict[tuple[str, tuple[float, float]], str]]


def lay_out(deck: Deck, ctx: LayoutContext, only: Mapping[str, int] | None = None) -> Document:
    """The document of one deck in ctx's language; its items are laid out when iterated. Templates
    are compiled now, so a template syntax error stops the build before any layout. `only` (component
    id -> copies) lays out only those components, that many copies each (a round's changes)."""
    pack, lang, loc10n = ctx.pack, ctx.lang, ctx.localisation
    w, h = deck.size_mm
    deck_name = loc10n.name(f"deck:{deck.id}.name")
    pack_name = loc10n.name("pack.name")
    mine = [loc for loc in loc10n.components if loc.component.deck == deck.id]
    copies = {loc.component.id: loc.component.data.copies for loc in mine}
    if only is not None:
        mine = [loc for loc in mine if loc.component.id in only]
        copies = {cid: only[cid] for cid in copies if cid in only}
    common = {
        "lang": lang,
        "_": ctx.labels,
        "ngettext": ctx.labels.ngettext,
        "num": number_formatter(lang),
        "has_icon": ctx.icons.__contains__,  # art by convention: `icons/<id>.svg` when the pack has one
        "w": w,
        "h": h,
        "bleed": pack.bleed_mm,
        "game": pack.spec.game,
        "components": ctx.contexts,
        "deck": {
            "id": deck.id,
            "name": deck_name,
            "kind": deck.kind.name,
            "count": sum(c.data.copies for c in deck.components),
        },
        "pack": {"id": pack.id, "name": pack_name},
        "stamp": "",  # the version stamp's text in a build that stamps
        "vars": Values(ctx.values),
        "index": 0,  # the component's place in its deck (1, 2, …), set per component
        "copy": 1,  # which copy of it (1 … copies), set per copy where the template uses it
        "copies": 1,
    }
    per_copy = {k.name: ctx.templates.uses([t for t in (k.template, k.back_template) if t], "copy") for k in deck.kinds}
    choosers = {k.name: _chooser(k, ctx.labels) for k in deck.kinds}
    fronts = {k.name: compile_template(ctx, k.template) for k in deck.kinds}
    backs = {k.name: compile_template(ctx, k.back_template) for k in deck.kinds if k.back_template}
    compiled = [p for _, found in (*fronts.values(), *backs.values()) for p in found]  # reported with the document

    def items() -> Iterator[Item]:
        """Each component laid out, the last one carrying what the deck as a whole was found to have
        (`print.colour-only`); with jobs to spare (`workers.spare`), helper processes lay the last
        ones out meanwhile (layout/ahead.py)."""
        store = ctx.cache.beside("colour-only") if ctx.cache is not None else None
        kept = facecache.key(facecache.tool_hash(), "colour-only", pack.id, deck.id, lang)
        known = store.get(kept) if store is not None else None
        check = ColourOnly(lang, pack, known=known if isinstance(known, dict) else {})
        held: Item | None = None
        helper, helpers = None, workers.spare()
        if helpers and ctx.cache is not None and not ctx.measure and not ctx.shrinks and ahead.worth(len(mine)):
            ctx.helped = ctx.helped or secrets.token_hex(4)
            helper = ahead.helpers(len(mine), _ahead, ctx.cache.look_again, helpers, ctx.helped)
        for item in _items(helper):
            for face, k in ((item.front, item.keys[0]), (item.back if not item.shared_back else None, item.keys[1])):
                if face is not None:
                    check.add(face, by_id, k if k != "-" else "")
            if held is not None:
                yield held
            held = item
        if held is not None:
            yield replace(held, problems=held.problems + tuple(check.found))
        if store is not None and check.summaries.keys() != check.known.keys():
            store.put(kept, check.summaries)  # what the next build judges unchanged faces by

    by_id = {loc.component.id: loc.component for loc in mine}

    def _items(helper: ahead.Ahead | None = None) -> Iterator[Item]:
        """Every component's items in order; a helper (started here) lays the last ones out meanwhile."""
        laid_backs: Backs = ({}, {})
        if helper is not None and all(fronts[loc.component.kind.name][0] is not None for loc in mine):
            helper.start()
        try:
            for i, loc in enumerate(mine):
                if fronts[loc.component.kind.name][0] is None:
                    return  # a front that does not compile: reported with the document
                if helper is not None:
                    helper.reached(i)
                yield from _component(i, laid_backs)
        finally:
            if helper is not None:
                helper.finish()

    ahead_backs: Backs = ({}, {})  # the helper's own deck backs

    def _ahead(i: int) -> None:
        """In a helper: component i laid out into the face cache."""
        for _ in _component(i, ahead_backs):
            pass

    def _component(i: int, laid_backs: Backs) -> Iterator[Item]:
        """Component i's items: one, or one per copy (a template that prints `copy`)."""
        shared, shared_keys = laid_backs  # deck backs, one per kind and size, and their face-cache keys
        position, loc = i + 1, mine[i]
        comp, kind = loc.component, loc.component.kind
        found: list[Problem] = []  # what laying this component out met: carried by its item (its first)
        missing_before, laid_before = len(ctx.labels.missing), len(ctx.laid)
        size = comp.size_mm
        sized = {**common, "w": size[0], "h": size[1], "choice": choosers[kind.name]}
        key = (kind.name, size)
        if key not in shared:
            back_t = backs.get(kind.name, (None, []))[0]
            shared[key], back_keys = None, list[str]()
            if back_t is not None:
                shared[key], met = one_face(
                    ctx,
                    back_t,
                    {**sized, "side": "back", "card": {}, "stamp": _back_stamp(ctx, common, kind.name, size)},
                    shared_back_id(deck, kind.name, size),
                    "back",
                    lambda f: deck.loc,
                    size,
                    kind.shape,
                    None,
                    keys=back_keys,
                )
                found += met
            shared_keys[key] = back_keys[0] if back_keys else "-"  # "-": no back
        stamp = stamp_text(ctx.version, ctx.contexts[comp.id]) if ctx.stamp else ""
        n = copies[comp.id]
        for copy in range(1, n + 1) if per_copy[kind.name] else (0,):  # 0: one face for every copy
            first = copy <= 1
            yield _item(
                comp,
                loc,
                copy,
                n,
                position,
                tuple(found) if first else (),
                missing_before,
                laid_before,
                stamp,
                shared[key],
                shared_keys[key],
            )

    def _item(
        comp: Any,
        loc: Localised,
        copy: int,
        n: int,
        position: int,
        earlier: tuple[Problem, ...],
        missing_before: int,
        laid_before: int,
        stamp: str,
        shared_back: Face | None,
        shared_key: str,
    ) -> Item:
        """One component's item: every copy of it (copy 0), or only copy number `copy` (a template
        that uses `copy` draws each copy on its own)."""
        kind = comp.kind
        front_t = fronts[kind.name][0]
        assert front_t is not None
        found = list(earlier)  # what the component met before (its deck's back): carried by its first item
        if copy > 1:
            missing_before, laid_before = len(ctx.labels.missing), len(ctx.laid)
        size = comp.size_mm
        sized = {**common, "w": size[0], "h": size[1], "choice": choosers[kind.name]}
        sized.update(index=position, copy=max(copy, 1), copies=n)
        tctx = {
            **sized,
            "side": "front",
            "card": ctx.contexts[comp.id],
            "stamp": stamp,
            "missing": [k for k, t in loc.texts.items() if t.status == "missing"],
        }
        named: dict[str, str] = {}
        boxes: list[TextBox] = []
        keys: list[str] = []
        front, met = one_face(
            ctx, front_t, tctx, comp.id, "front", loc.text_loc, size, kind.shape, loc.text_lang, named, boxes, keys
        )
        found += met
        back = shared_back
        keys.append(shared_key)
        if kind.two_sided:
            keys.pop()
            back, met = one_face(
                ctx,
                front_t,
                {**tctx, "side": "back"},
                comp.id,
                "back",
                loc.text_loc,
                size,
                kind.shape,
                loc.text_lang,
                None,
                boxes,
                keys,
            )
            found += met
        untranslated = loc.untranslated()
        if ctx.draft and untranslated and front is not None:
            marked = sorted(k for k, _ in untranslated)
            front = draft_marker(front, lang, marked, ctx.icons, pack)
            keys[0] = facecache.key(keys[0], "draft", *marked) if keys[0] else ""
        if front is None:
            front = Face(comp.id, "front", size[0], size[1], pack.bleed_mm, ())  # reported; keeps positions
        return Item(
            front,
            back,
            1 if copy else n,
            not kind.two_sided,
            _export_name(loc, named.get(comp.id), deck_name, position),
            _state(untranslated, lang == pack.spec.source_language),
            tuple(f"{k} ({s})" for k, s in untranslated),
            tuple(found),
            tuple(itertools.islice(ctx.labels.missing, missing_before, None)),
            stamp,
            _taken(ctx.laid, laid_before),
            tuple(boxes),
            (keys[0], keys[1]),
        )

    names = [t for k in deck.kinds for t in (k.template, k.back_template) if t]
    inputs = {
        pack.root / "pack.yaml",
        pack.root / deck.spec.file,
        *(Path(k.source.file).resolve() for k in pack.declared_kinds.values() if k.source),  # kind files
        *fonts.font_files(),
        *(fonts.FONTS[n] for f in ctx.fonts.values() for n in (f.regular, f.bold, f.italic, f.bold_italic)),
        *ctx.templates.files(names),
    }
    if ctx.templates.uses(names, "components"):  # it prints other components (a die its enemies): their files
        inputs.update(pack.root / d.spec.file for d in pack.decks)
    for cat in (
        catalogue_path(pack.root, lang),
        labels_path(pack.root, lang),
        ctx.templates.shared / "locale" / f"{lang}.po",
    ):
        if cat.is_file():
            inputs.add(cat)
    return Document(
        pack.id,
        deck.id,
        lang,
        f"{pack_name} — {deck_name}",
        deck_name,
        deck_pdf(ctx.out_dir, pack.id, lang, deck.id),
        [loc.component.size_mm for loc in mine for _ in range(copies[loc.component.id])],
        [loc.component.kind.has_back for loc in mine for _ in range(copies[loc.component.id])],
        items,
        inputs,
        pack_name,
        compiled,
    )


def _back_stamp(ctx: LayoutContext, common: dict[str, Any], kind: str, size: tuple[float, float]) -> str:
    """A deck back's stamp: it prints the deck and the pack, so it is their hash (not the deck's count
    of copies, which a component's copies change)."""
    if not ctx.stamp:
        return ""
    deck = {k: v for k, v in common["deck"].items() if k != "count"}
    return stamp_text(ctx.version, {"deck": deck, "pack": common["pack"], "kind": kind, "size": size})


def _chooser(kind: Kind, labels: Labels) -> Callable[[str, Any], dict[str, Any]]:
    """`choice(field, value)` in templates: an enum value's word (the kind's word in the language, else
    translated like a label) and icon, as the kind declares them (`values: {reach: {label: Reach,
    icon: reach}}`, or `label: {es: Alcance, en: Reach}`)."""

    def choice(name: str, value: Any) -> dict[str, Any]:
        decl = kind.fields.get(name)
        item = decl.item() if decl is not None and decl.type == "list" else decl
        found = item.choices.get(str(value)) if item is not None else None
        if found is None:
            raise ValueError(f"choice('{name}', {value!r}): kind '{kind.name}' declares no label for that value")
        word = found.word(labels.lang)  # the kind's own word for this language, else the catalogues'
        return {"value": value, "label": word if word is not None else labels(found.msgid), "icon": found.icon}

    return choice


def shared_back_id(deck: Deck, kind: str, size: tuple[float, float]) -> str:
    """The component id of a deck back: `deck:<id>` for the deck's own kind and size, else one per
    kind and size (a deck may mix kinds and sizes), so renderers and exports never confuse them."""
    if kind == deck.kind.name and size == deck.size_mm:
        return f"deck:{deck.id}"
    return f"deck:{deck.id}:{kind}:{size[0]:g}x{size[1]:g}"


def _export_name(loc: Localised, named: str | None, deck_name: str, position: int) -> str:
    """The component's name in the build's language, for exports (TTS, cards.csv, gallery): its
    name field, else what its template calls it, else the deck's name and its place in the deck;
    never its id, which is written in the source language."""
    if "name" in loc.texts:
        return loc.texts["name"].text
    if named:
        return named
    return f"{deck_name} {position}"


def _state(untranslated: list[tuple[str, str]], source: bool) -> str:
    """A component's translation state, for exports: from its (field, state) of untranslated texts."""
    states = {s for _, s in untranslated}
    if "untranslated" in states:
        return "untranslated"
    if "fuzzy" in states:
        return "fuzzy"
    return "source" if source else "translated"


def _taken(laid: list[str], since: int) -> tuple[str, ...]:
    """The faces laid out since `since`, taken off the list: an item carries its own, and a deck of
    10,000 cards does not keep every name twice."""
    mine = tuple(laid[since:])
    del laid[since:]
    return mine
