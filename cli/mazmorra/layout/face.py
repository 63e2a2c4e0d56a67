"""One face: its template rendered with a component's context and parsed into drawing ops, then
print-checked (and preflighted for a print shop), or taken from the face cache when nothing it is
made of changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from html import escape  # not xml.sax.saxutils: it imports urllib.request, http and ssl
from typing import Any

import jinja2

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face, TextBox
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.layout.cache import facecache
from mazmorra.layout.context import LayoutContext, template_problem
from mazmorra.layout.elements.attrs import ElementError, FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.templates import TemplateError
from mazmorra.layout.versionstamp import printed_in, stamp_face
from mazmorra.model.content import Pack
from mazmorra.source.wording import template_words

NAME_VAR = "component_name"  # what a template sets to name a component that has no name field


def compile_template(ctx: LayoutContext, name: str | None) -> tuple[jinja2.Template | None, list[Problem]]:
    """The template compiled, or None and why it does not compile."""
    if name is None:
        return None, []
    try:
        return ctx.templates.get(name), []
    except TemplateError as exc:
        return None, [template_problem(exc.problem)]


def one_face(
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
    keys: list[str] | None = None,
) -> tuple[Face | None, list[Problem]]:
    """One face from the face cache, else laid out (and stored there): see `_lay_face`. Measuring
    text boxes or reporting shrinks (a translator's budgets) always lays the face out. Its key goes
    into `keys`: the face cache's key with the other components it read, "" when not cached (what a
    page chunk's key is made of, render/draw/chunks.py)."""
    if ctx.cache is None or ctx.measure or ctx.shrinks:
        ctx.laid.append(f"{component}/{side}")
        if keys is not None:
            keys.append("")
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

    read: list[str] = []  # the other components' hashes the entry was checked against (or stored with)

    def read_hash(cid: str) -> str:
        h = ctx.context_hash(cid)
        read.append(f"{cid}={h}")
        return h

    face, problems, name, fresh = facecache.through(ctx.cache, k, text_loc, ctx.labels, ctx.contexts, read_hash, lay)
    if keys is not None:
        keys.append(facecache.key(k, *read) if face is not None else "")
    if fresh or (ctx.helped and ctx.cache.came_from(ctx.helped)):  # laid out now, here or by a helper
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
        lang_faces=ctx.lang_faces,
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
    from mazmorra.layout.printcheck.facecheck import check_face

    problems = []
    findings = check_face(face, fctx.owners, ctx.pack.spec.print, ctx.icons, fctx.safe_margin)
    if ctx.printer is not None:
        from mazmorra.layout.printcheck.preflight import preflight_face

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


def draft_marker(face: Face, lang: str, fields: list[str], icons: IconSet, pack: Pack) -> Face:
    """A red band along the top edge naming the untranslated fields, so a draft print cannot pass
    for final: inside the trim only as far as the safe margin, so it hides none of the card's text
    (which, untranslated, shows the source text)."""
    band = 3.2  # mm of the trim: the margin no template prints text in
    for words in (f"UNTRANSLATED ({lang}): {', '.join(fields)}", f"UNTRANSLATED ({lang}): {len(fields)} texts"):
        xml = (
            f'<card><rect x="{-face.bleed}" y="{-face.bleed}" w="{face.w + 2 * face.bleed}" h="{band + face.bleed}" '
            f'fill="#c0392b"/><text x="1.5" y="0.3" w="{face.w - 3}" h="{band - 0.5}" font="sans-bold" size="7" '
            f'min-size="5.5" role="label" align="center" valign="middle" color="#ffffff">{escape(words, quote=False)}</text></card>'
        )
        fctx = FaceContext(face.component, lang, icons, pack.root, lambda f: None)
        overlay = parse_face(xml, fctx, face.side, face.w, face.h, face.bleed, face.shape)
        if not fctx.problems:
            break
    return replace(face, ops=face.ops + overlay.ops)
