"""Options and arguments several commands share, parsed into what the library takes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

BackOffsetOpt = Annotated[
    str | None,
    typer.Option(
        metavar="X,Y",
        help="X,Y: mm every backs page moves (+X right, +Y down as the backs page reads) to make up for "
        "the printer's duplex misregistration; read it off `mazmorra calibrate`.",
        show_default=False,
        rich_help_panel="Print sheets",
    ),
]


PacksArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="PACK",
        help="Pack folders or names under content/ (default: every pack in content/).",
        show_default=False,
    ),
]
LangOpt = Annotated[str, typer.Option("--lang", "-l", metavar="LANG", help="Language code, comma list, or 'all'.")]
OutDirOpt = Annotated[Path, typer.Option("--out", "-o", metavar="DIR", help="Output folder.")]
StrictOpt = Annotated[
    bool,
    typer.Option("--strict", help="Treat warnings as errors (missing or fuzzy translations in a draft, too)."),
]
DraftOpt = Annotated[
    bool,
    typer.Option(
        "--draft",
        help="Missing or out-of-date translations fall back to the source text, marked UNTRANSLATED on the component.",
    ),
]


def pack_dirs(refs: list[str] | None) -> list[Path]:
    """The pack folders a command was given (names under content/ or paths), or every pack."""
    from mazmorra.load import all_packs, find_pack

    return [find_pack(r) for r in refs] if refs else all_packs()
