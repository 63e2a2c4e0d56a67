"""The build, in one place: load → validate → localise → lay out → render → write.

Each stage is one module or package with one entry point: `load.load_pack`, `validate.validate`,
`i18n.localise.localise`, `layout.lay_out`, `render.render` (stage 5: every laid-out document
through the sinks the options ask for: the print-and-play PDF, PNG, Tabletop Simulator, the
gallery), then `write.Staging` (stage 6) renames every temporary file into place only if all is
valid. Each stage returns its result and its problems; nothing else lives here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.assets import fonts, images
from mazmorra.assets.icons import IconSet
from mazmorra.build.incremental import depfile_path, forget_removed, make_rule, up_to_date, write_stamp_rule
from mazmorra.contracts import Document, Round
from mazmorra.errors import ContentError, Problem, Severity, UsageError, did_you_mean
from mazmorra.i18n.checks.coverage import coverage_problems
from mazmorra.i18n.checks.glossary import glossary_problems
from mazmorra.i18n.checks.house import house_problems
from mazmorra.i18n.checks.literals import literal_problems
from mazmorra.i18n.labels import Label, Labels, choice_labels
from mazmorra.i18n.localise import Localisation, localise
from mazmorra.i18n.pseudo import PSEUDO, PseudoLabels, pseudo_localise
from mazmorra.layout import LayoutContext, Templates, lay_out
from mazmorra.layout.cache.facecache import FaceCache, tool_hash
from mazmorra.layout.versionstamp import pack_version
from mazmorra.load import load_pack
from mazmorra.model.content import Deck, Pack
from mazmorra.render import Outputs, Sink, SinkContext, make_sinks, once, render
from mazmorra.render.draw import svgforms
from mazmorra.render.impose import ImposeOptions
from mazmorra.render.sinks import table
from mazmorra.support import gcpolicy
from mazmorra.support.atomic import Staging, atomic_write_text
from mazmorra.support.filenames import deck_pdf
from mazmorra.support.memo import Memo
from mazmorra.support.paths import templates_dir
from mazmorra.validate import validate

if TYPE_CHECKING:  # a playtest round's machinery is imported by the builds that compare (--changed-since)
    from mazmorra.rounds import Revision

_DRAFTABLE = frozenset({"i18n.missing", "i18n.fuzzy", "i18n.label", "glossary.term", "glossary.untranslated"})
_LAYOUT_INDEPENDENT = frozenset(
    {"i18n.missing", "i18n.fuzzy", "i18n.tokens", "i18n.no-catalogue", "text.too-long"} | _DRAFTABLE
)

CHANGES = "changes"  # where a round's outputs go, inside the output folder
Progress = Callable[[str, int], None]  # (what was just done or "", how many components it finished)
# More sinks, from the caller (the live preview's in-memory gallery), given what every sink shares.
SinkFactory = Callable[[SinkContext], list[Sink]]


def _no_progress(what: str, n: int) -> None:
    pass


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] | None = None  # None: every language of the pack
    out_dir: Path = Path("output")
    strict: bool = False  # warnings fail the build
    draft: bool = False  # missing/stale translations fall back to the source, marked on the component
    decks: tuple[str, ...] | None = None  # None: every deck
    changed_only: bool = False  # skip decks whose PDF is newer than every file it was made from (make)
    outputs: Outputs = field(default_factory=Outputs)  # what stage 5 makes: PDF sheets, PNG, TTS, gallery
    jobs: int = 1  # worker processes rendering documents (decks x languages) side by side
    changed_since: Revision | None = None  # print only what changed since then, under <out_dir>/changes/
    stamp: bool = False  # a playtest build: every face carries the version stamp (off for print shops)
    cache: bool = True  # faces laid out by earlier builds are taken from <out_dir>/.cache (layout/cache/facecache.py)
    cache_dir: Path | None = None  # the face cache elsewhere (the live preview's, for the life of the server)
    values: tuple[tuple[str, str], ...] = ()  # `--set NAME=VALUE`: vars.NAME in templates
    shrinks: bool = False  # report every text set below its design size (`text.shrunk`; `i18n status`)
    pseudo: float | None = None  # build the pseudo-locale only, texts this many percent longer (`i18n pseudo`)


@dataclass
class BuildResult:
    pack: Pack
    outputs: list[Path] = field(default_factory=list)  # the PDFs written
    exports: list[str] = field(default_factory=list)  # what the other sinks wrote, one line each
    warnings: list[Problem] = field(default_factory=list)  # and notes: what was said, nothing that failed
    documents: dict[tuple[str, str], list[Problem]] = field(default_factory=dict)  # (deck, lang) -> its problems
    components: int = 0
    faces: int = 0
    laid_out: list[str] = field(default_factory=list)  # "<lang>/<component>/<side>" laid out, not from the cache
    pages: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Loaded:
    """A pack loaded as a build into an output folder loads it (`load`), for a front end that looks at
    it before building it; `build` takes it with the memo its reading filled, written only once that
    build begins (a command stopped before then writes nothing)."""

    pack: Pack
    checks: FaceCache | None = None  # the store the memo keeps its entries in (beside the face cache)
    memo: Memo | None = None  # deferred: what reading the pack kept, not yet written


@dataclass(frozen=True)
class BuildContext:
    """One build's state, made once before validation and handed to every stage after it."""

    opts: BuildOptions
    pack: Pack
    cache: FaceCache | None  # faces laid out by earlier builds
    checks: FaceCache | None  # beside it: what stages 1-3 kept (`memo`'s store)
    memo: Memo | None
    sheet: ImposeOptions  # the print sheet: the pack's page, or the options'
    decks: list[Deck]
    langs: list[str]
    version: str | None  # the version stamp's, in a build that stamps
    made_with: str  # what else, besides its input files, shapes a PDF (make's dependency files)
    stale: dict[str, list[Deck]] | None  # --changed-only: each language's decks to build (None: all)
    given: Templates | None  # the caller's compiled templates (the live preview keeps them between builds)
    used: list[str]  # the templates the pack's kinds use

    def builds(self, lang: str) -> bool:
        """Whether anything is built in `lang` (with --changed-only: a deck whose PDF is out of date)."""
        return self.stale is None or bool(self.stale[lang])

    def decks_in(self, lang: str) -> list[Deck]:
        """The decks built in `lang`."""
        return self.stale[lang] if self.stale is not None else self.decks

    @cached_property
    def icons(self) -> IconSet:
        return IconSet.for_pack(self.pack.root, self.memo)

    @cached_property
    def templates(self) -> Templates:
        cache = self.cache.beside("templates") if self.cache else None
        return self.given or Templates(self.pack.root, templates_dir(), cache)

    @cached_property
    def printed(self) -> list[Label]:
        """The labels the templates print, whatever the language."""
        return self.templates.labels(self.used)


def build(
    pack_dir: Path,
    opts: BuildOptions,
    progress: Progress = _no_progress,
    render: bool = True,
    templates: Templates | None = None,
    also: SinkFactory | None = None,
    loaded: Loaded | None = None,
) -> BuildResult:
    """Build every deck of a pack in the chosen languages; nothing is written unless all is valid.

    A long-running caller (`mazmorra serve`) may keep the compiled `templates` between builds and
    add sinks of its own (`also`); a caller that has just loaded the pack passes it (`loaded`)."""
    with gcpolicy.batched():
        try:
            return _build(pack_dir, opts, progress, render, templates, also, loaded)
        finally:
            _use(None)  # what this build read is kept in its own output folder, not by whatever reads next


def _build(
    pack_dir: Path,
    opts: BuildOptions,
    progress: Progress,
    write: bool,
    templates: Templates | None,
    also: SinkFactory | None,
    loaded: Loaded | None,
) -> BuildResult:
    """The stages in order: load, validate, localise, lay out (lazily), render, write."""
    t0 = time.perf_counter()
    run = _begin(pack_dir, opts, templates, loaded)  # 1. load
    opts = run.opts  # (a round's: its own output folder)
    if run.stale is not None and not any(run.stale.values()):  # make's no-op: nothing validated or laid out
        return BuildResult(run.pack, components=len(run.pack.components()), seconds=time.perf_counter() - t0)
    problems = validate(run.pack, run.icons)  # 2. validate
    docs: list[Document] = []
    rounds: dict[str, Round] = {}  # a round's earlier faces, per language: what the gallery shows beside the new
    for lang in filter(run.builds, run.langs):
        localisation, labels, found = _localise(run, lang)  # 3. localise
        laid, rnd, found_laying = _lay_out(run, localisation, labels)  # 4. lay out: lazily, while 5 consumes it
        problems += found + found_laying
        docs += laid
        rounds.update({lang: rnd} if rnd is not None else {})
    if any(p.severity is Severity.ERROR for p in problems if p.rule not in _LAYOUT_INDEPENDENT):
        raise ContentError(once(problems))  # templates assume valid data: report rule problems without layout noise
    if opts.changed_only:
        docs = [d for d in docs if not up_to_date(d.path, depfile_path(opts.out_dir, d.path), run.made_with)]
    write = write and not any(p.severity is Severity.ERROR for p in problems)  # else: lay out, to report overflows
    try:
        result = _render_and_write(run, docs, rounds, problems, write, also, progress)  # 5. and 6.
    finally:
        if run.checks is not None and run.memo is not None and run.memo.written:
            run.checks.trim()
    result.seconds = time.perf_counter() - t0
    return result


def _begin(pack_dir: Path, opts: BuildOptions, templates: Templates | None, loaded: Loaded | None) -> BuildContext:
    """Stage 1 (unless the caller loaded the pack) and what every later stage shares: the caches, the
    print sheet, the decks and languages, what make judges outputs by, the icons and templates."""
    cache = FaceCache.for_output(opts.out_dir, opts.cache_dir) if opts.cache else None  # not a round's own folder
    checks, memo = _stage_memo(cache, loaded)
    if opts.changed_since is not None:  # a round's changes never overwrite the whole decks' outputs
        opts = replace(opts, out_dir=opts.out_dir / CHANGES)
    pack = loaded.pack if loaded is not None else load_pack(pack_dir, memo)
    sheet = opts.outputs.sheet or ImposeOptions(page=pack.spec.page, landscape=None)
    if sheet.bleed is not None:  # the build's own bleed (--bleed) replaces the pack's
        pack = replace(pack, spec=pack.spec.model_copy(update={"bleed": sheet.bleed}))
    decks = _decks(pack, opts.decks)
    langs = [PSEUDO] if opts.pseudo is not None else _languages(pack, opts.langs)
    version = pack_version(pack.root, pack.spec.version) if opts.stamp else None
    made_with = f"sheet {_options(sheet)} draft={opts.draft}"
    made_with += f" stamp={version}" if opts.stamp else ""
    made_with += f" set={dict(opts.values)}" if opts.values else ""  # a print variant: not up to date with another
    stale = _stale(pack, decks, langs, opts, made_with)
    used = sorted({t for d in pack.decks for k in d.kinds for t in (k.template, k.back_template) if t})
    return BuildContext(
        opts, pack, cache, checks, memo, sheet, decks, langs, version, made_with, stale, templates, used
    )


def _localise(run: BuildContext, lang: str) -> tuple[Localisation, Labels, list[Problem]]:
    """Stage 3 in one language (the pseudo-locale: every source text made longer): the pack's texts,
    its template labels, and what the language's checks found (a draft's missing translations as
    warnings: it falls back visibly instead of failing)."""
    opts, pack = run.opts, run.pack
    printed = run.printed
    if opts.pseudo is not None:
        localisation = pseudo_localise(pack, opts.pseudo, run.memo)
        labels: Labels = PseudoLabels(pack.root, templates_dir(), opts.pseudo, run.memo)
    else:
        localisation = localise(pack, lang, run.memo)
        labels = Labels(pack.root, templates_dir(), lang, run.memo)
    found = [
        *localisation.problems,
        *glossary_problems(pack, localisation, labels, printed, run.memo),
        *coverage_problems(pack, localisation, labels, [*printed, *choice_labels(pack.kinds())]),
    ]
    if opts.pseudo is None:
        found += house_problems(pack, localisation, run.memo)  # warnings: the house style of rules text
    drafted = [replace(p, severity=Severity.WARNING) if opts.draft and p.rule in _DRAFTABLE else p for p in found]
    return localisation, labels, drafted


def _lay_out(
    run: BuildContext, localisation: Localisation, labels: Labels
) -> tuple[list[Document], Round | None, list[Problem]]:
    """Stage 4 in one language: its documents, laid out as they are iterated; a round's earlier faces;
    what setting the layout up found (the pack's own fonts)."""
    opts = run.opts
    ctx = LayoutContext(
        run.pack,
        localisation,
        run.templates,
        run.icons,
        labels,
        opts.out_dir,
        opts.draft,
        opts.stamp,
        run.version,
        opts.values,
        run.cache,
        shrinks=opts.shrinks,
        printer=opts.outputs.printer,
    )
    sheet = run.sheet if opts.outputs.pdf else None
    docs, rnd = _documents(run.decks_in(localisation.lang), ctx, opts.changed_since, sheet)
    return docs, rnd, list(ctx.problems)


def _render_and_write(
    run: BuildContext,
    docs: list[Document],
    rounds: dict[str, Round],
    earlier: list[Problem],
    write: bool,
    also: SinkFactory | None,
    progress: Progress,
) -> BuildResult:
    """Stage 5, every document through the sinks (none when nothing is to be written: laid out only,
    to report what layout finds), then stage 6: every temporary file renamed into place, only if no
    stage found an error (or, with --strict, a warning)."""
    opts, pack, cache = run.opts, run.pack, run.cache
    result = BuildResult(pack, components=len(pack.components()))
    staging = Staging(opts.out_dir)
    try:
        sinks: list[Sink] = []
        if write:
            shared = SinkContext(pack, opts.out_dir, run.icons, staging.temp, opts.outputs, run.sheet, rounds)
            sinks = make_sinks(shared) + (also(shared) if also else [])
        with svgforms.using(cache.beside("forms") if cache else None):  # icons' forms kept between builds
            rendered = render(docs, sinks, staging, opts.jobs, progress, earlier)  # 5. render
        problems = once(earlier + rendered.all_problems())
        result.documents = rendered.by_document()
        result.faces, result.laid_out = rendered.faces, rendered.laid_out
        used, missing = run.used, rendered.labels  # what the layout met untranslated, in any process
        if opts.changed_since is not None:  # a round's removal list: its labels at its template's lines
            from mazmorra.rounds.removal import TEMPLATE

            used = [*used, TEMPLATE]
        problems += run.templates.label_problems(used, missing, pack.root, opts.draft, choice_labels(pack.kinds()))
        problems += literal_problems(run.templates.files(used), pack.spec.languages)
        _stop_on_errors(problems, opts.strict)  # nothing has reached the output folder yet
        staging.commit()  # 6. write: every temporary file renamed onto its target
        for sink in sinks:
            sink.committed()
            listed, pages = sink.listed()  # the PDFs: one path a line, their pages counted
            result.outputs += listed
            result.pages += pages
            result.exports += sink.summary()
        pdfs = [(d, rendered.inputs[(d.deck_id, d.lang)]) for d in docs if d.path in set(result.outputs)]
        _record_for_make(pack, pdfs, run.langs if write and opts.outputs.pdf else [], opts, run.made_with, staging)
    finally:
        staging.discard()
        if cache is not None and result.laid_out:  # only new entries can take it past its bound
            cache.trim()
    result.warnings = [p for p in problems if p.severity is not Severity.ERROR]  # and notes
    return result


def _stage_memo(cache: FaceCache | None, loaded: Loaded | None) -> tuple[FaceCache | None, Memo | None]:
    """The store beside the face cache where stages 1-3 keep what they read and found between builds,
    and its memo; from now on YAML files, catalogues and fonts an earlier build parsed are not parsed
    again. The memo the caller's own load filled, when it reads the same store, is written now."""
    checks = _checks_of(cache)
    memo = (
        loaded.memo
        if loaded is not None and loaded.checks is not None and checks is not None and loaded.checks.root == checks.root
        else None
    )
    if memo is not None:
        memo.flush()
    elif checks is not None:
        memo = Memo(checks, tool_hash())
    _use(memo)
    return checks, memo


def _checks_of(cache: FaceCache | None) -> FaceCache | None:
    """The store beside the face cache, by its absolute path (whatever the working folder is later)."""
    return replace(cache.beside("checks"), root=cache.root.parent.resolve() / "checks") if cache is not None else None


def _use(memo: Memo | None) -> None:
    """What stages 1-3, the fonts and SVG pictures read from now on is kept in `memo` (None: nowhere)."""
    fonts.use_memo(memo)
    images.use_memo(memo)


def load(pack_dir: Path, out_dir: Path) -> Loaded:
    """Stage 1 alone, as a build into `out_dir` loads (with what its cache keeps: the kinds index), for
    a caller that looks at the pack before building it (`build(loaded=)`); what it would keep there is
    written only once that build begins."""
    checks = _checks_of(FaceCache.for_output(out_dir))
    memo = Memo(checks, tool_hash(), deferred=True) if checks is not None else None
    _use(memo)
    return Loaded(load_pack(pack_dir, memo), checks, memo)


def _record_for_make(
    pack: Pack,
    pdfs: list[tuple[Document, set[Path]]],
    langs: list[str],
    opts: BuildOptions,
    made_with: str,
    staging: Staging,
) -> None:
    """What make needs for the next, incremental, build: a dependency file per PDF written (with every
    file it was made from), and per language built a stamp rule and the removal of PDFs of decks the
    pack no longer has."""
    for doc, inputs in pdfs:
        atomic_write_text(depfile_path(opts.out_dir, doc.path), make_rule(doc.path, inputs, made_with), staging.scratch)
    for lang in langs:
        if opts.decks is None:  # a deck renamed or removed (or, in a round, unchanged): its old PDF goes too
            keep = {d.path.stem for d, _ in pdfs} if opts.changed_since else {d.file_name(lang) for d in pack.decks}
            forget_removed(opts.out_dir, pack.id, lang, keep)
        write_stamp_rule(opts.out_dir, pack.id, lang, staging.scratch)


def _stale(
    pack: Pack, decks: list[Deck], langs: list[str], opts: BuildOptions, made_with: str
) -> dict[str, list[Deck]] | None:
    """With --changed-only, the decks of each language whose PDF is older than a file it was made from
    (its dependency file), or was made otherwise: only those are localised, laid out and written. None
    when every deck is built (not --changed-only; a round; the pseudo-locale; a sink the table says
    keeps no dependency files)."""
    runs = table.wanted(opts.outputs)
    keeping = bool(runs) and all(decl.changed_only for decl in runs)  # (--changed-only refuses the others)
    if not opts.changed_only or opts.changed_since is not None or opts.pseudo is not None or not keeping:
        return None
    out = {}
    for lang in langs:
        paths = {d.id: deck_pdf(opts.out_dir, pack.id, lang, d.file_name(lang)) for d in decks}
        out[lang] = [
            d for d in decks if not up_to_date(paths[d.id], depfile_path(opts.out_dir, paths[d.id]), made_with)
        ]
    return out


def _documents(
    decks: list[Deck], ctx: LayoutContext, since: Revision | None, sheet: ImposeOptions | None
) -> tuple[list[Document], Round | None]:
    """Stage 4's documents in one language: every deck; or, in a round (`--changed-since`), the
    decks' changed and added components only and, when there are print sheets, the list of those to
    take out (removed.pdf), with the round as the gallery shows it (the earlier faces)."""
    if since is None:
        return [lay_out(deck, ctx) for deck in decks], None
    from mazmorra.rounds.compare import compared
    from mazmorra.rounds.removal import removal_document

    changes, rnd = compared(since.folder, ctx.pack.root, ctx.lang, since.rev)
    printing = changes.to_print()
    changed = {c.deck for c in changes.changes if c.component in printing}
    docs = [lay_out(deck, ctx, printing) for deck in decks if deck.id in changed]
    if len(decks) < len(ctx.pack.decks):  # --deck: only those decks' removals
        wanted = {d.id for d in decks}
        changes = replace(changes, changes=tuple(c for c in changes.changes if c.deck in wanted))
        rnd = replace(rnd, status={c.component: c.status for c in changes.changes})
    removal = removal_document(changes, ctx, sheet) if sheet is not None else None
    return docs + ([removal] if removal is not None else []), rnd


def _options(sheet: ImposeOptions) -> str:
    """The print sheet's options as make's dependency files record them: every field by name, not
    tied to how the class is called."""
    return json.dumps(asdict(sheet), sort_keys=True)


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
    fatal = [p for p in problems if p.severity is Severity.ERROR or (strict and p.severity is Severity.WARNING)]
    if fatal:
        raise ContentError(problems)
