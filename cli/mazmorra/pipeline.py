"""The build, in one place: load → validate → localise → lay out → render → write.

Each stage is one module or package with one entry point: `load.load_pack`, `validate.validate`,
`i18n.localise.localise`, `layout.lay_out`, then stage 5's renderers (`impose.impose` plans every
page, `render.Sheets` draws them; `exports` adds PNG, Tabletop Simulator and the gallery), all fed
the same stream of laid-out items; each writes temporary files that stage 6 (`write.Staging`)
renames into place only if all is valid. Nothing else lives here.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from mazmorra import workers
from mazmorra.contracts import Document, Item
from mazmorra.errors import ContentError, Loc, Problem, Severity, UsageError, did_you_mean
from mazmorra.exports import Exporter, ExportOptions, make_exporters
from mazmorra.i18n.glossary import glossary_problems
from mazmorra.i18n.labels import Labels, choice_labels
from mazmorra.i18n.localise import localise
from mazmorra.icons import IconSet
from mazmorra.impose import DoesNotFit, SheetSpec, impose
from mazmorra.incremental import (
    depfile_path,
    forget_removed,
    make_rule,
    up_to_date,
    write_stamp_rule,
)
from mazmorra.layout import LayoutContext, Templates, lay_out
from mazmorra.load import load_pack
from mazmorra.model import Deck, Pack
from mazmorra.paths import templates_dir
from mazmorra.validate import validate
from mazmorra.write import Staging, atomic_write_text

_DRAFTABLE = frozenset({"i18n.missing", "i18n.fuzzy", "i18n.label", "glossary.term", "glossary.untranslated"})
_LAYOUT_INDEPENDENT = frozenset(
    {"i18n.missing", "i18n.fuzzy", "i18n.tokens", "i18n.no-catalogue", "text.too-long"} | _DRAFTABLE
)

Progress = Callable[[str, int], None]  # (what was just done or "", how many components it finished)
# More renderers, from the caller (the live preview): given the pack, its icons and the build's problems.
ExporterFactory = Callable[[Pack, IconSet, list[Problem]], list[Exporter]]


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
    exports: ExportOptions = field(default_factory=ExportOptions)  # PNG, Tabletop Simulator, gallery
    jobs: int = 1  # worker processes rendering documents (decks x languages) side by side


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


def build(
    pack_dir: Path,
    opts: BuildOptions,
    progress: Progress = _no_progress,
    render: bool = True,
    templates: Templates | None = None,
    also: ExporterFactory | None = None,
    loaded: Pack | None = None,
) -> BuildResult:
    """Build every deck of a pack in the chosen languages; nothing is written unless all is valid.

    A long-running caller (`mazmorra serve`) may keep the compiled `templates` between builds and
    add renderers of its own (`also`); a caller that has just loaded the pack passes it (`loaded`)."""
    with _batch_gc():
        return _build(pack_dir, opts, progress, render, templates, also, loaded)


def _build(
    pack_dir: Path,
    opts: BuildOptions,
    progress: Progress,
    render: bool,
    templates: Templates | None,
    also: ExporterFactory | None,
    loaded: Pack | None,
) -> BuildResult:
    t0 = time.perf_counter()
    pack = loaded or load_pack(pack_dir)  # 1. load
    sheet = opts.sheet or SheetSpec(page=pack.spec.page)
    if sheet.bleed is not None:  # the build's own bleed (--bleed) replaces the pack's
        pack = replace(pack, spec=pack.spec.model_copy(update={"bleed": sheet.bleed}))
    icons = IconSet.for_pack(pack.root)
    problems = validate(pack, icons)  # 2. validate
    decks = _decks(pack, opts.decks)
    templates = templates or Templates(pack.root, templates_dir())
    docs: list[Document] = []
    labels: dict[str, Labels] = {}
    reported: set[tuple[str, Loc | None, str]] = set()  # template mistakes, reported once for every language
    langs = _languages(pack, opts.langs)
    used = sorted({t for d in pack.decks for k in d.kinds for t in (k.template, k.back_template) if t})
    printed = templates.labels(used)  # the labels the templates print, whatever the language
    for lang in langs:
        localisation = localise(pack, lang)  # 3. localise
        labels[lang] = Labels(pack.root, templates_dir(), lang)
        found = [*localisation.problems, *glossary_problems(pack, localisation, labels[lang], printed)]
        problems += [
            replace(p, severity=Severity.WARNING) if opts.draft and p.rule in _DRAFTABLE else p for p in found
        ]  # a draft falls back visibly instead of failing
        ctx = LayoutContext(
            pack,
            localisation,
            templates,
            icons,
            labels[lang],
            opts.out_dir,
            opts.draft,
            problems,
            reported,
        )
        docs += [lay_out(deck, ctx) for deck in decks]  # 4. lay out: lazily, while stage 5 consumes it
    if any(p.severity is Severity.ERROR for p in problems if p.rule not in _LAYOUT_INDEPENDENT):
        raise ContentError(problems)  # templates assume valid data: report rule problems without layout noise
    made_with = f"{sheet!r} draft={opts.draft}"  # what else, besides its input files, shapes a PDF
    if opts.changed_only:
        docs = [d for d in docs if not up_to_date(d.path, depfile_path(opts.out_dir, d.path), made_with)]
    result = BuildResult(pack, components=len(pack.components()))
    if any(p.severity is Severity.ERROR for p in problems):
        render = False  # the build will fail: still lay out, to report overflows in the same run
    staging = Staging(opts.out_dir)
    exporters = make_exporters(opts.exports, pack, opts.out_dir, icons, staging.temp, problems) if render else []
    exporters += also(pack, icons, problems) if also and render else []
    pdfs = {doc.path: staging.temp(doc.path) for doc in docs} if render and opts.pdf else {}
    try:
        # 5. render: every page imposed, drawn from the stream of laid-out items
        parallel = len(pdfs) > 1 and opts.jobs > 1 and workers.can_fork()
        if parallel:  # the documents' PDFs in worker processes, side by side
            from mazmorra.render import warm_up

            warm_up()

            def task(i: int, prog: Progress) -> _Rendered:
                one = _render(docs[i], pack, sheet, icons, pdfs[docs[i].path], [], prog, problems)
                one.labels = list(labels[docs[i].lang].missing)  # what its layout found untranslated
                return one

            drawn = workers.run(len(docs), task, opts.jobs, progress, [len(d.sizes) for d in docs])
            for doc, one in zip(docs, drawn):
                _merge(one, doc, result, problems)
                labels[doc.lang].missing.update(dict.fromkeys(one.labels))
        if exporters or not parallel:  # after workers, the exporters lay the documents out again here
            for doc in docs:
                one = _render(
                    doc,
                    pack,
                    sheet,
                    icons,
                    None if parallel else pdfs.get(doc.path),
                    exporters,
                    _no_progress if parallel else progress,
                    problems,
                )
                _merge(one, doc, result, problems, counted=parallel)
        for exporter in exporters:  # pack-wide exports (the gallery's page)
            exporter.finish()
        problems += templates.label_problems(used, labels, pack.root, opts.draft, choice_labels(pack.kinds()))
        _stop_on_errors(problems, opts.strict)  # nothing has reached the output folder yet
        staging.commit()  # 6. write: every temporary file renamed onto its target
        for exporter in exporters:
            exporter.committed()
            result.exports += exporter.summary()
        _record_for_make(
            pack,
            docs if result.outputs else [],
            langs if render and opts.pdf else [],
            opts,
            made_with,
            staging,
        )
    finally:
        staging.discard()
    result.warnings = [p for p in problems if p.severity is Severity.WARNING]
    result.seconds = time.perf_counter() - t0
    return result


@dataclass
class _Rendered:
    """What rendering one document found: counts, the files it drew, the problems its layout met
    (returned by a worker process to the parent)."""

    faces: int = 0
    pages: int = 0
    pdf: bool = False
    inputs: set[Path] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # template labels with no translation (from a worker)


def _render(
    doc: Document,
    pack: Pack,
    sheet: SheetSpec,
    icons: IconSet,
    pdf_path: Path | None,
    exporters: list[Exporter],
    progress: Progress,
    problems: list[Problem],
) -> _Rendered:
    """Stage 5 for one document: its pages into `pdf_path` (when given) and every item into each
    exporter, as the layout produces them. The layout reports into `problems` (the build's list,
    or a worker's copy of it): what it added is returned, and taken out of the list."""
    before = len(problems)
    done = _Rendered()

    def items() -> Iterator[Item]:
        for item in doc.items():
            progress("", item.copies)  # advances a progress bar; says nothing in plain logs
            done.faces += item.copies * (1 + (item.back is not None))
            for exporter in exporters:
                exporter.add(doc, item)
            yield item

    stream = items()
    pages = None
    try:  # checked by validate too: a component larger than the sheet is a problem of the content
        pages = impose(sheet, doc.sizes, doc.backs, pack.bleed_mm)
    except DoesNotFit as exc:
        problems.append(
            Problem(
                "sheet.too-small",
                f"{exc}; print on a larger --page, --landscape, or make the component smaller",
                pack.deck(doc.deck_id).loc,
                f"deck:{doc.deck_id}",
                lang=doc.lang,
            )
        )
    if pdf_path is not None and pages is not None:
        from mazmorra.render import DocMeta, Sheets  # here: `validate` never needs the PDF machinery

        pdf = Sheets(
            pdf_path,
            sheet.size,
            DocMeta(doc.title, pack.spec.author, f"{doc.pack_name}: {doc.deck_name}", doc.lang),
            icons,
        )
        pdf.add(pages, stream)
        pdf.save()
        done.inputs, done.pages, done.pdf = pdf.inputs, pdf.pages, True
    for _ in stream:  # nothing drawn (validation, or no PDF asked): still lay out, for problems and exports
        pass
    for exporter in exporters:
        exporter.end(doc)
    progress(f"{'rendered' if pdf_path or exporters else 'checked'} {pack.id}/{doc.lang}/{doc.deck_id}", 0)
    done.problems = problems[before:]
    del problems[before:]
    return done


def _merge(one: _Rendered, doc: Document, result: BuildResult, problems: list[Problem], counted: bool = False) -> None:
    """One rendered document into the build's result, its problems into the build's (a template
    mistake met in several worker processes is reported once, as in one process). `counted`: a
    worker already brought this document's faces and problems."""
    doc.inputs |= one.inputs
    result.pages += one.pages
    if one.pdf:
        result.outputs.append(doc.path)
    if not counted:
        result.faces += one.faces
        seen = {(p.rule, p.loc, p.message) for p in problems if p.rule.startswith("template.")}
        problems += [
            p for p in one.problems if not (p.rule.startswith("template.") and (p.rule, p.loc, p.message) in seen)
        ]


def _record_for_make(
    pack: Pack,
    docs: list[Document],
    langs: list[str],
    opts: BuildOptions,
    made_with: str,
    staging: Staging,
) -> None:
    """What make needs for the next, incremental, build: a dependency file per PDF written, and per
    language built a stamp rule and the removal of PDFs of decks the pack no longer has."""
    for doc in docs:
        atomic_write_text(
            depfile_path(opts.out_dir, doc.path),
            make_rule(doc.path, doc.inputs, made_with),
            staging.scratch,
        )
    for lang in langs:
        if opts.decks is None:  # a deck renamed or removed: its old PDF goes too
            forget_removed(opts.out_dir, pack.id, lang, {d.id for d in pack.decks})
        write_stamp_rule(opts.out_dir, pack.id, lang, staging.scratch)


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


def _languages(pack: Pack, wanted: tuple[str, ...] | None) -> list[str]:
    if not wanted:
        return list(pack.spec.languages)
    unknown = [lang for lang in wanted if lang not in pack.spec.languages]
    if unknown:
        raise UsageError(
            f"pack '{pack.id}' has no language {', '.join(unknown)} (it has {', '.join(pack.spec.languages)})"
        )
    return list(wanted)


def _decks(pack: Pack, wanted: tuple[str, ...] | None) -> list[Deck]:
    if not wanted:
        return list(pack.decks)
    ids = [d.id for d in pack.decks]
    unknown = [d for d in wanted if d not in ids]
    if unknown:
        raise UsageError(
            f"pack '{pack.id}' has no deck {', '.join(unknown)}{did_you_mean(unknown[0], ids)} (it has {', '.join(ids)})"
        )
    return [d for d in pack.decks if d.id in wanted]


def _stop_on_errors(problems: list[Problem], strict: bool) -> None:
    fatal = [p for p in problems if p.severity is Severity.ERROR or strict]
    if fatal:
        raise ContentError(problems)
