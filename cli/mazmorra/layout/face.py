"""One face: its template rendered with a component's context and parsed into drawing ops, then
print-checked (and preflighted for a print shop), or taken from the face cache when nothing it is
made of changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from html import escape  # not xml.sax.saxutils: it imports urllib.request, http and ssl
from typing import Any

import jinja2

from mazmorra.assets import fonts
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face, TextBox
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.i18n.labels import BAND_WORDS, BORROWED, FaceLabels, Labels
from mazmorra.layout.cache import facecache
from mazmorra.layout.context import LayoutContext, template_problem
from mazmorra.layout.elements.attrs import ElementError, FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.templates import TemplateError
from mazmorra.layout.versionstamp import printed_in, stamp_face
from mazmorra.model.content import Kind, Pack
from mazmorra.model.units import PT_PER_MM
from mazmorra.source.wording import template_words

BAND = 3.2  # mm of the trim the draft band covers: the margin no template prints text in
NAME_VAR = "component_name"  # what a template sets to name a component that has no name field


def compile_template(ctx: LayoutContext, name: str | None) -> tuple[jinja2.Template | None, list[Problem]]:
    """The template compiled, or None and why it does not compile."""
    if name is None:
        return None, []
    try:
        return ctx.templates.get(name), []
    except TemplateError as exc:
        return None, [template_problem(exc.problem)]


@dataclass(frozen=True)
class FaceJob:
    """One face to lay out: its template and the template's context (each face adds its own label
    table, `_`, `ngettext` and `choice`), its component and side, and where that component's texts
    come from (`text_loc`: a field's YAML line; `text_lang`: the language a field is written in)."""

    template: jinja2.Template
    tctx: dict[str, Any]
    component: str
    side: str
    kind: Kind
    size: tuple[float, float]
    text_loc: Callable[[str | None], Loc | None]
    text_lang: Callable[[str | None], str] | None = None
    named: bool = False  # the name the template gives the component is wanted (a front)
    source_of: Callable[[str | None], tuple[tuple[tuple[str, str], ...], str] | None] | None = None  # (textbox.py)


@dataclass(frozen=True)
class Laid:
    """One face, laid out or taken from the face cache, with what laying it out learnt: it rides
    back on the item the face belongs to."""

    face: Face | None  # None: it could not be laid out (its problems say why)
    problems: list[Problem]
    name: str | None = None  # what the template named the component (`{% set component_name = … %}`)
    boxes: tuple[TextBox, ...] = ()  # the text boxes its fields were set in (a face laid out, not cached)
    key: str = ""  # the face cache's key with the other components it read; "" when not cached
    now: bool = True  # laid out by this build (not taken from an earlier build's face cache)
    labels: tuple[str, ...] = ()  # the template labels it printed untranslated


def one_face(ctx: LayoutContext, job: FaceJob) -> Laid:
    """One face from the face cache, else laid out (and stored there): see `_lay_face`. Measuring
    text boxes or reporting shrinks (a translator's budgets) always lays the face out. Its key is
    what a page chunk's key is made of (render/draw/chunks.py)."""
    if ctx.cache is None or ctx.measure or ctx.shrinks:
        return _lay_face(ctx, job, job.text_loc, ctx.contexts)
    langs = [job.text_lang(f) for f in job.tctx["card"]] if job.text_lang is not None else []  # hyphenation
    k = ctx.face_key(
        job.template.name or "", job.tctx, job.component, job.side, job.size, job.kind.shape, job.named, langs
    )

    def lay(
        at: Callable[[str | None], Loc | None], seen: facecache.Recorded
    ) -> tuple[Face | None, list[Problem], str | None, tuple[str, ...]]:
        laid = _lay_face(ctx, job, at, seen)  # what it reads of other components is part of its key
        return laid.face, laid.problems, laid.name, laid.labels

    read: list[str] = []  # the other components' hashes the entry was checked against (or stored with)

    def read_hash(cid: str) -> str:
        h = ctx.context_hash(cid)
        read.append(f"{cid}={h}")
        return h

    face, problems, name, labels, fresh = facecache.through(ctx.cache, k, job.text_loc, ctx.contexts, read_hash, lay)
    key = facecache.key(k, *read) if face is not None else ""
    now = fresh or bool(ctx.helped and ctx.cache.came_from(ctx.helped))  # laid out now, here or by a helper
    return Laid(face, problems, name, (), key, now, labels)


def _lay_face(
    ctx: LayoutContext,
    job: FaceJob,
    text_loc: Callable[[str | None], Loc | None],
    components: Mapping[str, Any],
) -> Laid:
    """One face: the template rendered and parsed (None when it cannot be), the problems it met, the
    name it gives the component, its text boxes and the labels it found untranslated."""
    template, side = job.template, job.side
    fctx = _face_context(ctx, job, text_loc)
    labels = FaceLabels(ctx.labels)
    fctx.labels = labels
    try:
        xml, jctx = rendered(job, Borrowing(components, ctx.contexts.untranslated, labels), labels)
        face = parse_face(xml, fctx, side, job.size[0], job.size[1], ctx.pack.bleed_mm, job.kind.shape)
        if job.tctx["stamp"] and (fctx.stamp_at is not None or not printed_in(face, job.tctx["stamp"])):
            stamped = stamp_face(face, fctx, job.tctx["stamp"])
            if stamped is None:
                fctx.problems.append(_no_room(ctx, face, template))
            face = stamped or face
        name = jctx.vars.get(NAME_VAR)
    except (RecursionError, jinja2.TemplateError, ValueError) as exc:
        if isinstance(exc, (RecursionError, jinja2.TemplateError)):  # at the template line it happened at
            rule, loc = "template.render", ctx.templates.render_loc(exc, template)
        else:  # a bad element: at the line that wrote it
            at = exc.at if isinstance(exc, ElementError) else None
            rule, loc = "template.element", ctx.templates.element_loc(at, template)
        message = f"template {template.name}: {template_words(str(exc))}"
        if isinstance(exc, RecursionError):
            message = f"template {template.name} includes itself (endless recursion)"
        problem = template_problem(Problem(rule, message, loc, job.component, lang=ctx.lang))
        return Laid(None, [problem], labels=tuple(labels.missing))
    problems = fctx.problems + _print_checks(ctx, face, fctx, template)
    named = name.strip() if isinstance(name, str) else None
    return Laid(face, problems, named, tuple(fctx.boxes), labels=tuple(labels.missing))


def _face_context(ctx: LayoutContext, job: FaceJob, text_loc: Callable[[str | None], Loc | None]) -> FaceContext:
    return FaceContext(
        job.component,
        ctx.lang,
        ctx.icons,
        ctx.pack.root,
        text_loc,
        fonts=ctx.fonts,
        lang_faces=ctx.lang_faces,
        text_lang=job.text_lang,
        printing=ctx.pack.spec.print,
        measure=ctx.measure,
        shrinks=ctx.shrinks,
        source_of=job.source_of,
    )


def probe_xml(ctx: LayoutContext, job: FaceJob) -> str | None:
    """What a face's template writes for a context made up to probe it (a component's field set to
    another value: layout/printcheck/colourprobe.py); None when the template refuses that context."""
    try:
        return rendered(job, ctx.contexts, FaceLabels(ctx.labels))[0]
    except Exception:  # a made-up context may break a template that real data does not
        return None


def probe_face(ctx: LayoutContext, job: FaceJob) -> Face | None:
    """A probed face laid out (no print checks, no stamp, not cached: nobody prints it); None when it
    cannot be."""
    try:
        xml = rendered(job, ctx.contexts, FaceLabels(ctx.labels))[0]
        return parse_face(
            xml, _face_context(ctx, job, job.text_loc), job.side, *job.size, ctx.pack.bleed_mm, job.kind.shape
        )
    except Exception:
        return None


def rendered(job: FaceJob, components: Mapping[str, Any], labels: FaceLabels) -> tuple[str, Any]:
    """A face's template rendered with its context: the XML and the template's context (a template may
    name its component in it); raises what the template raises."""
    template = job.template
    tctx = {
        **job.tctx,
        "components": components,
        "_": labels,
        "ngettext": labels.ngettext,
        "choice": chooser(job.kind, labels),
    }
    jctx = template.new_context(tctx)
    try:  # as Template.render, keeping the context
        xml = template.environment.concat(template.root_render_func(jctx))
    except Exception:
        template.environment.handle_exception()
    return xml, jctx


def chooser(kind: Kind, labels: FaceLabels) -> Callable[[str, Any], dict[str, Any]]:
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
        if word is not None:
            labels.said.setdefault(word, (found.msgid, found.msgid))  # the label's box, all the same
        return {"value": value, "label": word if word is not None else labels(found.msgid), "icon": found.icon}

    return choice


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
    from mazmorra.layout.printcheck.facecheck import check_face

    problems = []
    findings = check_face(face, fctx.owners, ctx.pack.spec.print, ctx.icons, fctx.safe_margin)
    if ctx.printer is not None:
        from mazmorra.layout.printcheck.preflight import preflight_face

        pack_safe = fctx.safe_margin if fctx.safe_margin is not None else ctx.pack.spec.print.safe_mm
        findings += preflight_face(face, fctx.owners, ctx.printer, ctx.icons, pack_safe, fctx.root_at)
    for found in findings:
        other = f" ({ctx.templates.element_loc(found.other, template)})" if found.other else ""
        message = f"{face.side}: " + found.message.replace("{other}", other)
        loc = ctx.templates.element_loc(found.at, template)
        error = found.error or found.rule in ("print.contrast", "preflight.ink")
        severity = Severity.ERROR if error else Severity.WARNING
        if found.file is not None:  # a note about a file: once, at the file, whichever faces use it
            note = Problem(found.rule, found.message, Loc(found.file), face.component, None, Severity.NOTE, ctx.lang)
            problems.append(replace(note, once=True))
            continue
        at_field = fctx.text_loc(found.field) if found.field else None
        if at_field is not None:  # about the component's own value: at its line (the template's, said)
            message += f" (drawn by {loc.file}:{loc.line})" if loc is not None else ""
            problems.append(Problem(found.rule, message, at_field, face.component, found.field, severity, ctx.lang))
            continue
        problems.append(
            template_problem(Problem(found.rule, message, loc, face.component, severity=severity, lang=ctx.lang))
        )
    return problems


class Borrowing(Mapping[str, Any]):
    """`components` in templates: every component's context, noting on the face's labels each text of
    another component the face reads that falls back to the source language (a draft band names it)."""

    def __init__(self, components: Mapping[str, Any], gaps: Callable[[str], dict[str, str]], labels: FaceLabels):
        self.components = components
        self.gaps = gaps
        self.labels = labels

    def __getitem__(self, cid: str) -> Any:
        found = self.components[cid]
        gaps = self.gaps(cid)
        return _Watched(found, cid, gaps, self.labels) if gaps and isinstance(found, dict) else found

    def __contains__(self, cid: object) -> bool:
        return cid in self.components

    def __iter__(self) -> Iterator[str]:
        return iter(self.components)

    def __len__(self) -> int:
        return len(self.components)


class _Watched(dict[str, Any]):
    """One component's context, noting the fields read that fall back to the source language."""

    def __init__(self, data: dict[str, Any], cid: str, gaps: dict[str, str], labels: FaceLabels):
        super().__init__(data)
        self._cid, self._gaps, self._labels = cid, gaps, labels

    def __getitem__(self, key: str) -> Any:
        if key in self._gaps:
            self._labels.borrowed(self._cid, key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default


def fallbacks(
    fields: list[tuple[str, str]], noted: tuple[str, ...], labels: Labels, gaps: Callable[[str], dict[str, str]]
) -> list[tuple[str, str]]:
    """Everything a face prints in another language, as its draft band names it, each with its state
    (untranslated | fuzzy): its component's own fields, then the labels and other components' texts
    it noted (`Laid.labels`)."""
    out = list(fields)
    for what in dict.fromkeys(noted):
        if what.startswith(BORROWED):
            cid, _, fld = what[len(BORROWED) :].rpartition(".")
            out.append((f"{cid}.{fld}", gaps(cid).get(fld, "untranslated")))
        else:  # a label, quoted, without its icons, placeholders and bold markers, cut short
            words = " ".join(re.sub(r"\{[^{}]*\}|%\(\w+\)[sd]|[*_]", " ", what).split()) or "…"
            words = words if len(words) <= 28 else words[:27] + "…"
            out.append((f'"{words}"', "fuzzy" if what in labels.fuzzy else "untranslated"))
    return out


def draft_marker(
    face: Face, lang: str, marks: list[tuple[str, str]], icons: IconSet, pack: Pack, labels: Labels | None = None
) -> Face:
    """A red band along the top edge naming what the face prints in another language (`marks`: what,
    untranslated | fuzzy: fields, "labels", other components' texts), so a draft print cannot pass for
    final: UNTRANSLATED and FUZZY each in the build's language where `labels` translate them. Inside
    the trim only as far as the safe margin, so it hides none of the card's text (which, untranslated,
    shows the source text)."""
    band = BAND  # mm of the trim: the margin no template prints text in
    by_state: dict[str, list[str]] = {}
    for what, state in marks:
        by_state.setdefault(state, []).append(what)
    said = [(_band_word(state.upper(), labels), names) for state, names in sorted(by_state.items(), reverse=True)]
    full = " · ".join(f"{word} ({lang}): {', '.join(names)}" for word, names in said)
    counted = " · ".join(f"{word} ({lang}): {len(names)}" for word, names in said)  # when the names do not fit
    for words in (full, counted):
        xml = (
            f'<card><rect x="{-face.bleed}" y="{-face.bleed}" w="{face.w + 2 * face.bleed}" h="{band + face.bleed}" '
            f'fill="#c0392b"/>{_band_text(face.w - 3, words)}</card>'
        )
        fctx = FaceContext(face.component, lang, icons, pack.root, lambda f: None)
        overlay = parse_face(xml, fctx, face.side, face.w, face.h, face.bleed, face.shape)
        if not fctx.problems:
            break
    return replace(face, ops=face.ops + overlay.ops)


def _band_text(w: float, words: str) -> str:
    """The band's <text> element, `w` mm wide (the face's width less 1.5 mm each side)."""
    return (
        f'<text x="1.5" y="0.3" w="{w}" h="{BAND - 0.5}" font="sans-bold" size="7" '
        f'min-size="5.5" role="label" align="center" valign="middle" color="#ffffff">{escape(words, quote=False)}</text>'
    )


def band_boxes(ctx: LayoutContext, face_w: float) -> list[TextBox]:
    """The boxes the band's words print in on a face `face_w` mm wide (translators' budgets,
    layout/text/budget.py), measured in `ctx`'s language: the band less the room its count takes
    (`UNTRANSLATED (es): 3`, in the pack's longest language code), so a word in its budget leaves it;
    its design size the size it prints at (the largest its height holds, below the 7 pt it asks)."""
    xml = f"<card>{_band_text(face_w - 3, 'X')}</card>"
    fctx = FaceContext("band", ctx.lang, ctx.icons, ctx.pack.root, lambda f: None, measure=True)
    fctx.labels = FaceLabels(ctx.labels)
    fctx.labels.said["X"] = ("X", "X")  # the band's box, as a label's
    parse_face(xml, fctx, "front", face_w, BAND, 0.0, "rect")
    if not fctx.boxes:
        return []
    band = replace(fctx.boxes[0], size=fctx.boxes[0].fitted)  # its 7 pt never fits its height: as it prints
    code = max((*ctx.pack.spec.languages, "xx"), key=len)
    out = []
    for word, _ in BAND_WORDS:
        printed = _band_word(word, ctx.labels)
        own = label_box(ctx, band, word, printed, word, f" ({code}): 99", plain=True)
        out += [own] if own is not None else []
    return out


def label_box(
    ctx: LayoutContext, box: TextBox, msgid: str, printed: str, written: str, rest: str, plain: bool = False
) -> TextBox | None:
    """The box a label has in `box` when it shares it with `rest` (the text printed beside it): as
    tall, as wide less `rest`'s width at the design size, in the box's font, measured with the label
    `written` (English) as any label's box is; None when no room is left. `plain`: the box's font is
    the tool's own (the band), not a pack font."""
    faces = fonts.faces(box.font, None if plain else ctx.fonts)
    face = faces.regular if faces is not None else fonts.DEFAULT
    w = box.w - fonts.width(rest, face, box.size) / PT_PER_MM
    if w <= 1:
        return None
    xml = (
        f'<card><text x="0" y="0" w="{w:.3f}" h="{box.h:.3f}" font="{escape(box.font or fonts.DEFAULT)}" '
        f'size="{box.size:g}" min-size="{box.min_size:g}" role="{box.role}">{escape(printed, quote=False)}</text></card>'
    )
    fctx = FaceContext("label", ctx.lang, ctx.icons, ctx.pack.root, lambda f: None, measure=True)
    if not plain:
        fctx.fonts = ctx.fonts
    fctx.labels = FaceLabels(ctx.labels)
    fctx.labels.said[printed] = (msgid, written)
    parse_face(xml, fctx, "front", w, box.h, 0.0, "rect")
    own = [b for b in fctx.boxes if b.label == msgid and not b.inline]
    return replace(own[0], at=box.at) if own else None


def _band_word(word: str, labels: Labels | None) -> str:
    """UNTRANSLATED or FUZZY in the build's language (a label: the tool's catalogue or the pack's);
    in English where it has none, never noted as missing (only a draft prints it)."""
    if labels is None or word in labels.fuzzy:
        return word
    return labels.table.get(word, word)
