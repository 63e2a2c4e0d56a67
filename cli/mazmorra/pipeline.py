"""The build, in one place: load → validate → localise → lay out → render → write.

Stage 5 has several renderers fed from the same stream of laid-out components: the PDF sheets
(render.Sheets) and the exports the options ask for (mazmorra.exports: PNG, Tabletop Simulator,
gallery). Each writes temporary files that stage 6 renames into place only if all is valid.
"""

from __future__ import annotations

import gc
import re
import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2

from mazmorra import fonts
from mazmorra import layout as lay
from mazmorra.errors import ContentError, Loc, Problem, Severity, UsageError, rel
from mazmorra.exports import ExportOptions, Exporter, make_exporters
from mazmorra.i18n import Labels, LocalText, Localised, localise, number_formatter
from mazmorra.icons import IconSet
from mazmorra.impose import DoesNotFit, SheetSpec, impose
from mazmorra.load import load_pack
from mazmorra.model import Deck, Pack
from mazmorra.paths import templates_dir
from mazmorra.render import DocMeta, Sheets
from mazmorra.validate import validate
from mazmorra.write import (Staging, atomic_write_text, depfile_path, forget_removed, make_rule, up_to_date,
                            write_stamp_rule)

_DRAFTABLE = frozenset({"i18n.missing", "i18n.fuzzy", "i18n.label"})
_LAYOUT_INDEPENDENT = frozenset({"i18n.missing", "i18n.fuzzy", "i18n.tokens", "i18n.no-catalogue"})

Progress = Callable[[str, int], None]  # (what was just done or "", how many components it finished)


def _no_progress(what: str, n: int) -> None:
    pass


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] | None = None  # None: every language of the pack
    sheet: SheetSpec | None = None  # None: the pack's page, defaults otherwise
    out_dir: Path = Path("output")
    strict: bool = False  # warnings fail the build
    draft: bool = False  # missing/stale translations fall back to the source, marked on the component
    decks: tuple[str, ...] | None = None  # None: every deck
    changed_only: bool = False  # skip decks whose PDF is newer than every file it was made from (make)
    pdf: bool = True  # the print-and-play PDFs
    exports: ExportOptions = ExportOptions()  # the other renderers: PNG, Tabletop Simulator, gallery


@dataclass(frozen=True)
class Item:
    """One component laid out: its faces and how many copies print."""

    front: lay.Face
    back: lay.Face | None
    copies: int
    shared_back: bool  # the deck's common back rather than the component's own
    name: str = ""  # the component's name in the job's language (exports label files and cards with it)


@dataclass
class Job:
    """One output document: a deck in one language. Its faces are laid out lazily, component by
    component, while the renderer consumes them, so memory does not grow with the deck."""

    pack: Pack
    deck: Deck
    lang: str
    title: str
    path: Path
    items: Callable[[], Iterator[Item]]  # lays the deck out, appending problems as it goes
    sizes: list[tuple[float, float]]  # trim size of every copy, in order (imposition needs them first)
    inputs: set[Path] = field(default_factory=set)  # every file the output was made from (for make)
    deck_name: str = ""  # in the job's language


@dataclass
class BuildResult:
    pack: Pack
    outputs: list[Path] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)  # what the exporters wrote, one line each
    warnings: list[Problem] = field(default_factory=list)
    components: int = 0
    faces: int = 0
    pages: int = 0
    seconds: float = 0.0


@contextmanager
def _batch_gc() -> Iterator[None]:
    """Collect cycles less often: a build makes millions of short-lived, acyclic objects and the
    default thresholds make the collector rescan every live face over and over (20% of a 10,000
    card build)."""
    old = gc.get_threshold()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def build(pack_dir: Path, opts: BuildOptions, progress: Progress = _no_progress, render: bool = True) -> BuildResult:
    """Build every deck of a pack in the chosen languages; nothing is written unless all is valid."""
    with _batch_gc():
        return _build(pack_dir, opts, progress, render)


def _build(pack_dir: Path, opts: BuildOptions, progress: Progress, render: bool) -> BuildResult:
    t0 = time.perf_counter()
    pack = load_pack(pack_dir)  # 1. load
    sheet = opts.sheet or SheetSpec(page=pack.spec.page)
    if sheet.bleed is not None:  # the build's own bleed (--bleed) replaces the pack's
        pack = replace(pack, spec=pack.spec.model_copy(update={"bleed": sheet.bleed}))
    icons = IconSet.for_pack(pack.root)
    problems = validate(pack, icons)  # 2. validate
    langs = _languages(pack, opts.langs)
    decks = _decks(pack, opts.decks)
    env = lay.make_env(lay.template_search_path(pack.root, templates_dir()))
    jobs: list[Job] = []
    labels_by_lang = {}
    for lang in langs:
        localised, names, loc_problems = localise(pack, lang)  # 3. localise
        if opts.draft:  # fall back visibly instead of failing
            loc_problems = [replace(p, severity=Severity.WARNING) if p.rule in _DRAFTABLE else p
                            for p in loc_problems]
        problems += loc_problems
        labels_by_lang[lang] = labels = Labels(pack, lang)
        contexts = {loc.component.id: loc.context() for loc in localised}  # `components` in templates
        jobs += [deck_job(pack, deck, lang, localised, names, labels, env, icons, opts, problems, contexts)
                 for deck in decks]
    if any(p.severity is Severity.ERROR for p in problems if p.rule not in _LAYOUT_INDEPENDENT):
        raise ContentError(problems)  # templates assume valid data: report rule problems without layout noise
    made_with = f"{sheet!r} draft={opts.draft}"  # what else, besides its input files, shapes a PDF
    if opts.changed_only:
        jobs = [j for j in jobs if not up_to_date(j.path, depfile_path(opts.out_dir, j.path), made_with)]
    result = BuildResult(pack, components=len(pack.components()))
    if any(p.severity is Severity.ERROR for p in problems):
        render = False  # the build will fail: still lay out, to report overflows in the same run
    staging = Staging(opts.out_dir)
    exporters = make_exporters(opts.exports, pack, opts.out_dir, icons, staging.temp, problems) if render else []
    pdfs: list[Path] = []
    try:
        for job in jobs:  # 4. lay out, 5. render: streamed into a temporary PDF and every export
            doc = None
            if render and opts.pdf:
                doc = Sheets(staging.temp(job.path), sheet, DocMeta(
                    job.title, pack.spec.author, f"{pack.spec.name}: {job.deck.spec.name}", job.lang), icons)
                pdfs.append(job.path)
            result.faces += _render(job, sheet, doc, exporters, progress, problems)
            if doc is not None:
                doc.save()
                job.inputs |= doc.inputs
                result.pages += doc.pages
            progress(f"{'rendered' if render else 'checked'} {pack.id}/{job.lang}/{job.deck.id}", 0)
        for exporter in exporters:  # 5. pack-wide exports (the gallery's page)
            exporter.finish()
        problems += _label_problems(pack, labels_by_lang, opts.draft, env)
        _stop_on_errors(problems, opts.strict)  # nothing has reached the output folder yet
        staging.commit()  # 6. write: every temporary file renamed onto its target
        result.outputs = pdfs
        for exporter in exporters:
            exporter.committed()
            result.exports += exporter.summary()
        for job in jobs if pdfs else []:  # what make needs for the next, incremental, build
            atomic_write_text(depfile_path(opts.out_dir, job.path), make_rule(job.path, job.inputs, made_with),
                              staging.scratch)
        for lang in langs if render and opts.pdf else []:
            if opts.decks is None:  # a deck renamed or removed: its old PDF goes too
                forget_removed(opts.out_dir, pack.id, lang, {d.id for d in pack.decks})
            write_stamp_rule(opts.out_dir, pack.id, lang, staging.scratch)
    finally:
        staging.discard()
    result.warnings = [p for p in problems if p.severity is Severity.WARNING]
    result.seconds = time.perf_counter() - t0
    return result


def _label_problems(pack: Pack, labels_by_lang: dict[str, Labels], draft: bool, env) -> list[Problem]:
    """Template labels a language has no translation for (found while laying out), at the template
    line that prints them."""
    out = []
    used = sorted({t for d in pack.decks for k in d.kinds for t in (k.template, k.back_template) if t})
    for lang, labels in labels_by_lang.items():
        for msgid in labels.missing:
            where = next((loc for name in used + sorted(env.list_templates(extensions=["j2"]))
                          if (loc := _source_line(env.get_template(name).filename, msgid, exact=True)).line),
                         Loc(rel(templates_dir())))
            out.append(Problem("i18n.label", f"template label {msgid!r} has no '{lang}' translation (add it "
                               f"to {rel(pack.root / 'locale' / (lang + '.po'))}, msgctxt 'label')", where,
                               "templates", lang=lang, severity=Severity.WARNING if draft else Severity.ERROR))
    return out


def _source_line(filename: str | None, text: str, exact: bool = False) -> Loc:
    """Where a template says `text` (exact), or holds the element an error message names (`<tag`
    and, when given, its attribute): the rendered XML has no line numbers of its own."""
    if not filename:
        return Loc("template")
    try:
        lines = Path(filename).read_text(encoding="utf-8").splitlines()
    except OSError:
        return Loc(rel(filename))
    needles = [text] if exact else []
    if not exact:
        tag = re.search(r"<([A-Za-z][\w-]*)", text)
        attr = re.search(r"\s([\w-]+)='", text)
        if tag and attr:
            for i, line in enumerate(lines, 1):
                if f"<{tag.group(1)}" in line and f"{attr.group(1)}=" in line:
                    return Loc(rel(filename), i, line.index("<") + 1)
        if tag:
            needles.append(f"<{tag.group(1)}")
    for needle in needles:
        for i, line in enumerate(lines, 1):
            if needle in line:
                return Loc(rel(filename), i, line.index(needle) + 1)
    return Loc(rel(filename))


def _render(job: Job, sheet: SheetSpec, doc: Sheets | None, exporters: list[Exporter], progress: Progress,
            problems: list[Problem]) -> int:
    """Lay the job out and, when doc is given, draw it; every exporter gets each component as it is
    laid out. Returns the number of faces."""
    n = 0

    def faces() -> Iterator[tuple[lay.Face, lay.Face | None, bool, bool]]:
        nonlocal n
        for item in job.items():
            progress("", item.copies)  # advances a progress bar; says nothing in plain logs
            for exporter in exporters:
                exporter.add(job, item)
            for _ in range(item.copies):
                n += 1 + (item.back is not None)
                yield item.front, item.back, item.copies > 1, item.shared_back

    try:  # checked by validate too: a component larger than the sheet is a problem of the content
        pages = impose(sheet, job.sizes, job.pack.bleed_mm)
    except DoesNotFit as exc:
        problems.append(Problem("sheet.too-small", f"{exc}; print on a larger --page, --landscape, or make the "
                                "component smaller", job.deck.loc, f"deck:{job.deck.id}", lang=job.lang))
        doc = None
    if doc is None:
        for _ in faces():
            pass
    else:
        doc.add(pages, faces())
    for exporter in exporters:
        exporter.end(job)
    return n


def _languages(pack: Pack, wanted: tuple[str, ...] | None) -> list[str]:
    if not wanted:
        return list(pack.spec.languages)
    unknown = [lang for lang in wanted if lang not in pack.spec.languages]
    if unknown:
        raise UsageError(f"pack '{pack.id}' has no language {', '.join(unknown)} "
                         f"(it has {', '.join(pack.spec.languages)})")
    return list(wanted)


def _decks(pack: Pack, wanted: tuple[str, ...] | None) -> list[Deck]:
    if not wanted:
        return list(pack.decks)
    ids = [d.id for d in pack.decks]
    unknown = [d for d in wanted if d not in ids]
    if unknown:
        raise UsageError(f"pack '{pack.id}' has no deck {', '.join(unknown)} (it has {', '.join(ids)})")
    return [d for d in pack.decks if d.id in wanted]


def _stop_on_errors(problems: list[Problem], strict: bool) -> None:
    fatal = [p for p in problems if p.severity is Severity.ERROR or strict]
    if fatal:
        raise ContentError(problems)


def deck_job(pack: Pack, deck: Deck, lang: str, localised: list[Localised], names: dict[str, LocalText],
             labels: Labels, env, icons: IconSet, opts: BuildOptions, problems: list[Problem],
             contexts: dict[str, dict]) -> Job:
    """The job of one deck in one language; its layout runs when the job's items are iterated.
    `contexts` holds every component's template data in this language (`card`, `components`)."""
    w, h = deck.size_mm
    deck_name = names[f"deck:{deck.id}.name"].text
    pack_name = names["pack.name"].text
    mine = [loc for loc in localised if loc.component.deck == deck.id]
    common = {"lang": lang, "_": labels, "ngettext": labels.ngettext, "num": number_formatter(lang),
              "w": w, "h": h, "bleed": pack.bleed_mm, "game": pack.spec.game, "components": contexts,
              "deck": {"id": deck.id, "name": deck_name, "kind": deck.kind.name,
                       "count": sum(c.data.copies for c in deck.components)},
              "pack": {"id": pack.id, "name": pack_name}}
    sizes = [loc.component.size_mm for loc in mine for _ in range(loc.component.data.copies)]
    # Compiled now, once per build: a template syntax error stops the build before any layout.
    fronts = {k.name: _template(env, k.template, problems) for k in deck.kinds}
    backs = {k.name: _template(env, k.back_template, problems) for k in deck.kinds if k.back_template}

    def items() -> Iterator[Item]:
        shared: dict[tuple[str, tuple[float, float]], lay.Face | None] = {}  # deck backs, one per kind and size
        for loc in mine:
            comp, kind = loc.component, loc.component.kind
            front_t = fronts[kind.name]
            if front_t is None:
                return
            size = comp.size_mm
            key = (kind.name, size)
            if key not in shared:
                back_t = backs.get(kind.name)
                shared[key] = None if back_t is None else _face(
                    back_t, {**common, "w": size[0], "h": size[1], "side": "back", "card": {}},
                    shared_back_id(deck, kind.name, size), "back", lang, lambda f: deck.loc, size, kind.shape,
                    pack, icons, problems)
            ctx = {**common, "w": size[0], "h": size[1], "side": "front", "card": contexts[comp.id],
                   "missing": [k for k, t in loc.texts.items() if t.status == "missing"]}
            front = _face(front_t, ctx, comp.id, "front", lang, loc.text_loc, size, kind.shape, pack, icons,
                          problems)
            back = shared[key]
            if kind.two_sided:
                back = _face(front_t, {**ctx, "side": "back"}, comp.id, "back", lang, loc.text_loc, size,
                             kind.shape, pack, icons, problems)
            untranslated = sorted(k for k, t in loc.texts.items() if t.status in ("missing", "fuzzy"))
            if opts.draft and untranslated and front is not None:
                front = _draft_marker(front, lang, untranslated, icons, pack)
            if front is None:
                front = _blank(size, pack.bleed_mm, comp.id)  # reported already; keeps positions aligned
            name = loc.texts["name"].text if "name" in loc.texts else comp.id
            yield Item(front, back, comp.data.copies, not kind.two_sided, name)

    inputs = {pack.root / "pack.yaml", pack.root / deck.spec.file, *fonts.font_files(),
              *lay.template_files(env, [t for k in deck.kinds for t in (k.template, k.back_template) if t])}
    for cat in (pack.root / "locale" / f"{lang}.po", templates_dir() / "locale" / f"{lang}.po"):
        if cat.is_file():
            inputs.add(cat)
    path = opts.out_dir / pack.id / lang / f"{deck.id}.pdf"
    return Job(pack, deck, lang, f"{pack_name} — {deck_name}", path, items, sizes, inputs, deck_name)


def shared_back_id(deck: Deck, kind: str, size: tuple[float, float]) -> str:
    """The component id of a deck back: `deck:<id>` for the deck's own kind and size, else one per
    kind and size (a deck may mix kinds and sizes), so renderers and exports never confuse them."""
    if kind == deck.kind.name and size == deck.size_mm:
        return f"deck:{deck.id}"
    return f"deck:{deck.id}:{kind}:{size[0]:g}x{size[1]:g}"


def _blank(size: tuple[float, float], bleed: float, component: str) -> lay.Face:
    return lay.Face(component, "front", size[0], size[1], bleed, ())


def _template(env, name: str, problems: list[Problem]) -> jinja2.Template | None:
    try:
        return lay.get_template(env, name)
    except lay.TemplateError as exc:
        problems.append(exc.problem)
        return None


def _face(template: jinja2.Template, ctx: dict, component: str, side: str, lang: str, text_loc,
          size: tuple[float, float], shape: str, pack: Pack, icons: IconSet,
          problems: list[Problem]) -> lay.Face | None:
    fctx = lay.FaceContext(component, lang, icons, pack.root, text_loc)
    w, h = size
    try:
        xml = template.render(ctx)
        face = lay.parse_face(xml, fctx, side, w, h, pack.bleed_mm, shape)
    except jinja2.TemplateError as exc:
        tb_line = _template_line(exc, template)
        problems.append(Problem("template.render", f"template {template.name}: {exc}", tb_line, component, lang=lang))
        return None
    except RecursionError:
        problems.append(Problem("template.render", f"template {template.name} includes itself (endless recursion)",
                                Loc(rel(template.filename or template.name or "")), component, lang=lang))
        return None
    except ValueError as exc:
        problems.append(Problem("template.element", f"template {template.name}: {exc}",
                                _source_line(template.filename, str(exc)), component, lang=lang))
        return None
    problems.extend(fctx.problems)
    return face


def _template_line(exc: Exception, template: jinja2.Template) -> Loc:
    import traceback

    line = 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == template.filename:
            line = frame.lineno or 0
    return Loc(rel(template.filename or template.name or "template"), line, 1)


def _draft_marker(face: lay.Face, lang: str, fields: list[str], icons: IconSet, pack: Pack) -> lay.Face:
    """Overlay a red band naming the untranslated fields, so a draft print cannot pass for final."""
    from xml.sax.saxutils import escape

    text = escape(f"UNTRANSLATED ({lang}): {', '.join(fields)}")
    y = face.h / 2 - 5
    xml = (f'<card><rect x="{-face.bleed}" y="{y}" w="{face.w + 2 * face.bleed}" h="10" fill="#d62728"/>'
           f'<text x="2" y="{y + 1}" w="{face.w - 4}" h="8" font="sans-bold" size="9" min-size="4" '
           f'align="center" valign="middle" color="#ffffff">{text}</text></card>')
    ctx = lay.FaceContext(face.component, lang, icons, pack.root, lambda f: None)
    overlay = lay.parse_face(xml, ctx, face.side, face.w, face.h, face.bleed, face.shape)
    return replace(face, ops=face.ops + overlay.ops)
