"""A deck in one language -> a Document whose items are laid out lazily, component by component:
each face is its kind's template rendered with the component's localised data, then parsed into
drawing ops."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import jinja2

from mazmorra import fonts
from mazmorra.contracts import Document, Face, Item, TextBox
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.i18n.labels import Labels, number_formatter
from mazmorra.i18n.localise import Localisation, Localised
from mazmorra.i18n.po import catalogue_path, labels_path
from mazmorra.icons import IconSet
from mazmorra.layout import facecache
from mazmorra.layout.attrs import ElementError, FaceContext
from mazmorra.layout.colouronly import ColourOnly
from mazmorra.layout.elements import parse_face
from mazmorra.layout.templates import TemplateError, Templates
from mazmorra.layout.versionstamp import printed_in, stamp_face, stamp_text
from mazmorra.model import Deck, Kind, Pack
from mazmorra.printers import Printer
from mazmorra.wording import template_words


class Values(dict[str, str]):
    """`vars` in templates: the build's --set values; a name not set reads as "" (so `{% if
    vars.playtest %}` needs no `is defined`)."""

    def __missing__(self, key: str) -> str:
        return ""


@dataclass
class LayoutContext:
    """What laying out a pack in one language needs, shared by all its decks."""

    pack: Pack
    localisation: Localisation
    templates: Templates
    icons: IconSet
    labels: Labels
    out_dir: Path
    draft: bool  # untranslated texts fall back visibly, marked on the face
    stamp: bool = False  # every face carries its version stamp (a playtest build, `build --stamp`)
    version: str | None = None  # the pack's version the stamp prints (layout/versionstamp.py)
    values: tuple[tuple[str, str], ...] = ()  # `build --set NAME=VALUE`: `vars.NAME` in templates (print variants)
    cache: facecache.FaceCache | None = None  # faces laid out by earlier builds (layout/facecache.py)
    measure: bool = False  # measure each text box's capacity in characters (a translator's budget)
    shrinks: bool = False  # report each text set below its design size (`text.shrunk`)
    printer: Printer | None = None  # a print-shop build (`--printer`): its preflight runs on every face
    problems: list[Problem] = field(init=False)  # what setting up found (the pack's own fonts)
    contexts: dict[str, dict[str, Any]] = field(init=False)  # every component's data: `components` in templates
    fonts: dict[str, fonts.Faces] = field(init=False)  # the pack's own font families and faces
    keys: dict[str, bytes] = field(init=False, default_factory=dict)  # face cache: what keys share, by part
    laid: list[str] = field(init=False, default_factory=list)  # "<component>/<side>" of every face laid out

    def __post_init__(self) -> None:
        self.contexts = {loc.component.id: loc.context() for loc in self.localisation.components}
        self.fonts, problems = fonts.pack_fonts(self.pack.root)
        self.problems = [template_problem(p) for p in problems]

    def context_hash(self, cid: str) -> str:
        """A component's context as a hash (`components[cid]` in a template); "" for one the pack lacks."""
        if cid == facecache.ALL:
            return self.context_hash("\0every")
        if f"c:{cid}" not in self.keys:
            whole = self.contexts if cid == "\0every" else self.contexts.get(cid)
            self.keys[f"c:{cid}"] = facecache.digest(facecache.canonical(whole)) if whole is not None else b""
        return self.keys[f"c:{cid}"].hex()

    def face_key(self, template: str, tctx: dict[str, Any], *face: object) -> str:
        """The face cache's key of a face: what every face of the build shares (tool, pack files, print
        settings, language, labels), its template with what it includes, and its own context."""
        if "" not in self.keys:
            pack, labels = self.pack, self.labels
            skip = [pack.root / d.spec.file for d in pack.decks]
            self.keys[""] = facecache.digest(
                facecache.tool_hash(),
                facecache.pack_hash(pack.root, skip),
                facecache.canonical(
                    [pack.spec, pack.bleed_mm, self.lang, self.draft, self.stamp, self.version, self.printer]
                ),
                facecache.canonical(sorted(self.fonts.items())),
                facecache.labels_hash(labels.table, labels.plurals, labels.plural_index),
            )
        if template not in self.keys:
            self.keys[template] = facecache.digest(template, facecache.files_hash(self.templates.files([template])))
        own = {k: v for k, v in tctx.items() if k != "components" and not callable(v)}
        return facecache.key(self.keys[""], self.keys[template], facecache.canonical([own, *face]))

    @property
    def lang(self) -> str:
        return self.localisation.lang


def template_problem(problem: Problem) -> Problem:
    """A mistake of a template: reported once, at its line, whichever components and languages it
    hits (stage 5 keeps the first report)."""
    return replace(problem, once=True)


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
    fronts = {k.name: _compile(ctx, k.template) for k in deck.kinds}
    backs = {k.name: _compile(ctx, k.back_template) for k in deck.kinds if k.back_template}
    compiled = [p for _, found in (*fronts.values(), *backs.values()) for p in found]  # reported with the document

    def items() -> Iterator[Item]:
        """Each component laid out, the last one carrying what the deck as a whole was found to have
        (`print.colour-only`)."""
        check = ColourOnly(lang, pack)
        held: Item | None = None
        for item in _items():
            for face in (item.front, item.back if not item.shared_back else None):
                if face is not None:
                    check.add(face, by_id)
            if held is not None:
                yield held
            held = item
        if held is not None:
            yield replace(held, problems=held.problems + tuple(check.found))

    by_id = {loc.component.id: loc.component for loc in mine}

    def _items() -> Iterator[Item]:
        shared: dict[tuple[str, tuple[float, float]], Face | None] = {}  # deck backs, one per kind and size
        for position, loc in enumerate(mine, 1):
            comp, kind = loc.component, loc.component.kind
            front_t = fronts[kind.name][0]
            if front_t is None:
                return
            found: list[Problem] = []  # what laying this component out met: carried by its item (its first)
            missing_before, laid_before = len(ctx.labels.missing), len(ctx.laid)
            size = comp.size_mm
            sized = {**common, "w": size[0], "h": size[1], "choice": choosers[kind.name]}
            key = (kind.name, size)
            if key not in shared:
                back_t = backs.get(kind.name, (None, []))[0]
                shared[key] = None
                if back_t is not None:
                    shared[key], met = _face(
                        ctx,
                        back_t,
                        {**sized, "side": "back", "card": {}, "stamp": _back_stamp(ctx, common, kind.name, size)},
                        shared_back_id(deck, kind.name, size),
                        "back",
                        lambda f: deck.loc,
                        size,
                        kind.shape,
                        None,
                    )
                    found += met
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
        front, met = _face(
            ctx, front_t, tctx, comp.id, "front", loc.text_loc, size, kind.shape, loc.text_lang, named, boxes
        )
        found += met
        back = shared_back
        if kind.two_sided:
            back, met = _face(
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
            )
            found += met
        untranslated = loc.untranslated()
        if ctx.draft and untranslated and front is not None:
            front = _draft_marker(front, lang, sorted(k for k, _ in untranslated), ctx.icons, pack)
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
            tuple(ctx.laid[laid_before:]),
            tuple(boxes),
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
        ctx.out_dir / pack.id / lang / f"{deck.id}.pdf",
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


NAME_VAR = "component_name"  # what a template sets to name a component that has no name field


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


def _compile(ctx: LayoutContext, name: str | None) -> tuple[jinja2.Template | None, list[Problem]]:
    """The template compiled, or None and why it does not compile."""
    if name is None:
        return None, []
    try:
        return ctx.templates.get(name), []
    except TemplateError as exc:
        return None, [template_problem(exc.problem)]


def _face(
    ctx: LayoutContext,
    template: jinja2.Template,
    tctx: dict[str, Any],
    component: str,
    side: str,
    text_loc: Callable[[str | None], Loc | None],
    size: tuple[float, float],
    shape: str,
    text_lang: Callable[[str | None], str] | None,
    names: dict[str, str] | None = None,
    boxes: list[TextBox] | None = None,
) -> tuple[Face | None, list[Problem]]:
    """One face from the face cache, else laid out (and stored there): see `_lay_face`. Measuring
    text boxes or reporting shrinks (a translator's budgets) always lays the face out."""
    if ctx.cache is None or ctx.measure or ctx.shrinks:
        ctx.laid.append(f"{component}/{side}")
        return _lay_face(ctx, template, tctx, component, side, text_loc, size, shape, text_lang, names, boxes)
    langs = [text_lang(f) for f in tctx["card"]] if text_lang is not None else []  # hyphenation follows them
    k = ctx.face_key(template.name or "", tctx, component, side, size, shape, names is not None, langs)

    def lay(
        at: Callable[[str | None], Loc | None], seen: facecache.Recorded
    ) -> tuple[Face | None, list[Problem], str | None]:
        mine: dict[str, str] = {}
        own = {**tctx, "components": seen}  # what it reads of other components is part of its key
        face, problems = _lay_face(ctx, template, own, component, side, at, size, shape, text_lang, mine)
        return face, problems, mine.get(component)

    face, problems, name, fresh = facecache.through(
        ctx.cache, k, text_loc, ctx.labels, ctx.contexts, ctx.context_hash, lay
    )
    if fresh:
        ctx.laid.append(f"{component}/{side}")
    if names is not None and name is not None:
        names[component] = name
    return face, problems


def _lay_face(
    ctx: LayoutContext,
    template: jinja2.Template,
    tctx: dict[str, Any],
    component: str,
    side: str,
    text_loc: Callable[[str | None], Loc | None],
    size: tuple[float, float],
    shape: str,
    text_lang: Callable[[str | None], str] | None,
    names: dict[str, str] | None = None,
    boxes: list[TextBox] | None = None,
) -> tuple[Face | None, list[Problem]]:
    """One face: the template rendered and parsed (None when it cannot be), and the problems it met.
    The name the template gives the component (`{% set component_name = … %}`) goes into `names`."""
    fctx = FaceContext(
        component,
        ctx.lang,
        ctx.icons,
        ctx.pack.root,
        text_loc,
        fonts=ctx.fonts,
        text_lang=text_lang,
        printing=ctx.pack.spec.print,
        measure=ctx.measure,
        shrinks=ctx.shrinks,
    )
    try:
        jctx = template.new_context(tctx)
        try:  # as Template.render, keeping the context: a template may name its component (below)
            xml = template.environment.concat(template.root_render_func(jctx))
        except Exception:
            template.environment.handle_exception()
        face = parse_face(xml, fctx, side, size[0], size[1], ctx.pack.bleed_mm, shape)
        if tctx["stamp"] and (fctx.stamp_at is not None or not printed_in(face, tctx["stamp"])):
            stamped = stamp_face(face, fctx, tctx["stamp"])
            if stamped is None:
                fctx.problems.append(_no_room(ctx, face, template))
            face = stamped or face
        if names is not None and isinstance(jctx.vars.get(NAME_VAR), str):
            names[component] = jctx.vars[NAME_VAR].strip()
        if boxes is not None:
            boxes += fctx.boxes
    except (RecursionError, jinja2.TemplateError, ValueError) as exc:
        if isinstance(exc, (RecursionError, jinja2.TemplateError)):  # at the template line it happened at
            rule, loc = "template.render", ctx.templates.render_loc(exc, template)
        else:  # a bad element: at the line that wrote it
            at = exc.at if isinstance(exc, ElementError) else None
            rule, loc = "template.element", ctx.templates.element_loc(at, template)
        message = f"template {template.name}: {template_words(str(exc))}"
        if isinstance(exc, RecursionError):
            message = f"template {template.name} includes itself (endless recursion)"
        return None, [template_problem(Problem(rule, message, loc, component, lang=ctx.lang))]
    return face, fctx.problems + _print_checks(ctx, face, fctx, template)


def _no_room(ctx: LayoutContext, face: Face, template: jinja2.Template) -> Problem:
    """A face too small or too full for the version stamp anywhere along its safe area."""
    return template_problem(
        Problem(
            "stamp.no-room",
            f"{face.side}: no room for the version stamp along the safe area's edges that covers no text or "
            "icon (said once for every face of this template that has as little); give it a place with "
            '<stamp x= y= overlap="ok"/> in the template (docs/templates.md)',
            ctx.templates.element_loc(None, template),
            face.component,
            severity=Severity.WARNING,
            lang=ctx.lang,
        )
    )


def _print_checks(ctx: LayoutContext, face: Face, fctx: FaceContext, template: jinja2.Template) -> list[Problem]:
    """Contrast, overlaps and the safe area of a face, each reported once at its template line.
    Contrast below the pack's ratio is an error; overlaps and the safe area are warnings (the
    template may mean them: overlap="ok" says so)."""
    from mazmorra.layout.printcheck import check_face

    problems = []
    findings = check_face(face, fctx.owners, ctx.pack.spec.print, ctx.icons, fctx.safe_margin)
    if ctx.printer is not None:
        from mazmorra.layout.preflight import preflight_face

        pack_safe = fctx.safe_margin if fctx.safe_margin is not None else ctx.pack.spec.print.safe_mm
        findings += preflight_face(face, fctx.owners, ctx.printer, ctx.icons, pack_safe, fctx.root_at)
    for found in findings:
        other = f" ({ctx.templates.element_loc(found.other, template)})" if found.other else ""
        problems.append(
            template_problem(
                Problem(
                    found.rule,
                    f"{face.side}: " + found.message.replace("{other}", other),
                    ctx.templates.element_loc(found.at, template),
                    face.component,
                    severity=Severity.ERROR if found.rule in ("print.contrast", "preflight.ink") else Severity.WARNING,
                    lang=ctx.lang,
                )
            )
        )
    return problems


def _draft_marker(face: Face, lang: str, fields: list[str], icons: IconSet, pack: Pack) -> Face:
    """A red band along the top edge naming the untranslated fields, so a draft print cannot pass
    for final: inside the trim only as far as the safe margin, so it hides none of the card's text
    (which, untranslated, shows the source text)."""
    band = 3.2  # mm of the trim: the margin no template prints text in
    for words in (f"UNTRANSLATED ({lang}): {', '.join(fields)}", f"UNTRANSLATED ({lang}): {len(fields)} texts"):
        xml = (
            f'<card><rect x="{-face.bleed}" y="{-face.bleed}" w="{face.w + 2 * face.bleed}" h="{band + face.bleed}" '
            f'fill="#c0392b"/><text x="1.5" y="0.3" w="{face.w - 3}" h="{band - 0.5}" font="sans-bold" size="7" '
            f'min-size="5.5" role="label" align="center" valign="middle" color="#ffffff">{escape(words)}</text></card>'
        )
        fctx = FaceContext(face.component, lang, icons, pack.root, lambda f: None)
        overlay = parse_face(xml, fctx, face.side, face.w, face.h, face.bleed, face.shape)
        if not fctx.problems:
            break
    return replace(face, ops=face.ops + overlay.ops)
