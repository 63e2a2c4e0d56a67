"""`mazmorra build` of one pack, or of several side by side.

A pack builds in one process from its load to its last file (stages 1-6, `pipeline.build`), its
documents in `-j` worker processes. Several packs with `-j` 2 or more would leave cores idle while
each pack loads, validates and localises, and while its last document finishes: so the packs are
shared out instead, whole, over one pool of `-j` processes forked once (fonts and the SVG machinery
loaded before, `draw.warm_up`), the heaviest first, each pack built at `-j1` by whichever process
takes it. A pack heavy enough to keep a core busy as long as all the others together (its source
files weigh at least a `-j`th of every pack's) is built alone first, with every job, as before.

What each pack came to (`Built`) goes back to the command, which reports the packs in order, each
as soon as it can.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.build.choices import parse_langs
from mazmorra.errors import ContentError, MazmorraError, Problem

if TYPE_CHECKING:
    from mazmorra.build.args import BuildArgs
    from mazmorra.build.pipeline import BuildResult

Progress = Callable[[str, int], None]
SOURCES = (".yaml", ".yml", ".csv", ".tsv", ".po", ".xlsx", ".ods", ".j2", ".xml")  # what a pack's build time follows


@dataclass
class Built:
    """One pack's build, as a worker process hands it back: what the command reports, not the pack."""

    name: str  # the pack's id (its folder's name when it did not load)
    ok: bool = True
    problems: list[Problem] = field(default_factory=list)  # a built pack's warnings; a failed one's problems
    outputs: list[str] = field(default_factory=list)  # the PDFs written
    exports: list[str] = field(default_factory=list)  # what the other outputs wrote, a line each
    faces: int = 0
    laid_out: int = 0
    pages: int = 0
    seconds: float = 0.0
    stopped: tuple[str, int] | None = None  # (message, exit code) of what stops the command in a pool's process:
    # the command line asked the pack for what it does not have, an output could not be written
    notes: list[str] = field(default_factory=list)  # said before the build (a round: the pack is new)

    @classmethod
    def of(cls, res: BuildResult, notes: list[str]) -> Built:
        return cls(
            res.pack.id,
            problems=res.warnings,
            outputs=[str(p) for p in res.outputs],
            exports=res.exports,
            faces=res.faces,
            laid_out=len(res.laid_out),
            pages=res.pages,
            seconds=res.seconds,
            notes=notes,
        )


def build_one(pack_dir: Path, args: BuildArgs, progress: Callable[[int, str], Any], jobs: int | None = None) -> Built:
    """One pack loaded and built (`progress(total, label)`: the progress display of its components;
    `jobs`: instead of the command's -j). A pack whose content fails comes back as not ok; a
    command line the pack cannot take raises a UsageError."""
    from mazmorra.build.pipeline import build, load

    name = pack_dir.name
    try:
        loaded = load(pack_dir, args.out_dir)
        pack = loaded.pack
        name = pack.id
        with (
            _earlier(pack_dir, args.changed_since) if args.changed_since else nullcontext() as since,
            progress(args.copies(pack), f"building {pack.id}") as shown,
        ):
            notes = []
            if args.changed_since and since is None:
                notes.append(f"{pack.id} was not in revision {args.changed_since}: all of it is new")
            opts = args.build_options(pack, since)
            res = build(pack_dir, replace(opts, jobs=jobs or opts.jobs), shown, loaded=loaded)
    except ContentError as exc:  # each pack stands alone: reported, the others built
        return Built(name, ok=False, problems=exc.problems)
    return Built.of(res, notes)


def build_all(
    dirs: list[Path], args: BuildArgs, progress: Callable[[int, str], Any], report: Callable[[Built], None]
) -> None:
    """Every pack built and handed to `report`: first those built alone, each as it finishes; then
    those of the shared pool in the order given, each as soon as it and those before it are done.
    What stops the command in a pool's process (a usage error, an output that cannot be written) is
    raised where its pack comes, as one process would raise it, once the pool is done (the packs it
    built meanwhile are kept, not reported)."""
    from mazmorra.support import workers

    shared = workers.can_fork() and not args.changed_since  # a round compares revisions pack by pack
    weights = {d: weight(d) for d in dirs} if shared else {}
    alone, together = plan(weights, args.jobs) if shared else (dirs, [])
    for d in alone:
        report(build_one(d, args, progress))
    if not together:
        return
    from mazmorra.layout import warm
    from mazmorra.render.draw import pdfpages

    pdfpages.warm_up()  # fonts and the SVG machinery, and the hyphenation dictionaries: inherited by every process of the pool
    warm.warm_up(list(parse_langs(args.lang) or languages(together)))

    def one(i: int, prog: Progress) -> Built:
        try:
            quiet = nullcontext(
                lambda what, k: prog(what, 0) if what else None
            )  # its lines said, the pool counts packs
            built = build_one(together[i], args, lambda total, label: quiet, jobs=1)
        except (MazmorraError, OSError) as exc:  # what the command's guard turns into a message and exit code
            built = Built(together[i].name, ok=False, stopped=(str(exc), getattr(exc, "exit_code", 1)))
        prog("", 1)  # one more pack done
        return built

    waiting: dict[int, Built] = {}
    turn = 0  # the next pack to report; it stays at a pack that stops the command

    def arrived(i: int, built: Built) -> None:
        """Report every pack whose turn has come: in order, each once those before it are done; none
        after one that stops the command (raised once the pool is done: never from inside a build)."""
        nonlocal turn
        waiting[i] = built
        while turn in waiting and waiting[turn].stopped is None:
            report(waiting.pop(turn))
            turn += 1

    with progress(len(together), f"building {len(together)} packs") as shown:
        workers.run(len(together), one, min(args.jobs, len(together)), shown, [weights[d] for d in together], arrived)
    stopped = waiting.get(turn)
    if stopped is not None and stopped.stopped is not None:
        stop = MazmorraError(stopped.stopped[0])  # the command's guard says it and exits with its code
        stop.exit_code = stopped.stopped[1]
        raise stop


def plan(weights: dict[Path, int], jobs: int) -> tuple[list[Path], list[Path]]:
    """(packs built one after another, each with every job; packs shared out over one pool), from
    each pack's `weight`, in the order given."""
    dirs = list(weights)
    if jobs < 2 or len(dirs) < 2:
        return dirs, []
    total = sum(weights.values())
    alone = [d for d in dirs if weights[d] * jobs >= total]  # as long as the rest together: every core's share
    together = [d for d in dirs if d not in alone]
    return (alone, together) if len(together) > 1 else (dirs, [])


def languages(dirs: list[Path]) -> list[str]:
    """Every language the packs' pack.yaml files name, read alone (`incremental.pack_header`; a pack
    that does not say them plainly is left out: its build reports why)."""
    from mazmorra.build.incremental import pack_header

    found: dict[str, None] = {}
    for d in dirs:
        found.update(dict.fromkeys((pack_header(d) or ("", []))[1]))
    return list(found)


def weight(pack_dir: Path) -> int:
    """How much building a pack takes, roughly: the bytes of its source files (content, catalogues,
    templates), never less than 1."""
    total = 1
    for root, _, files in os.walk(pack_dir):
        for f in files:
            if f.endswith(SOURCES):
                try:
                    total += os.stat(os.path.join(root, f)).st_size
                except OSError:
                    pass
    return total


def _earlier(pack_dir: Path, rev: str) -> Any:
    """The pack as it was at `rev` (a round): its machinery imported only by the builds that compare."""
    from mazmorra.rounds import earlier

    return earlier(pack_dir, rev)
