"""Options and arguments several commands share, parsed into what the library takes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mazmorra.errors import UsageError

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
LangOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--lang",
        "-l",
        metavar="LANG",
        help="Language code or comma list, repeatable (--lang es --lang en: both) [default: all].",
        show_default=False,
    ),
]


def lang_list(given: list[str] | None) -> str:
    """--lang as given, every time it was, as one comma list ('all' when not given)."""
    return ",".join(given) if given else "all"


def check_langs(packs: list[Path], langs: tuple[str, ...] | None) -> None:
    """A UsageError for a language a pack does not have, read from pack.yaml alone, with the code
    meant when a language is given by name (`--lang english`: did you mean 'en'?)."""
    from mazmorra.build.incremental import pack_header
    from mazmorra.i18n.langnames import suggest_code

    if not langs:
        return
    for pack_dir in packs:
        said = pack_header(pack_dir)
        if said is None:  # not said plainly: the full load reports why
            continue
        pack_id, known = said
        for lang in langs:
            if lang not in known:
                raise UsageError(
                    f"pack '{pack_id}' has no language '{lang}'{suggest_code(lang, known)} (it has {', '.join(known)})"
                )


OutDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="Output folder [default: output/, beside the pack's project (the folder holding content/, "
        "else the pack's parent) when run inside a pack].",
        show_default=False,
    ),
]
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
    """The pack folders a command was given (names under content/ or paths); none given: the pack the
    working folder is in, else every pack under content/."""
    from mazmorra.load import find_pack, packs_here

    return [find_pack(r) for r in refs] if refs else packs_here()


def packs_or_here(refs: list[str] | None) -> list[Path]:
    """The packs a listing command was given; none given: the pack the working folder is in, if any
    (its own icons, printers, kinds beside the shipped ones), else none."""
    from mazmorra.load import enclosing_pack, find_pack

    if refs:
        return [find_pack(r) for r in refs]
    here = enclosing_pack()
    return [here] if here is not None else []


def out_dir_for(given: Path | None) -> Path:
    """Where outputs go: --out when given; else output/ here, or, when the working folder is inside a
    pack, output/ beside the pack's project, so that no build writes into the pack itself."""
    from mazmorra.errors import rel
    from mazmorra.load import enclosing_pack, project_of

    if given is not None:
        return given
    here = enclosing_pack()
    return Path("output") if here is None else Path(rel(project_of(here) / "output"))


OnePackArg = Annotated[
    str | None,
    typer.Argument(
        metavar="PACK",
        help="Pack folder or name under content/ (default: the pack the working folder is in, else the only pack "
        "in content/).",
        show_default=False,
    ),
]


def one_pack(ref: str | None, doing: str) -> Path:
    """The one pack a command works on: the one named; else the pack the working folder is in; else
    the only pack under content/ (a UsageError naming them when there are several)."""
    from mazmorra.load import find_pack, packs_here

    if ref is not None:
        return find_pack(ref)
    packs = packs_here()
    if len(packs) != 1:
        raise UsageError(f"name the pack to {doing}: {', '.join(p.name for p in packs)}")
    return packs[0]
