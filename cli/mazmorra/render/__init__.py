"""Stage 5, render: laid-out documents into every output the build asks for.

One entry, `render(docs, sinks, staging, jobs, progress)`: each document is laid out once, its items
streamed through every sink (`sinks/sink.py`: the protocol; one module per sink, which declares it:
`pdf.py` the print-and-play sheets, `png.py`, `cardpdf.py`, `sheetimages.py`, `tts.py`, `gallery.py`,
`cutfile.py` for cutting machines), documents side by side in forked worker processes when `jobs` > 1.
The sink table (`sinks/table.py`, `sinks()`) is what the sink modules declare: each sink, its options
and what it supports; `make_sinks` builds the sinks a build's `Outputs` want. Imposition (`impose/`)
and drawing (`draw/`, `raster.py`) are the sinks' tools, imported only by a sink that uses them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem, once
from mazmorra.render.sinks import table
from mazmorra.render.sinks.sink import Part, Sink, SinkContext
from mazmorra.render.sinks.table import Outputs, SinkDecl

if TYPE_CHECKING:
    from mazmorra.contracts import Document
    from mazmorra.support.atomic import Staging

__all__ = ["Outputs", "Rendered", "Sink", "SinkContext", "make_sinks", "once", "render", "sink_class"]

Progress = Callable[[str, int], None]  # (what was just done or "", how many components it finished)


def sink_class(decl: SinkDecl) -> type[Sink]:
    """The class of a declared sink (a `Sink`: the table, below the protocol, types it loosely)."""
    assert issubclass(decl.cls, Sink), decl.name
    return decl.cls


def make_sinks(ctx: SinkContext) -> list[Sink]:
    """The sinks the build's outputs want, in the table's order."""
    return [sink_class(decl)(ctx) for decl in table.wanted(ctx.outputs)]


def _prints(sink: Sink) -> bool:
    """Whether the table says this sink makes print sheets: it also takes the documents only printed
    (`Document.sheets_only`: a round's removal list)."""
    decl = table.declaration_of(type(sink))
    return decl is not None and decl.prints


@dataclass
class _Done:
    """One document rendered, as a worker process hands it to the parent."""

    faces: int
    problems: list[Problem]
    parts: list[Part | None]  # None: a sink the document does not go to (`Document.sheets_only`)
    staged: list[tuple[Path, Path]]  # (temporary file, target) the document's sinks staged
    labels: list[str] = field(default_factory=list)  # template labels its items met untranslated
    laid_out: list[str] = field(default_factory=list)  # faces laid out now, not taken from the face cache


@dataclass
class Rendered:
    """What stage 5 made of a build's documents."""

    faces: int = 0
    laid_out: list[str] = field(default_factory=list)  # "<lang>/<component>/<side>": faces laid out, not cached
    problems: dict[tuple[str, str], list[Problem]] = field(default_factory=dict)  # (deck, lang) -> its problems
    labels: dict[str, list[str]] = field(default_factory=dict)  # lang -> template labels met untranslated
    inputs: dict[tuple[str, str], set[Path]] = field(default_factory=dict)  # (deck, lang) -> made from (`made_from`)
    finished: list[Problem] = field(default_factory=list)  # what the sinks' pack-wide steps found

    def all_problems(self) -> list[Problem]:
        """Every problem, a template mistake once whichever documents met it."""
        return once([p for found in self.problems.values() for p in found] + self.finished)

    def by_document(self) -> dict[tuple[str, str], list[Problem]]:
        """Each document's problems, a template mistake only with the first document that met it."""
        seen: set[tuple[str, object, str]] = set()
        out = {}
        for key, found in self.problems.items():
            out[key] = once(found, seen)
        return out


def render(
    docs: list[Document],
    sinks: list[Sink],
    staging: Staging,
    jobs: int,
    progress: Progress,
    earlier: list[Problem],
) -> Rendered:
    """Stage 5: every document laid out once and streamed through every sink; with `jobs` > 1 (and
    where processes fork) documents side by side in worker processes, whose parts, problems and
    staged files come back to this process as values. Then each sink's pack-wide step, shown the
    problems of the earlier stages (`earlier`: each document's own came with its part)."""

    spare = max(jobs // max(len(docs), 1) - 1, 0)  # jobs left over per document: they help lay it out

    def one(i: int, prog: Progress) -> _Done:
        doc = replace(docs[i], spare=spare)  # ahead (layout/ahead.py) and draw its chunks (render/draw/chunks.py)
        before = len(staging.files)
        faces, problems, labels, laid = 0, list(doc.problems), dict[str, None](), list[str]()
        mine = [s for s in sinks if _prints(s) or not doc.sheets_only]
        for sink in mine:
            sink.start(doc)
        for item in doc.items(doc.spare):
            prog("", item.copies)  # advances a progress bar; says nothing in plain logs
            faces += item.copies * (1 + (item.back is not None))
            problems += item.problems
            labels.update(dict.fromkeys(item.labels))  # what each of its faces met, said once
            laid += [f"{doc.lang}/{face}" for face in item.laid_out]
            for sink in mine:
                sink.add(doc, item)
        parts = [sink.end(doc) if sink in mine else None for sink in sinks]
        for part in parts:
            problems += part.problems if part is not None else []
        what = "rendered" if sinks else "checked"
        prog(f"{what} {doc.pack_id}/{doc.lang}/{doc.file_name}", 0)
        return _Done(faces, problems, parts, list(staging.files[before:]), list(labels), laid)

    from mazmorra.support import workers  # forking machinery: only when rendering, not for --help

    if len(docs) > 1 and jobs > 1 and workers.can_fork() and sinks:
        if any(_prints(s) for s in sinks):  # fonts and the SVG machinery loaded once, before forking
            from mazmorra.render.draw.pdfpages import warm_up

            warm_up()
        done = workers.run(len(docs), one, jobs, progress, [len(d.sizes) for d in docs])
        mine = set(staging.files)  # the documents this process rendered itself staged theirs already
        for d in done:  # a worker's temporary files, renamed or removed by this process's staging
            staging.files += [f for f in d.staged if f not in mine]
    else:
        done = [one(i, progress) for i in range(len(docs))]
    result = Rendered()
    for doc, d in zip(docs, done):
        result.faces += d.faces
        result.laid_out += d.laid_out
        result.problems[(doc.deck_id, doc.lang)] = d.problems
        result.labels.setdefault(doc.lang, []).extend(d.labels)
        result.inputs[(doc.deck_id, doc.lang)] = made_from(doc, d.parts)
        for sink, part in zip(sinks, d.parts):
            if part is not None:
                sink.absorb(doc, part, d.problems)
    before = len(staging.files)
    for sink in sinks:
        result.finished += sink.finish(earlier)
    result.finished += _clashes(docs, [d.staged for d in done] + [staging.files[before:]], sinks)
    return result


def made_from(doc: Document, parts: list[Part | None]) -> set[Path]:
    """Every file a document's outputs were made from (make's dependency files): what its layout
    read, and what each sink's part says it drew besides (the icons and images on its PDF pages)."""
    return doc.inputs.union(*(part.drew for part in parts if part is not None))


def _clashes(docs: list[Document], staged: list[list[tuple[Path, Path]]], sinks: list[Sink]) -> list[Problem]:
    """Two documents (or one and a pack-wide step, the last of `staged`) that would write the same file:
    each document names its own files uniquely (support/filenames.py), but two decks whose ids differ
    only in what a file name cannot hold (`a.` and `a`) would meet in a shared folder. An error at
    the later deck's entry in pack.yaml, so that nothing is overwritten."""
    owner: dict[str, int] = {}
    found: dict[str, Problem] = {}
    for i, files in enumerate(staged):
        for _, target in files:
            key = str(target).casefold()  # as Windows and macOS compare names
            first = owner.setdefault(key, i)
            if first == i or key in found:
                continue
            what = [_doc_words(docs[n]) if n < len(docs) else "the pack's own pages" for n in (first, i)]
            deck = docs[i].deck_id if i < len(docs) else docs[first].deck_id
            msg = f"{target} would be written for {what[0]} and for {what[1]}: give one of them another id"
            loc = sinks[0].pack.deck_loc(deck, "id")
            found[key] = Problem("output.name-clash", msg, loc, f"deck:{deck}", field="id")
    return list(found.values())


def _doc_words(doc: Document) -> str:
    """A document as a message names it."""
    return "the list of components to take out" if doc.sheets_only else f"deck '{doc.deck_id}' ({doc.lang})"
