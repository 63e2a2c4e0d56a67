"""Stage 5's one protocol: a sink turns laid-out documents into one kind of output.

The print-and-play PDF, PNG per face, Tabletop Simulator decks and the gallery are each one sink, in
a module of this package. Every sink is fed the same stream of laid-out items (`add` per component,
between `start` and `end` per document: deck × language), possibly in a worker process, and
returns what the parent must know as a value (`end` -> `Part`: its problems, the files it staged,
what it wrote); the parent `absorb`s each document's part, then calls `finish` once per pack for
pack-wide outputs. A sink writes only through `stage`, which hands out temporary files that stage
6 renames into place once the whole build is valid, and names every file and folder through
`support/filenames.py` (`Sink.file`). Pixels exist only in the raster sinks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.errors import Problem
from mazmorra.support.filenames import Names, output_path

if TYPE_CHECKING:
    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Document, Item, Round
    from mazmorra.model.content import Pack
    from mazmorra.render.impose import ImposeOptions
    from mazmorra.render.sinks.table import Outputs

Stage = Callable[[Path], Path]  # target -> the temporary file to write it to


@dataclass(frozen=True)
class SinkContext:
    """What every sink of one build shares."""

    pack: Pack
    out_dir: Path
    icons: IconSet
    stage: Stage
    outputs: Outputs
    sheet: ImposeOptions  # resolved: the build's print sheets
    rounds: dict[str, Round] = field(default_factory=dict)  # a playtest round's earlier faces, per language


@dataclass
class Part:
    """What one sink made of one document, as the parent process needs it: the problems it found,
    the files it wrote (folder -> files), one line per file worth telling the user, and its own data."""

    problems: list[Problem] = field(default_factory=list)
    written: dict[Path, set[Path]] = field(default_factory=dict)
    made: list[str] = field(default_factory=list)
    drew: set[Path] = field(default_factory=set)  # files it drew that the layout does not name (icons, images)
    data: Any = None


class Sink:
    """One output of stage 5. Its module declares it (`SINK = SinkDecl(...)`, table.py): its name,
    options, docs section and what it supports; the class overrides `add` (and, as it needs, the
    other steps)."""

    def __init__(self, ctx: SinkContext):
        self.ctx = ctx
        self.pack, self.out_dir, self.icons, self.opts = ctx.pack, ctx.out_dir, ctx.icons, ctx.outputs
        self.written: dict[Path, set[Path]] = {}  # every file the build wrote, by folder
        self.made: list[str] = []
        self._part = Part()
        self.names = Names()  # the current document's file names, by folder

    def start(self, doc: Document) -> None:
        """A document begins (in the process that lays it out)."""

    def add(self, doc: Document, item: Item) -> None:
        """One component laid out (all its copies)."""

    def end(self, doc: Document) -> Part:
        """The document's last component has been added: what the parent must know of it."""
        part, self._part, self.names = self._part, Part(), Names()
        return part

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        """In the parent process: one document's part, and every problem found while it was laid
        out and rendered."""
        for folder, files in part.written.items():
            self.written.setdefault(folder, set()).update(files)
        self.made += part.made

    def finish(self, earlier: list[Problem]) -> list[Problem]:
        """Every document of the pack is done (pack-wide outputs), shown the problems of the stages
        before this one: more problems, if any."""
        return []

    def committed(self) -> None:
        """Everything staged is in place: remove files a previous build left that this one did not
        write, in folders this sink owns."""

    def summary(self) -> list[str]:
        """What to tell the user was written."""
        return self.made

    def listed(self) -> tuple[list[Path], int]:
        """The documents this sink wrote that make follows (with their dependency files: a sink the
        table says keeps them), listed one path a line, and their pages; none by default."""
        return [], 0

    # -- for subclasses
    def problem(self, problem: Problem) -> None:
        """A problem of the current document, returned with its part."""
        self._part.problems.append(problem)

    def file(self, folder: Path, pattern: str, **values: str | int) -> Path:
        """A file of the current document in `folder`, named by `pattern` filled with `values` (the one
        name maker: safe, inside `folder`, unique in it; the same request gets the same name)."""
        return output_path(folder, pattern, self.names, **values)

    def write(self, target: Path, data: bytes) -> None:
        """Stage one file of the current document."""
        self.ctx.stage(target).write_bytes(data)
        self._part.written.setdefault(target.parent, set()).add(target)

    def staged(self, target: Path) -> bool:
        """Whether the current document has already staged target."""
        return target in self._part.written.get(target.parent, set())


def back_image(doc: Document, item: Item, suffix: str) -> tuple[str, dict[str, str | int]]:
    """The name pattern of a component's back image and its values: `{component}-back` for its own
    back; `back` for the deck's back, `back-{variant}` (kind and size) for the backs of the other kinds
    and sizes a deck mixes (one image each, written once per deck)."""
    assert item.back is not None
    if not item.shared_back:
        return "{component}-back" + suffix, {"component": item.front.component}
    own = f"deck:{doc.deck_id}"
    if item.back.component == own:
        return "back" + suffix, {}
    return "back-{variant}" + suffix, {"variant": item.back.component[len(own) + 1 :].replace(":", "-")}


def prune(folder: Path, keep: set[Path], suffixes: tuple[str, ...]) -> None:
    """Delete files with these suffixes under folder that are not in keep, then empty folders."""
    if not folder.is_dir():
        return
    keep = {p.resolve() for p in keep}
    for p in sorted(folder.rglob("*"), reverse=True):
        if p.is_file() and p.suffix in suffixes and p.resolve() not in keep:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
