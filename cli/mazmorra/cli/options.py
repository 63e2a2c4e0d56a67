"""Options and arguments several commands share, parsed into what the library takes."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from mazmorra.errors import UsageError


class Page(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Duplex(str, Enum):
    long = "long"
    short = "short"
    none = "none"


class Layout(str, Enum):
    duplex = "duplex"
    fold = "fold"


class Fold(str, Enum):
    auto = "auto"
    vertical = "vertical"
    horizontal = "horizontal"


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


def back_offset_mm(value: str | None) -> tuple[float, float]:
    """'1.5,-0.5' (mm, or with units: '0.5mm,-1pt') -> (1.5, -0.5)."""
    from mazmorra.units import parse_length

    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (parse_length(v) for v in parts)
    except ValueError:
        raise UsageError(f"--back-offset {value!r}: expected X,Y in mm, e.g. 1.5,-0.5") from None
    if max(abs(dx), abs(dy)) > 10:
        raise UsageError(
            f"--back-offset {value!r}: more than 10 mm; print `mazmorra calibrate` again and "
            "read the offset on the back's scales"
        )
    return (dx, dy)


class PngProfile(str, Enum):
    tgc = "tgc"
    mpc = "mpc"


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


def parse_langs(value: str) -> tuple[str, ...] | None:
    if value in ("all", ""):
        return None
    return tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))  # in order, once each
