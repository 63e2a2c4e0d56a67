"""Reading gettext catalogues strictly: polib forgives too much (an unclosed quote silently loses a
character), so every line is checked first and any fault is a problem with its line."""

from __future__ import annotations

import hashlib
import marshal
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polib

from mazmorra.errors import ContentError, Loc, Problem, rel
from mazmorra.support import limits
from mazmorra.support.safetext import CONTROL_RULE, control_problem

if TYPE_CHECKING:
    from mazmorra.support.memo import Memo

_PO_LINE = re.compile(r'^(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$')


class _Text(str):
    """A catalogue's text that polib splits at line ends only. polib splits a text with
    str.splitlines, which also breaks at U+2028, U+2029 and U+0085 (a name may hold them): the
    catalogue `i18n update` wrote would not read back."""

    def splitlines(self, keepends: bool = False) -> list[str]:
        return po_lines(self, keepends)


def po_lines(text: str, keepends: bool = False) -> list[str]:
    """A catalogue's lines, split at LF, CR LF or CR only (as a text file reads), never inside a string."""
    parts = re.split(r"(\r\n|\r|\n)", text)  # text, end, text, end, …, text (the last maybe "")
    ends = [*parts[1::2], ""]
    out = [line + end if keepends else line for line, end in zip(parts[0::2], ends, strict=True)]
    return out[:-1] if parts[-1] == "" else out


def parse_text(text: str, **options: Any) -> polib.POFile:
    """polib.pofile of a catalogue's text, its lines split as po_lines splits them."""
    return polib.pofile(_Text(text), **options)


def catalogue_path(pack_root: Path, lang: str) -> Path:
    """content/<pack>/locale/<lang>.po"""
    return pack_root / "locale" / f"{lang}.po"


def labels_path(pack_root: Path, lang: str) -> Path:
    """content/<pack>/locale/labels/<lang>.po: the template labels' own catalogue (English source)."""
    return pack_root / "locale" / "labels" / f"{lang}.po"


def load_po(path: Path, memo: Memo | None = None) -> polib.POFile | None:
    """The catalogue at path, parsed once per version of the file (in this process; with a `memo`, a
    build's cache, once across builds); None when there is none."""
    if not path.is_file():
        return None
    size = path.stat().st_size
    if size > limits.CATALOGUE_BYTES:  # refused unread (docs/limits.md)
        msg = f"the catalogue is {size:,} bytes; a catalogue is at most {limits.CATALOGUE_BYTES // limits.MIB} MiB"
        raise ContentError([Problem("i18n.size", msg, Loc(rel(path)))])
    kept = _kept(path.resolve(), path.stat().st_mtime_ns)  # one parse per file and version
    if not kept:
        kept.append(_load_po(path.resolve(), memo))
    return kept[0]


def msgstr_line(entry: polib.POEntry) -> int:
    """The line of an entry's msgstr: where a translator edits, and where problems point."""
    return int(getattr(entry, "msgstr_line", entry.linenum))


@cache
def _kept(path: Path, mtime_ns: int) -> list[polib.POFile]:
    """Where this process keeps a version of a catalogue once parsed (empty until then)."""
    return []


def _load_po(path: Path, memo: Memo | None) -> polib.POFile:
    """The catalogue as an earlier build kept it in `memo`, else parsed (and kept there)."""
    raw = path.read_bytes()
    if memo is None:
        return _parse_po(path, raw)
    k = memo.key("po", str(path), hashlib.blake2b(raw, digest_size=24).hexdigest())
    stored = _rebuilt(memo.get("po", k))
    if stored is not None:
        return stored
    po = _parse_po(path, raw)
    try:  # kept as bytes: each build that reads them gets catalogue objects of its own to change
        memo.put(k, marshal.dumps((vars(po), [vars(e) for e in po])))
    except ValueError:  # a value marshal does not take (another polib): parsed every time
        pass
    return po


def _rebuilt(kept: Any) -> polib.POFile | None:
    """A catalogue from the attributes of it and its entries, as an earlier build kept them."""
    try:
        stored = marshal.loads(kept) if isinstance(kept, bytes) else None
    except (ValueError, EOFError, TypeError):
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and isinstance(stored[0], dict)):
        return None
    po = polib.POFile.__new__(polib.POFile)
    po.__dict__.update(stored[0])
    for attrs in stored[1]:
        entry = polib.POEntry.__new__(polib.POEntry)
        entry.__dict__.update(attrs)
        po.append(entry)
    return po


def _parse_po(path: Path, raw: bytes) -> polib.POFile:
    """Every line checked, then parsed: a fault is a located problem."""
    name = rel(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        raise ContentError(
            [
                Problem(
                    "i18n.po-syntax",
                    f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the catalogue as UTF-8",
                    Loc(name, at, 1),
                )
            ]
        ) from None
    lines = po_lines(text)
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not _PO_LINE.match(stripped):
            raise ContentError(
                [
                    Problem(
                        "i18n.po-syntax",
                        f"malformed catalogue line: {stripped[:60]!r}",
                        Loc(name, i, 1),
                    )
                ]
            )
    _refuse_many(lines, name)
    try:
        po = parse_text(text, wrapwidth=0)
        po.fpath = str(path)
    except (OSError, ValueError) as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ContentError(
            [
                Problem(
                    "i18n.po-syntax",
                    f"malformed catalogue: {exc}",
                    Loc(name, int(m.group(1)) if m else 0, 1),
                )
            ]
        ) from None
    charset = re.search(r"charset=([\w-]+)", po.metadata.get("Content-Type", ""))
    if charset and charset.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ContentError(
            [
                Problem(
                    "i18n.po-syntax",
                    f"the catalogue declares charset={charset.group(1)}; mazmorra reads and writes UTF-8 catalogues",
                    Loc(name, 1, 1),
                )
            ]
        )
    seen: dict[tuple[str | None, str], int] = {}
    for e in po:
        key = (e.msgctxt, e.msgid)
        if key in seen and not e.obsolete:
            raise ContentError(
                [
                    Problem(
                        "i18n.duplicate",
                        f"entry {e.msgctxt or e.msgid!r} appears twice (first at line {seen[key]})",
                        Loc(name, e.linenum, 1),
                    )
                ]
            )
        seen[key] = e.linenum
    # Point problems at the msgstr line a translator edits, not the entry's first comment line.
    by_start = {e.linenum: e for e in po}
    current = None
    for i, line in enumerate(lines, 1):
        current = by_start.get(i, current)
        if current is not None and line.startswith("msgstr") and not hasattr(current, "msgstr_line"):
            current.msgstr_line = i
    _refuse_control(po, name)
    return po


def _refuse_many(lines: list[str], name: str) -> None:
    """ContentError at the first entry past the limit of entries, before polib reads any."""
    seen = 0
    for i, line in enumerate(lines, 1):
        if line.startswith("msgid "):
            seen += 1
            if seen > limits.CATALOGUE_ENTRIES:
                msg = f"more than {limits.CATALOGUE_ENTRIES:,} entries; a catalogue holds at most {limits.CATALOGUE_ENTRIES:,}"
                raise ContentError([Problem("i18n.size", msg, Loc(name, i, 1))])


def _refuse_control(po: polib.POFile, name: str) -> None:
    """ContentError at each entry whose text holds a control character (a NUL, an ESC, polib's `\\b`)."""
    problems = []
    for e in po:
        texts = [e.msgctxt or "", e.msgid, e.msgid_plural or "", e.msgstr, *e.msgstr_plural.values()]
        why = next((w for t in texts if (w := control_problem(t)) is not None), None)
        if why is not None and not e.obsolete:
            problems.append(Problem(CONTROL_RULE, why, Loc(name, msgstr_line(e), 1), e.msgctxt))
    if problems:
        raise ContentError(problems)
