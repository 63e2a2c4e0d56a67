"""Every output file's name and place, made by one function (`output_path`) from a small pattern
language: literal text and placeholders (`{deck}`, `{n:03d}`) filled with values.

The promise it keeps for every file a build writes: letters, digits, `.`, `-` and `_` only; never a
name Windows reserves (`con`, `nul.txt`, `lpt1`…); no value ever adds a folder (`/`, `\\`, `..`);
the path, resolved, lies inside the folder it was made under; a name stays unique within its folder
(a second file that would land on it gets `-2`); the same input always gives the same names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from mazmorra.errors import MazmorraError, rel
from mazmorra.support.paths import real_in

MAX_NAME = 100  # characters of one file or folder name (Windows paths stay short enough)
# Names Windows refuses for a file or folder, whatever follows their first dot (`con.pdf`, `nul.tar.gz`).
RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_FIELD = re.compile(r"([a-z]+)(?::0([1-9])d)?")  # deck, or n:03d (zero-padded to 3 digits)
_LITERAL = re.compile(r"[A-Za-z0-9._-]*")

Piece = tuple[str, str, int]  # literal text, then a placeholder ("" for none) and its zero-padded width


class BadPattern(ValueError):
    """A file name pattern that is not one; the message names the mistake."""


class OutsideOutput(MazmorraError):
    """A file would land outside its output folder (a link inside the folder leads elsewhere)."""


@dataclass(frozen=True)
class Pattern:
    """A file name pattern, parsed once: per folder level (`/`), its pieces."""

    text: str
    segments: tuple[tuple[Piece, ...], ...]

    @property
    def fields(self) -> frozenset[str]:
        """The placeholders it names."""
        return frozenset(f for seg in self.segments for _, f, _ in seg if f)


def parse_pattern(text: str, known: Iterable[str] | None = None) -> Pattern:
    """`text` as a pattern; BadPattern naming a placeholder not in `known` (any plain name when None),
    a character no file name may hold, or a folder level that is no name (empty, `.`, `..`, hidden)."""
    if text.startswith("/"):
        raise BadPattern(f"'{text}' starts with '/': a name is relative to its output folder")
    allowed = None if known is None else sorted(known)
    segments = []
    for seg in text.split("/"):
        pieces: list[Piece] = []
        pos = 0
        for m in _PLACEHOLDER.finditer(seg):
            fm = _FIELD.fullmatch(m.group(1))
            if fm is None or (allowed is not None and fm.group(1) not in allowed):
                named = ", ".join("{" + k + "}" for k in allowed) if allowed is not None else "plain names"
                raise BadPattern(
                    f"unknown placeholder '{m.group()}' (placeholders: {named}; `{{n:03d}}` pads a number)"
                )
            pieces.append((_literal(seg[pos : m.start()]), fm.group(1), int(fm.group(2) or 0)))
            pos = m.end()
        tail = _literal(seg[pos:])
        if tail:
            pieces.append((tail, "", 0))
        if not pieces:
            raise BadPattern(f"'{text}' has an empty name ('//' or a '/' at an end)")
        if pieces[0][0].startswith("."):
            raise BadPattern(f"'{text}': a name starting with '.' ('..' climbs out, '.x' is hidden)")
        segments.append(tuple(pieces))
    return Pattern(text, tuple(segments))


def _literal(text: str) -> str:
    """A pattern's own text between placeholders, if it is made of what a file name may hold."""
    if not _LITERAL.fullmatch(text):
        bad = next(ch for ch in text if not _LITERAL.fullmatch(ch))
        why = "an unmatched brace" if bad in "{}" else f"the character {bad!r}"
        raise BadPattern(
            f"{why} is not allowed in a file name: letters, digits, '.', '-', '_', and '/' between folders"
        )
    return text


@lru_cache(maxsize=256)
def _parsed(text: str) -> Pattern:
    """A pattern of the code's own, parsed once per process."""
    return parse_pattern(text)


def safe_name(value: str, fallback: str = "file") -> str:
    """One file or folder name safe on every system: ASCII letters, digits, dot, dash and underscore,
    never empty, never a dot name (`.`, `..`, hidden) nor one starting with `-`, never a name Windows
    reserves (`con.pdf` -> `_con.pdf`), at most MAX_NAME characters (the extension kept)."""
    name = _UNSAFE.sub("-", unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode())
    name = name.strip(".-") or fallback
    if len(name) > MAX_NAME:
        _, dot, ext = name.rpartition(".")
        ext = dot + ext if dot and len(ext) <= 10 else ""
        name = name[: MAX_NAME - len(ext)].rstrip(".-") + ext
    return "_" + name if name.split(".")[0].lower() in RESERVED else name


DECLARED_NAME = 64  # characters of a file name a pack declares (pack.yaml's `file_names`), before its extension


def declared_name_problem(name: str) -> str | None:
    """Why `name`, a file name a pack declares for its outputs (pack.yaml's `file_names`: the stem of
    `<name>.pdf`, `<name>/`, `<name>-cards.csv`…), is not one as written; None when it is. A declared
    name must come out of `safe_name` unchanged (so the files carry exactly the name the pack gives),
    in lowercase as ids are (one file whatever the system's case rules), within DECLARED_NAME."""
    if not name:
        return "it is empty"
    bad = sorted({ch for ch in name if not re.fullmatch(r"[a-z0-9._-]", ch)})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        return f"{shown} not allowed: lowercase letters a-z, digits, '.', '-' and '_' only"
    if len(name) > DECLARED_NAME:
        return f"{len(name)} characters, at most {DECLARED_NAME}"
    if name[0] in ".-" or name[-1] in ".-":
        return "it starts or ends with '.' or '-' (a hidden file, an option, or a name Windows cuts short)"
    if safe_name(name) != name:
        return f"Windows reserves the name '{name.split('.')[0]}'"
    return None


@dataclass
class Names:
    """The names handed out so far, by folder: the same request gets the same name again; another that
    would land on a name taken (ignoring case, as Windows and macOS do) gets `-2`, `-3`… before its
    extension. A sink keeps one per document, so names do not depend on which process renders it."""

    taken: dict[Path, dict[str, object]] = field(default_factory=dict)  # folder -> folded name -> request
    given: dict[tuple[Path, object], str] = field(default_factory=dict)  # (folder, request) -> name
    real: dict[Path, Path] = field(default_factory=dict)  # folder -> where it really is (resolved once a document)

    def real_of(self, folder: Path) -> Path:
        """Where `folder` really is (links followed), resolved once for this document's names: a
        document names a file for every face, in a handful of folders."""
        found = self.real.get(folder)
        if found is None:
            found = self.real[folder] = folder.resolve()
        return found

    def claim(self, folder: Path, name: str, request: object) -> str:
        """The name `request` gets in `folder`."""
        if (folder, request) in self.given:
            return self.given[(folder, request)]
        here = self.taken.setdefault(folder, {})
        stem, ext = (name[: -len(Path(name).suffix)], Path(name).suffix) if Path(name).suffix else (name, "")
        found, n = name, 1
        while found.casefold() in here:
            n += 1
            tail = f"-{n}{ext}"  # the stem shortened so that the name stays within MAX_NAME
            found = stem[: MAX_NAME - len(tail)].rstrip(".-") + tail
        here[found.casefold()] = request
        self.given[(folder, request)] = found
        return found


def output_path(root: Path, pattern: Pattern | str, names: Names | None = None, /, **values: str | int) -> Path:
    """The one maker of output file and folder names: `pattern` under `root`, each placeholder filled
    with its value and each folder level made a safe name (`safe_name`: a value never adds a level);
    unique in its folder among the names `names` handed out; checked, resolved, to lie inside `root`
    (OutsideOutput otherwise)."""
    pat = pattern if isinstance(pattern, Pattern) else _parsed(pattern)
    parts = [
        safe_name("".join(lit + (_filled(values[f], width) if f else "") for lit, f, width in seg))
        for seg in pat.segments
    ]
    folder = root.joinpath(*parts[:-1])
    name = parts[-1] if names is None else names.claim(folder, parts[-1], (pat.text, tuple(sorted(values.items()))))
    target = folder / name
    if names is None:
        base, real = root.resolve(), target.resolve()
    else:  # the folders resolved once a document; the file itself followed only where it is a link
        base = names.real_of(root)
        real = real_in(target, names.real_of(folder))
    if not real.is_relative_to(base):
        raise OutsideOutput(
            f"{Path(rel(root), *parts[:-1], name).as_posix()} would be written outside {rel(root)} "
            f"(a link inside it leads to {rel(target.resolve())})"
        )
    return target


def _filled(value: str | int, width: int) -> str:
    """A placeholder's text: its value, numbers zero-padded to `width`."""
    return str(value).zfill(width) if width else str(value)


def deck_pdf(out_dir: Path, pack: str, lang: str, deck: str) -> Path:
    """A deck's print-and-play PDF in one language, <out>/<pack>/<lang>/<deck>.pdf: the one path the
    build writes, make's rules name, `--changed-only` checks and the live preview reads."""
    return output_path(out_dir, "{pack}/{lang}/{deck}.pdf", pack=pack, lang=lang, deck=deck)
