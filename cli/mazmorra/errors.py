"""Problems (collected, never raised one by one) and the one exception family."""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True, order=True, slots=True)  # slots: a pack keeps one per value it read
class Loc:
    """Where something came from: file, 1-based line and column; in a workbook, the sheet and the
    cell's row and column (shown as `file.xlsx[Sheet]!C7`)."""

    file: str
    line: int = 0
    col: int = 0
    sheet: str | None = None

    def __str__(self) -> str:
        file = shown(self.file)
        if self.sheet is not None:
            return f"{file}[{self.sheet}]" + (f"!{column_letters(self.col)}{self.line}" if self.line else "")
        if self.line:
            return f"{file}:{self.line}:{self.col}"
        return file


def column_letters(col: int) -> str:
    """A 1-based column number as a spreadsheet names it: 1 -> A, 27 -> AA."""
    out = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out or "A"


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"  # said so the designer knows, never fails a build (not even --strict)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the content: enough to find and fix it."""

    rule: str
    message: str
    loc: Loc | None = None
    component: str | None = None
    field: str | None = None
    severity: Severity = Severity.ERROR
    lang: str | None = None
    # A mistake of a template or font, not of one component: reported once per build, at its line,
    # whichever components and languages meet it (stage 5 keeps the first report).
    once: bool = dataclasses.field(default=False, compare=False)

    def as_dict(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "rule": self.rule,
            "message": self.message,
            "file": shown(self.loc.file) if self.loc else None,
            "line": self.loc.line if self.loc else None,
            "column": self.loc.col if self.loc else None,
            **({"sheet": self.loc.sheet} if self.loc and self.loc.sheet is not None else {}),
            "component": self.component,
            "field": self.field,
            "lang": self.lang,
        }

    def format(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        what = []
        if self.component:
            what.append(self.component)
        if self.field:
            what.append(self.field)
        subject = f" [{'.'.join(what)}]" if what else ""
        lang = f" ({self.lang})" if self.lang else ""
        return f"{where}{self.severity.value}{subject}{lang}: {self.message} ({self.rule})"


def once(problems: list[Problem], seen: set[tuple[str, object, str]] | None = None) -> list[Problem]:
    """The problems in order, a template mistake (`Problem.once`) only at its first report (and not
    at all if already in `seen`, which grows), saying how many faces met it when more than one did:
    a colour every card of a template prints is one finding, not one card's."""
    seen = set() if seen is None else seen
    met: dict[tuple[str, object, str], list[Problem]] = {}
    for p in problems:
        if p.once:
            met.setdefault((p.rule, p.loc, p.message), []).append(p)
    out = []
    for p in problems:
        if p.once:
            key = (p.rule, p.loc, p.message)
            if key in seen:
                continue
            seen.add(key)
            p = _counted(p, met[key])
        out.append(p)
    return out


def _counted(first: Problem, all_met: list[Problem]) -> Problem:
    """The first report of a template mistake, with the number of faces (components and sides) that met it."""
    faces = {(p.component, p.lang) for p in all_met}  # (the side is in the message, the same for all)
    if len(faces) < 2:
        return first
    langs = sorted({p.lang for p in all_met if p.lang})
    where = f", in {', '.join(langs)}" if len(langs) > 1 else ""
    return dataclasses.replace(first, message=f"{first.message} (on {len(faces)} faces{where})")


class MazmorraError(Exception):
    """Base of every error the CLI turns into a clean message and exit code."""

    exit_code = 1


class ContentError(MazmorraError):
    """The content has problems; they are all listed."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        n = sum(1 for p in problems if p.severity is Severity.ERROR)
        super().__init__(f"{n} error(s) in the content")


class UsageError(MazmorraError):
    """The command line asked for something that does not exist."""

    exit_code = 2


def rel(path: Path | str) -> str:
    """A path as the user should read it: relative to the working directory (with ../ when outside it)."""
    return _rel(str(path), os.getcwd())


@lru_cache(maxsize=4096)
def _rel(path: str, cwd_text: str) -> str:
    """rel, once per path and working directory: a face with thousands of findings names one
    template file thousands of times."""
    p = Path(path)
    cwd = _resolved(cwd_text)
    try:
        return str(p.resolve().relative_to(cwd))
    except ValueError:  # elsewhere: still relative (../…), never a path of this machine
        try:
            return os.path.relpath(p.resolve(), cwd)
        except ValueError:  # another drive (Windows)
            return p.name


_PACKAGE = Path(__file__).resolve().parent


SHIPPED = "mazmorra:"  # how a message names a file shipped with the tool: `mazmorra:templates/card.xml.j2`


def shown(path: Path | str) -> str:
    """A path as the user reads it, in a message's words or as a Loc's file (terminal, JSON, the
    preview's panel): rel(), but a file shipped with the tool (a template, a kind file, a bundled
    font) reads `mazmorra:<its path inside the package>`, wherever this machine installed it, never
    a ../ climb out of the pack. A Loc keeps its file as rel() gave it; it is shown through here."""
    text = str(path)
    if text.startswith(SHIPPED):
        return text
    return _shown(text, os.getcwd())


def real_path(file: str) -> Path:
    """A Loc's file as a path to open: a shipped file's `mazmorra:<path>` inside this installed package."""
    return _PACKAGE / file[len(SHIPPED) :] if file.startswith(SHIPPED) else Path(file)


@lru_cache(maxsize=4096)
def _shown(path: str, cwd_text: str) -> str:
    """A relative path is as rel() made it (a Loc's file), not resolved again: a link inside the pack
    is named where it lies, not where it leads."""
    p = Path(path)
    whole = p.resolve() if p.is_absolute() else Path(os.path.normpath(_resolved(cwd_text) / p))
    try:
        inside = whole.relative_to(_PACKAGE)
    except ValueError:
        return _rel(path, cwd_text) if p.is_absolute() else path
    return SHIPPED + inside.as_posix()


@lru_cache(maxsize=8)
def _resolved(cwd: str) -> Path:
    """The working directory resolved once per directory (rel is called for every file a build reads)."""
    return Path(cwd).resolve()


def did_you_mean(name: str, known: Iterable[str], n: int = 1) -> str:
    """ "; did you mean 'x'?" naming the closest of `known` (up to n of them), or "" when none is close."""
    close = difflib.get_close_matches(name, list(known), n=n, cutoff=0.6)
    if not close:
        return ""
    return f"; did you mean {' or '.join(repr(c) for c in close)}?"
