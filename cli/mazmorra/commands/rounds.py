"""Playtest rounds: `mazmorra diff PACK --since REV` (what changed, judged by what is printed)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard
from mazmorra.commands.options import OnePackArg, check_langs, one_pack

if TYPE_CHECKING:
    from mazmorra.i18n.labels import Labels
    from mazmorra.rounds import Changes
    from mazmorra.rounds.players import Players


class DiffFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


SinceOpt = Annotated[
    str,
    typer.Option(
        "--since",
        metavar="REV",
        help="The earlier revision: a git commit, tag or branch of the repository the pack is in, or a "
        "folder holding an earlier copy of the pack.",
        show_default=False,
    ),
]


@app.command()
def diff(
    since: SinceOpt,
    pack: OnePackArg = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", "-l", metavar="LANG", help="The language to compare in [default: the pack's source language]."
        ),
    ] = None,
    fmt: Annotated[
        DiffFormat,
        typer.Option("--format", help="text (the terminal), markdown (a changelog for playtesters) or json."),
    ] = DiffFormat.text,
) -> None:
    """List every component added, removed or changed since REV, field by field, judged by what is
    printed; the translations the changes left behind; counts per deck."""
    from mazmorra.errors import rel
    from mazmorra.i18n.labels import Labels
    from mazmorra.rounds import compare, earlier
    from mazmorra.rounds.report import report
    from mazmorra.support.paths import templates_dir

    with guard():
        pack_dir = one_pack(pack, "compare")
        if lang is not None:
            check_langs([pack_dir], (lang,))
        with earlier(pack_dir, since) as before:
            if before is None:
                err.print(f"{escape(pack_dir.name)} was not in revision {escape(since)}: every component is new")
            changes = compare(before, pack_dir, lang, since)
        words = Labels(pack_dir, templates_dir(), changes.lang)
        players = _players(pack_dir, changes, words) if fmt is DiffFormat.markdown else None
        sys.stdout.write(report(changes, fmt.value, players))
        if words.missing:  # the pack's own language: its catalogue gives the changelog's words too
            err.print(
                f"[yellow]![/] {len(words.missing)} word(s) of the changelog have no '{escape(changes.lang)}' "
                f"translation, left as written: add them to {escape(rel(pack_dir / 'locale' / (changes.lang + '.po')))} "
                f"(msgctxt 'label'): {escape(', '.join(words.missing))}"
            )


def _players(pack_dir: Path, changes: Changes, words: Labels) -> Players:
    """The words of the players' changelog: the pack's kinds (their fields' labels), its own icons
    (named in its source language), its decks' names in the compared language."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.load import load_pack
    from mazmorra.rounds.players import Players

    pack = load_pack(pack_dir)
    root = pack.root.resolve()
    own = frozenset(n for n, p in IconSet.for_pack(pack.root).files.items() if p.resolve().is_relative_to(root))
    kinds = {k.name: k for k in pack.kinds()}
    return Players(kinds, words, changes.deck_names(), pack.spec.source_language, own)
