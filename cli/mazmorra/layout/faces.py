"""A deck in one language -> a Document whose items are laid out lazily, component by component:
each face is its kind's template rendered with the component's localised data, then parsed into
drawing ops."""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.contracts import Document, Face, Item
from mazmorra.i18n.labels import number_formatter
from mazmorra.i18n.localise import Localised
from mazmorra.i18n.po import catalogue_path, labels_path
from mazmorra.layout import ahead
from mazmorra.layout.cache import facecache
from mazmorra.layout.context import LayoutContext, Values
from mazmorra.layout.face import (
    FaceJob,
    Laid,
    compile_template,
    draft_marker,
    fallbacks,
    one_face,
    probe_face,
    probe_xml,
)
from mazmorra.layout.printcheck import colourprobe
from mazmorra.layout.printcheck.colouronly import ColourOnly
from mazmorra.layout.versionstamp import stamp_text
from mazmorra.model.content import Deck, Kind
from mazmorra.support.filenames import deck_pdf

Backs = dict[tuple[str, tuple[float, float]], Laid | None]  # a deck's backs by kind and size (None: it has none)


def lay_out(deck: Deck, ctx: LayoutContext, only: Mapping[str, int] | None = None) -> Document:
    """The document of one deck in ctx's language; its items are laid out when iterated. Templates
    are compiled now, so a template syntax error stops the build before any layout. `only` (component
    id -> copies) lays out only those components, that many copies each (a round's changes)."""
    laying = _DeckLayout(deck, ctx, only)
    pack, lang = ctx.pack, ctx.lang
    mine, copies = laying.mine, laying.copies
    return Document(
        pack.id,
        deck.id,
        deck.file_name(lang),
        lang,
        f"{laying.pack_name} — {laying.deck_name}",
        laying.deck_name,
        deck_pdf(ctx.out_dir, pack.id, lang, deck.file_name(lang)),
        [loc.component.size_mm for loc in mine for _ in range(copies[loc.component.id])],
        [loc.component.kind.has_back for loc in mine for _ in range(copies[loc.component.id])],
        laying.items,
        _inputs(deck, ctx),
        laying.pack_name,
        laying.compiled,
    )


class _DeckLayout:
    """One deck laid out in one language, component by component: what every face of the deck shares
    (the templates compiled, the context common to all), and its items made on demand."""

    def __init__(self, deck: Deck, ctx: LayoutContext, only: Mapping[str, int] | None):
        self.deck, self.ctx = deck, ctx
        loc10n = ctx.localisation
        self.deck_name = loc10n.name(f"deck:{deck.id}.name")
        self.pack_name = loc10n.name("pack.name")
        self.mine = [loc for loc in loc10n.components if loc.component.deck == deck.id]
        self.copies = {loc.component.id: loc.component.data.copies for loc in self.mine}
        if only is not None:
            self.mine = [loc for loc in self.mine if loc.component.id in only]
            self.copies = {cid: only[cid] for cid in self.copies if cid in only}
        self.common = self._common()
        kinds, templates = deck.kinds, ctx.templates
        self.per_copy = {k.name: templates.uses([t for t in (k.template, k.back_template) if t], "copy") for k in kinds}
        self.fronts = {k.name: compile_template(ctx, k.template) for k in kinds}
        self.backs = {k.name: compile_template(ctx, k.back_template) for k in kinds if k.back_template}
        found = (*self.fronts.values(), *self.backs.values())
        self.compiled = [p for _, problems in found for p in problems]  # reported with the document
        self.by_id = {loc.component.id: loc.component for loc in self.mine}
        self.ahead_backs: Backs = {}  # a helper's own deck backs
        # print.colour-only's probes: each kind's first face jobs, the values its fields take in the deck
        self.probes: dict[str, list[FaceJob]] = {}
        self.values: dict[str, colourprobe.FieldValues] = {}

    def _common(self) -> dict[str, Any]:
        """The template context every face of the deck shares (each face adds its labels)."""
        ctx, deck, pack = self.ctx, self.deck, self.ctx.pack
        w, h = deck.size_mm
        return {
            "lang": ctx.lang,
            "num": number_formatter(ctx.lang),
            "has_icon": ctx.icons.__contains__,  # art by convention: `icons/<id>.svg` when the pack has one
            "w": w,
            "h": h,
            "bleed": pack.bleed_mm,
            "game": pack.spec.game,
            "components": ctx.contexts,
            "deck": {
                "id": deck.id,
                "name": self.deck_name,
                "kind": deck.kind.name,
                "count": sum(c.data.copies for c in deck.components),
            },
            "pack": {"id": pack.id, "name": self.pack_name},
            "stamp": "",  # the version stamp's text in a build that stamps
            "vars": Values(ctx.values),
            "index": 0,  # the component's place in its deck (1, 2, …), set per component
            "copy": 1,  # which copy of it (1 … copies), set per copy where the template uses it
            "copies": 1,
        }

    def items(self, spare: int = 0) -> Iterator[Item]:
        """Each component laid out, the last one carrying what the deck as a whole was found to have
        (`print.colour-only`); with `spare` processes, helpers lay the last ones out meanwhile
        (layout/ahead.py)."""
        ctx, pack, lang = self.ctx, self.ctx.pack, self.ctx.lang
        store = ctx.cache.beside("colour-only") if ctx.cache is not None else None
        kept = facecache.key(facecache.tool_hash(), "colour-only", pack.id, self.deck.id, lang)
        known = store.get(kept) if store is not None else None
        check = ColourOnly(lang, pack, known=known if isinstance(known, dict) else {})
        held: Item | None = None
        helper, helpers = None, spare
        n = len(self.mine)
        if helpers and ctx.cache is not None and not ctx.measure and not ctx.shrinks and ahead.worth(n):
            ctx.helped = ctx.helped or secrets.token_hex(4)
            helper = ahead.helpers(n, self._ahead, ctx.cache.look_again, helpers, ctx.helped)
        for item in self._items(helper):
            for face, k in ((item.front, item.keys[0]), (item.back if not item.shared_back else None, item.keys[1])):
                if face is not None:
                    check.add(face, self.by_id, k if k != "-" else "")
            if held is not None:
                yield held
            held = item
        self._probe(check)
        if held is not None:
            yield replace(held, problems=held.problems + tuple(check.found))
        if store is not None and check.summaries.keys() != check.known.keys():
            store.put(kept, check.summaries)  # what the next build judges unchanged faces by
        fonts.keep_measured()  # the glyph boxes the print checks measured, for the next build

    def _probe(self, check: ColourOnly) -> None:
        """Each kind's templates probed for fields that change only colours (layout/printcheck/colourprobe.py)."""
        ctx = self.ctx
        for kind, jobs in self.probes.items():
            sides = []
            for job in jobs:

                def write(name: str, value: object, job: FaceJob = job) -> str | None:
                    return probe_xml(ctx, _probed(job, name, value))

                def lay(name: str, value: object, job: FaceJob = job) -> Face | None:
                    return probe_face(ctx, _probed(job, name, value))

                sides.append(colourprobe.Side(kind if len(jobs) == 1 else f"{kind} {job.side}", write, lay))
            colourprobe.probe(check, sides, self.values[kind], self.by_id)

    def _items(self, helper: ahead.Ahead | None = None) -> Iterator[Item]:
        """Every component's items in order; a helper (started here) lays the last ones out meanwhile."""
        laid_backs: Backs = {}
        if helper is not None and all(self.fronts[loc.component.kind.name][0] is not None for loc in self.mine):
            helper.start()
        try:
            for i, loc in enumerate(self.mine):
                if self.fronts[loc.component.kind.name][0] is None:
                    return  # a front that does not compile: reported with the document
                if helper is not None:
                    helper.reached(i)
                yield from self._component(i, laid_backs)
        finally:
            if helper is not None:
                helper.finish()

    def _ahead(self, i: int) -> None:
        """In a helper: component i laid out into the face cache."""
        for _ in self._component(i, self.ahead_backs):
            pass

    def _component(self, i: int, laid_backs: Backs) -> Iterator[Item]:
        """Component i's items: one, or one per copy (a template that prints `copy`). The deck back
        it is the first to need is laid out now, and what that met rides on its first item."""
        ctx, comp = self.ctx, self.mine[i].component
        kind, size = comp.kind, comp.size_mm
        key = (kind.name, size)
        earlier = None
        if key not in laid_backs:
            laid_backs[key] = earlier = self._deck_back(kind, size)
        stamp = stamp_text(ctx.version, ctx.contexts[comp.id]) if ctx.stamp else ""
        for copy in range(1, self.copies[comp.id] + 1) if self.per_copy[kind.name] else (0,):  # 0: every copy
            yield self._item(i, copy, stamp, laid_backs[key], earlier if copy <= 1 else None)

    def _deck_back(self, kind: Kind, size: tuple[float, float]) -> Laid | None:
        """The back a kind's components of this size share (None: the kind has no back template)."""
        back_t = self.backs.get(kind.name, (None, []))[0]
        if back_t is None:
            return None
        stamp = _back_stamp(self.ctx, self.common, kind.name, size)
        tctx = {**self.common, "w": size[0], "h": size[1], "side": "back", "card": {}, "stamp": stamp}
        component = shared_back_id(self.deck, kind.name, size)
        laid = one_face(self.ctx, FaceJob(back_t, tctx, component, "back", kind, size, lambda f: self.deck.loc))
        if self.ctx.draft:
            face, key = self._banded(laid, [], laid.key)
            laid = replace(laid, face=face, key=key)
        return laid

    def _banded(self, laid: Laid, fields: list[tuple[str, str]], key: str) -> tuple[Face | None, str]:
        """A face of a draft with its band when it prints anything in another language (its fields,
        labels, other components' texts), and its key as chunks know it."""
        ctx = self.ctx
        marks = fallbacks(fields, laid.labels, ctx.labels, ctx.contexts.untranslated)
        if laid.face is None or not marks:
            return laid.face, key
        face = draft_marker(laid.face, ctx.lang, marks, ctx.icons, ctx.pack, ctx.labels)
        return face, facecache.key(key, "draft", *(f"{w}={s}" for w, s in marks)) if key else ""

    def _item(self, i: int, copy: int, stamp: str, shared: Laid | None, earlier: Laid | None) -> Item:
        """Component i's item: every copy of it (copy 0), or only copy number `copy` (a template that
        uses `copy` draws each copy on its own), carrying what its faces (and `earlier`: the deck back
        it was first to need) met."""
        ctx, pack, lang = self.ctx, self.ctx.pack, self.ctx.lang
        loc = self.mine[i]
        comp, kind, size = loc.component, loc.component.kind, loc.component.size_mm
        front_t = self.fronts[kind.name][0]
        assert front_t is not None
        n = self.copies[comp.id]
        tctx = {
            **self.common,
            "w": size[0],
            "h": size[1],
            "index": i + 1,
            "copy": max(copy, 1),
            "copies": n,
            "side": "front",
            "card": ctx.contexts[comp.id],
            "stamp": stamp,
            "missing": [k for k, t in loc.texts.items() if t.status == "missing"],
        }
        job = FaceJob(
            front_t,
            tctx,
            comp.id,
            "front",
            kind,
            size,
            loc.text_loc,
            loc.text_lang,
            named=True,
            source_of=loc.source_of,
        )
        back_job = replace(job, tctx={**tctx, "side": "back"}, side="back", named=False) if kind.two_sided else None
        if kind.name not in self.probes:
            self.probes[kind.name] = [job, back_job] if back_job is not None else [job]
        self.values.setdefault(kind.name, colourprobe.FieldValues()).add(comp.id, _unread(tctx["card"]), loc.texts)
        front = one_face(ctx, job)
        own = [front]
        if back_job is not None:
            own.append(one_face(ctx, back_job))
            back_face, keys = own[1].face, [front.key, own[1].key]
        else:
            back_face, keys = (shared.face, [front.key, shared.key]) if shared is not None else (None, [front.key, "-"])
        named = [f"{comp.id}/front", f"{comp.id}/back"]
        faces = [(x, name) for x, name in zip(own, named)]
        if earlier is not None:  # the deck back it was first to need: laid out before its own faces
            faces.insert(0, (earlier, f"{shared_back_id(self.deck, kind.name, size)}/back"))
        untranslated = loc.untranslated()
        face = front.face
        if ctx.draft:  # every face that prints something in another language carries the band
            face, keys[0] = self._banded(front, sorted(untranslated), keys[0])
            if kind.two_sided:
                back_face, keys[1] = self._banded(own[1], [], keys[1])
        if face is None:
            face = Face(comp.id, "front", size[0], size[1], pack.bleed_mm, ())  # reported; keeps positions
        return Item(
            face,
            back_face,
            1 if copy else n,
            not kind.two_sided,
            _export_name(loc, front.name, self.deck_name, i + 1),
            _state(untranslated, lang == pack.spec.source_language),
            tuple(f"{k} ({s})" for k, s in untranslated),
            tuple(p for x, _ in faces for p in x.problems),
            tuple(dict.fromkeys(label for x, _ in faces for label in x.labels)),
            stamp,
            tuple(name for x, name in faces if x.now),
            tuple(b for x in (*own, *([earlier] if earlier is not None else [])) for b in x.boxes),
            (keys[0], keys[1]),
            tuple(t.text for k, t in loc.texts.items() if k != "name" and t.text),
        )


def _probed(job: FaceJob, name: str, value: object) -> FaceJob:
    """A face job with its component's field `name` set to `value` (a probe of its template)."""
    return replace(job, tctx={**job.tctx, "card": {**_unread(job.tctx["card"]), name: value}})


def _back_stamp(ctx: LayoutContext, common: dict[str, Any], kind: str, size: tuple[float, float]) -> str:
    """A deck back's stamp: it prints the deck and the pack, so it is their hash (not the deck's count
    of copies, which a component's copies change)."""
    if not ctx.stamp:
        return ""
    deck = {k: v for k, v in common["deck"].items() if k != "count"}
    return stamp_text(ctx.version, {"deck": deck, "pack": common["pack"], "kind": kind, "size": size})


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


def _inputs(deck: Deck, ctx: LayoutContext) -> set[Path]:
    """Every file a deck's document in ctx's language is made from (make's dependency file): the
    pack's and the deck's files, kind files, fonts, templates, and the language's catalogues."""
    pack, lang = ctx.pack, ctx.lang
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
    return inputs


def _unread(card: Any) -> dict[str, Any]:
    """A component's fields for the colour-only probes, copied without going through the mapping's
    own methods: a playtest round's diff notes the fields a template reads (rounds/compare.py), and
    the probes' look at every field is not the template printing them."""
    if isinstance(card, dict):  # dict's own methods: a subclass may override the mapping ones
        return {k: dict.__getitem__(card, k) for k in dict.keys(card)}
    return dict(card)
