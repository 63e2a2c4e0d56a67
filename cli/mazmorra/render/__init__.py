"""Stage 5, render: laid-out documents into every output the build asks for.

One entry, `render(docs, sinks, staging, jobs, progress)`: each document is laid out once, its items
streamed through every sink (`sink.py`: the protocol; one module per sink: `pdf.py` the
print-and-play sheets, `png.py`, `tts.py`, `gallery.py`, `cutfile.py` for cutting machines), documents side by side in forked worker
processes when `jobs` > 1. `make_sinks` builds the list from the build's `Outputs`; `SINKS` names
every sink in the order they run. Imposition (`impose.py`, `posters.py`) and drawing (`draw.py`,
`raster.py`) are the sinks' tools.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem, once
from mazmorra.render.sinks.sink import Outputs, Part, Sink, SinkContext
from mazmorra.support import workers

if TYPE_CHECKING:
    from mazmorra.contracts import Document
    from mazmorra.support.atomic import Staging

__all__ = ["SINKS", "Outputs", "Rendered", "Sink", "SinkContext", "make_sinks", "once", "render", "sink_classes"]

Progress = Callable[[str, int], None]  # (what was just done or "", how many components it finished)

# Every sink, in the order they run: its name -> "module:class". A new output is one module of
# this package and one line in this table (tests/render/sinks/test_sinks.py then asks for its build option, its
# docs section and a test).
SINKS: dict[str, str] = {
    "pdf": "mazmorra.render.sinks.pdf:PdfSink",
    "png": "mazmorra.render.sinks.png:PngSink",
    "cards": "mazmorra.render.sinks.cardpdf:CardPdfSink",
    "sheet-images": "mazmorra.render.sinks.sheetimages:SheetImageSink",
    "tts": "mazmorra.render.sinks.tts:TtsSink",
    "gallery": "mazmorra.render.sinks.gallery:GallerySink",
    "cut": "mazmorra.render.sinks.cutfile:CutSink",
}


def sink_classes(names: list[str] | None = None) -> list[type[Sink]]:
    """Every registered sink class (or those `names`), in order (each module imported only now:
    `validate` never pays for ReportLab or the rasteriser)."""
    found = []
    for where in [SINKS[n] for n in names] if names is not None else SINKS.values():
        module, _, cls = where.partition(":")
        found.append(getattr(importlib.import_module(module), cls))
    return found


def make_sinks(ctx: SinkContext) -> list[Sink]:
    """The sinks the build's outputs ask for, in a fixed order. A build of the print sheets alone (every
    output option else at its default) imports the PDF sink only, not the rasteriser and the others."""
    out = ctx.outputs
    plain = Outputs(sheet=out.sheet, dpi=out.dpi, png_bleed=out.png_bleed, tts_url=out.tts_url)  # none ask a sink
    classes = sink_classes(["pdf"]) if out == plain else sink_classes()
    return [cls(ctx) for cls in classes if cls.wanted(out)]


@dataclass
class _Done:
    """One document rendered, as a worker process hands it to the parent."""

    faces: int
    problems: list[Problem]
    parts: list[Part | None]  # None: a sink the document does not go to (`Document.sheets_only`)
    staged: list[tuple[Path, Path]]  # (temporary file, target) the document's sinks staged
    labels: list[str] = field(default_factory=list)  # template labels its layout met untranslated
    laid_out: list[str] = field(default_factory=list)  # faces laid out now, not taken from the face cache


@dataclass
class Rendered:
    """What stage 5 made of a build's documents."""

    faces: int = 0
    laid_out: list[str] = field(default_factory=list)  # "<lang>/<component>/<side>": faces laid out, not cached
    problems: dict[tuple[str, str], list[Problem]] = field(default_factory=dict)  # (deck, lang) -> its problems
    labels: dict[str, list[str]] = field(default_factory=dict)  # lang -> template labels met untranslated
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

    def one(i: int, prog: Progress) -> _Done:
        doc = docs[i]
        before = len(staging.files)
        faces, problems, labels, laid = 0, list(doc.problems), list[str](), list[str]()
        mine = [s for s in sinks if s.takes(doc)]
        for sink in mine:
            sink.start(doc)
        for item in doc.items():
            prog("", item.copies)  # advances a progress bar; says nothing in plain logs
            faces += item.copies * (1 + (item.back is not None))
            problems += item.problems
            labels += item.labels
            laid += [f"{doc.lang}/{face}" for face in item.laid_out]
            for sink in mine:
                sink.add(doc, item)
        parts = [sink.end(doc) if sink in mine else None for sink in sinks]
        for part in parts:
            problems += part.problems if part is not None else []
        what = "rendered" if sinks else "checked"
        prog(f"{what} {doc.pack_id}/{doc.lang}/{doc.deck_id}", 0)
        return _Done(faces, problems, parts, list(staging.files[before:]), labels, laid)

    spare = max(jobs // max(len(docs), 1) - 1, 0)  # jobs left over per document: they help lay it out
    with workers.sparing(spare):  # ahead (layout/ahead.py) and draw its chunks (render/draw/chunks.py)
        if len(docs) > 1 and jobs > 1 and workers.can_fork() and sinks:
            if any(s.prints for s in sinks):  # fonts and the SVG machinery loaded once, before forking
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
        for sink, part in zip(sinks, d.parts):
            if part is not None:
                sink.absorb(doc, part, d.problems)
    for sink in sinks:
        result.finished += sink.finish(earlier)
    return result
