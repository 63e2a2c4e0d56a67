"""`mazmorra stats PACK`: what a pack's decks, bags, dice tables and generated dungeons do in play,
as exact numbers in the pack's language (docs/numbers.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard, out

if TYPE_CHECKING:
    from mazmorra.i18n.labels import Labels
    from mazmorra.model.content import Pack
    from mazmorra.stats import StatsOptions
    from mazmorra.stats.statsdiff import Moved
    from mazmorra.stats.statslines import Figure


ARROW = "→"


@app.command()
def stats(
    pack: Annotated[
        str, typer.Argument(metavar="PACK", help="A pack folder or a name under content/.", show_default=False)
    ],
    condition: Annotated[
        str | None,
        typer.Argument(
            metavar="FIELD=VALUE",
            help="With --draw: what to count (kind=curse, type=destino, cost=3).",
            show_default=False,
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", "-l", metavar="LANG", help="The language [default: the pack's source language]."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The figures as JSON (docs/numbers.md, its schema).")] = False,
    draw: Annotated[
        int | None, typer.Option("--draw", metavar="N", help="Your own query: cards drawn.", show_default=False)
    ] = None,
    at_least: Annotated[int, typer.Option("--at-least", metavar="K", help="Your own query: at least K of them.")] = 1,
    seeds: Annotated[
        int, typer.Option("--seeds", metavar="N", help="Generated dungeons sampled (seeds 1..N).", min=1, max=5000)
    ] = 200,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="REV",
            help="Show what moved since an earlier revision: a git commit, tag or branch of the repository the "
            "pack is in, or a folder holding an earlier copy of the pack.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Exact numbers for what the pack's components do in play: copies and curves per deck, draw
    odds, bag odds, dice table rows, generated dungeons' spread, per-player setup."""
    from mazmorra.errors import UsageError
    from mazmorra.i18n.labels import Labels
    from mazmorra.load import find_pack
    from mazmorra.stats import StatsOptions, parse_query
    from mazmorra.support.paths import templates_dir

    with guard():
        if (draw is None) != (condition is None):
            raise UsageError("a query is --draw N [--at-least K] FIELD=VALUE: give both --draw and FIELD=VALUE")
        query = parse_query(draw, at_least, condition) if draw is not None and condition is not None else None
        pack_dir = find_pack(pack)
        loaded = _validated(pack_dir)
        chosen = lang or loaded.spec.source_language
        if chosen not in loaded.spec.languages:
            raise UsageError(f"--lang {chosen}: {loaded.id} is in {', '.join(loaded.spec.languages)}")
        options = StatsOptions(query=query, seeds=seeds)
        words = Labels(pack_dir, templates_dir(), chosen)
        _show(loaded, Asked(chosen, options, since, as_json), words)
        if words.missing:
            err.print(
                f"[yellow]![/] {len(words.missing)} word(s) have no '{escape(chosen)}' translation, written in "
                f"English: {escape(', '.join(words.missing))}"
            )


@dataclass(frozen=True)
class Asked:
    """What the command line asked for besides the pack."""

    lang: str
    options: StatsOptions
    since: str | None
    as_json: bool


def _validated(pack_dir: Path) -> Pack:
    """The pack, loaded and checked against its rules (no layout): errors stop here, as a build's do."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.errors import ContentError, Severity
    from mazmorra.load import load_pack
    from mazmorra.validate import validate

    loaded = load_pack(pack_dir)
    errors = [p for p in validate(loaded, IconSet.for_pack(loaded.root)) if p.severity is Severity.ERROR]
    if errors:
        raise ContentError(errors)
    return loaded


def _show(loaded: Pack, asked: Asked, words: Labels) -> None:
    from mazmorra.stats import stats as pack_stats
    from mazmorra.stats.statsjson import as_json
    from mazmorra.stats.statslines import lines

    figures = pack_stats(loaded, asked.lang, asked.options)
    now = lines(figures, words)
    moved = _moved(loaded.root, asked, words, now) if asked.since is not None else None
    if asked.as_json:
        sys.stdout.write(as_json(figures, moved, asked.since))
        return
    if figures.dungeons is not None:
        err.print(
            f"generated dungeons: {figures.dungeons.seeds} seeds, {figures.dungeons.first_seed} to "
            f"{figures.dungeons.first_seed + figures.dungeons.seeds - 1} (--seeds)"
        )
    _print(now, moved, asked.since)


def _moved(pack_dir: Path, asked: Asked, words: Labels, now: tuple[Figure, ...]) -> tuple[Moved, ...]:
    """The figures that moved since the earlier revision (loaded as `diff --since` loads it)."""
    from dataclasses import replace

    from mazmorra.errors import ContentError, Problem, UsageError
    from mazmorra.load import load_pack
    from mazmorra.rounds import earlier
    from mazmorra.stats import stats as pack_stats
    from mazmorra.stats.statsdiff import beside
    from mazmorra.stats.statslines import lines

    assert asked.since is not None
    with earlier(pack_dir, asked.since) as before:
        if before is None:
            err.print(f"{escape(pack_dir)} was not in revision {escape(asked.since)}: every figure is new")
            return beside((), now)
        try:
            old = load_pack(before)
        except ContentError as exc:
            what = Problem("since.invalid", f"the pack as it was at '{asked.since}' does not load")
            raise ContentError([*exc.problems, what]) from None
        lang = asked.lang if asked.lang in old.spec.languages else old.spec.source_language
        try:
            figures = pack_stats(old, lang, asked.options)
        except UsageError:  # the query asks about a field or value the earlier revision did not have
            figures = pack_stats(old, lang, replace(asked.options, query=None))
        return beside(lines(figures, words), now)


def _print(now: Sequence[Figure], moved: Sequence[Moved] | None, since: str | None) -> None:
    """A Rich table per section on a terminal, plain `label: value` lines elsewhere; with --since,
    each moved figure as `before → now`, highlighted."""
    changed = {m.key: m for m in moved or ()}
    if since is not None:
        err.print(f"{len(changed)} figure(s) moved since {escape(since)}")
    sections: dict[str, list[Figure]] = {}
    for line in now:
        sections.setdefault(line.section, []).append(line)
    gone = [m for m in moved or () if m.now is None]
    if not out.is_terminal:
        for section, rows in sections.items():
            out.print(escape(section), markup=False)
            for line in rows:
                out.print(_plain(line, changed.get(line.key)), markup=False)
        for m in gone:
            out.print(f"* {m.section} / {m.label}: {m.before} {ARROW} -", markup=False)
        return
    from rich.table import Table

    for section, rows in sections.items():
        table = Table(title=section, title_justify="left", show_header=False, box=None, pad_edge=False)
        table.add_column()
        table.add_column(justify="right")
        for line in rows:
            found = changed.get(line.key)
            if found is not None:
                table.add_row(
                    f"[bold yellow]{escape(line.label)}[/]",
                    f"[bold yellow]{escape(found.before or '-')} {ARROW} {escape(line.value)}[/]",
                )
            else:
                style = "red" if line.warning else ""
                table.add_row(escape(line.label), f"[{style}]{escape(line.value)}[/]" if style else escape(line.value))
        out.print(table)
        out.print()
    for m in gone:
        out.print(f"[bold yellow]{escape(m.section)} / {escape(m.label)}: {escape(m.before)} {ARROW} -[/]")


def _plain(line: Figure, moved: Moved | None) -> str:
    if moved is not None:
        return f"* {line.label}: {moved.before or '-'} {ARROW} {line.value}"
    return f"  {line.label}: {line.value}"
