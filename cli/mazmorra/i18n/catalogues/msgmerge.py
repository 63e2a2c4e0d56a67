"""Merging a catalogue with the texts a pack has now, as GNU msgmerge (`--previous`) does.

- An entry whose context and source text are unchanged keeps its translation, flags and comments.
- A changed text keeps the translation of the same context, marked fuzzy, with the source text the
  translation was made from as its previous msgid (`#|`): after two edits, still the original.
- A text with no entry of its context (a new component, a renamed id) takes the translation of the
  most similar translated text (GNU's similarity: 2·common / total bytes, above 0.6), fuzzy: a
  renamed id finds its own text, identical.
- Translator comments (`# …`) stay with their entry, translated or not.
- Unused translated entries become obsolete (`#~`), in the order they had; an obsolete entry whose
  text comes back is revived.

Where mazmorra differs, on purpose: the same context is always the fuzzy source of a changed
text, however much it was rewritten (msgmerge drops a translation less than 60% alike into the
obsolete entries), and a translator comment stays on an untranslated entry whose text changed.

The file is rewritten only where something really changed: an entry equal to what the catalogue
already held is written back exactly as it was read, so a catalogue saved by Poedit, Lokalize or
Weblate (each wrapping lines its own way) keeps its wrapping and its diff shows only real changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import polib

from mazmorra.i18n.po import parse_text, po_lines

FUZZY_THRESHOLD = 0.6  # GNU gettext's: a proposal must be more alike than this
WRAP = 79  # GNU gettext's default line width, for new catalogues and for catalogues written wrapped
_FIELDS = (
    "msgctxt",
    "msgid",
    "msgid_plural",
    "msgstr",
    "comment",
    "tcomment",
    "previous_msgctxt",
    "previous_msgid",
    "previous_msgid_plural",
    "obsolete",
)


@dataclass
class MergeStats:
    """What one merge did (new, fuzzy, obsolete: this run's changes) and what it left as it was."""

    kept: int = 0  # translated, unchanged
    new: int = 0  # entries added this run
    fuzzy: int = 0  # made fuzzy this run (their source text changed)
    obsolete: int = 0  # made obsolete this run
    renamed: int = 0  # of the fuzzy ones, how many took a translation from another context
    waiting: int = 0  # already there, still untranslated
    still_fuzzy: int = 0  # already fuzzy, still waiting for the translator

    def as_dict(self) -> dict[str, int]:
        return {
            "kept": self.kept,
            "new": self.new,
            "fuzzy": self.fuzzy,
            "obsolete": self.obsolete,
            "untranslated": self.waiting,
            "still_fuzzy": self.still_fuzzy,
        }


def similarity(a: str, b: str) -> float:
    """GNU fstrcmp's measure on UTF-8 bytes: 2 × longest common subsequence / (len a + len b)."""
    x, y = a.encode("utf-8"), b.encode("utf-8")
    if not x and not y:
        return 1.0
    return 2 * lcs_length(x, y) / (len(x) + len(y))


def lcs_length(x: bytes, y: bytes) -> int:
    """Length of the longest common subsequence (bit-parallel, Allison–Dix / Hyyrö)."""
    if len(x) < len(y):
        x, y = y, x
    masks: dict[int, int] = {}
    for i, ch in enumerate(y):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(y)) - 1
    s = full
    for ch in x:
        u = s & masks.get(ch, 0)
        s = ((s + u) | (s - u)) & full
    return len(y) - bin(s).count("1")


def _upper_bound(a: bytes, b: bytes) -> float:
    """A cheap bound on similarity(a, b): common bytes counted as a multiset."""
    common = sum(min(a.count(c), b.count(c)) for c in set(a))
    return 2 * common / (len(a) + len(b)) if a or b else 1.0


@dataclass
class _Old:
    """The catalogue being merged: the whole file parsed, its entries, each entry's block as it was
    read, and which were used."""

    po: polib.POFile
    entries: list[polib.POEntry]
    raw: dict[int, tuple[str, polib.POEntry]]  # id(entry) -> (its block of lines, that block parsed alone)
    header: str | None = None  # the header's block
    used: set[int] = field(default_factory=set)


def parse_blocks(text: str) -> _Old:
    """The catalogue's entries and, for every entry read from a block of its own (entries are
    separated by blank lines), that block, to write it back untouched when nothing in it changed."""
    po = parse_text(text, wrapwidth=0)
    old = _Old(po, list(po), {})
    by_key = {(e.msgctxt, e.msgid, bool(e.obsolete)): e for e in po}
    for block in _blocks(text):
        try:
            one = parse_text(block, wrapwidth=0)
        except (OSError, ValueError):
            continue
        parsed = list(one)
        if len(parsed) == 1:
            e = parsed[0]
            match = by_key.get((e.msgctxt, e.msgid, bool(e.obsolete)))
            if match is not None and same(match, e):
                old.raw[id(match)] = (block, e)
        elif not parsed and one.metadata == po.metadata and old.header is None:
            old.header = block
    return old


def _blocks(text: str) -> Iterable[str]:
    block: list[str] = []
    for line in po_lines(text, keepends=True):
        if line.strip():
            block.append(line if line.endswith("\n") else line + "\n")
        elif block:
            yield "".join(block)
            block = []
    if block:
        yield "".join(block)


def same(a: polib.POEntry, b: polib.POEntry) -> bool:
    """Equal in everything a catalogue records about an entry."""
    return (
        all(getattr(a, f) == getattr(b, f) for f in _FIELDS)
        and sorted(a.flags) == sorted(b.flags)
        and a.occurrences == b.occurrences
        and dict(a.msgstr_plural) == dict(b.msgstr_plural)
    )


def merge(
    old_text: str | None,
    wanted: list[polib.POEntry],
    header: dict[str, str],
    header_comment: str = "",
    ensure: dict[str, str] | None = None,
    override: dict[str, str] | None = None,
) -> tuple[str, MergeStats]:
    """The catalogue text holding `wanted` (source texts, references, extracted comments, flags)
    with the translations of `old_text` carried over; and what happened to them. A new catalogue
    gets `header`; an existing one keeps its own, plus the `ensure` fields it lacks and the
    `override` fields as given (msgmerge copies the template's POT-Creation-Date so)."""
    stats = MergeStats()
    if old_text is not None:
        old = parse_blocks(old_text)
        po = old.po
        metadata = {**po.metadata, **{k: v for k, v in (ensure or {}).items() if k not in po.metadata}}
        metadata.update(override or {})
        header_block = old.header if metadata == po.metadata else None
        width = 0 if any(len(line) > WRAP + 1 for line in po_lines(old_text)) else WRAP
        comment = po.header
    else:
        old = _Old(polib.POFile(), [], {})
        metadata, header_block, width, comment = {**header, **(override or {})}, None, WRAP, header_comment
    exact = {(e.msgctxt, e.msgid): e for e in old.entries}
    by_ctx = {e.msgctxt: e for e in old.entries if not e.obsolete and e.msgctxt is not None}
    candidates = [e for e in old.entries if translated(e)]
    out: list[tuple[polib.POEntry, polib.POEntry | None]] = []  # (entry, the old entry it continues)
    for e in wanted:
        prev = exact.get((e.msgctxt, e.msgid))
        if prev is not None:
            _carry(prev, e)
            old.used.add(id(prev))
            if "fuzzy" in e.flags:  # (an exact match changes nothing: it was so before this run)
                stats.still_fuzzy += 1
            elif translated(e):
                stats.kept += 1
            else:
                stats.waiting += 1
            out.append((e, prev))
            continue
        if translated(e):  # filled from a compendium's exact match: msgmerge takes it as is, not fuzzy
            stats.new += 1
            out.append((e, None))
            continue
        source = by_ctx.get(e.msgctxt) if e.msgctxt != "label" else None
        if source is not None and not translated(source):
            e.tcomment = source.tcomment  # an untranslated entry keeps its note for the translator
            old.used.add(id(source))
            source = None
        if source is None:
            source = _most_similar(e, candidates)
            stats.renamed += source is not None
        if source is None:
            stats.new += 1
        else:
            _carry(source, e)
            if "fuzzy" not in source.flags:  # the first change: remember the text it was translated from
                e.previous_msgctxt, e.previous_msgid = source.msgctxt, source.msgid
                e.previous_msgid_plural = source.msgid_plural or None
            _flag_fuzzy(e)
            old.used.add(id(source))
            stats.fuzzy += 1
        out.append((e, None))
    for prev in old.entries:
        if id(prev) not in old.used and translated(prev):
            stats.obsolete += not prev.obsolete
            prev.obsolete = True
            out.append((prev, prev))
    blocks = [header_block or _header_block(metadata, comment, width)]
    for e, prev in out:
        kept = old.raw.get(id(prev)) if prev is not None else None
        blocks.append(kept[0] if kept is not None and same(kept[1], e) else e.__unicode__(wrapwidth=width))
    return "\n".join(b.rstrip("\n") + "\n" for b in blocks), stats


def _header_block(metadata: dict[str, str], comment: str, width: int) -> str:
    head = polib.POFile(wrapwidth=width)
    head.metadata = metadata
    head.header = comment
    return str(head.__unicode__())


def translated(e: polib.POEntry) -> bool:
    """Whether an entry holds a translation (every plural form counts)."""
    if e.msgid_plural:
        return any(e.msgstr_plural.values())
    return bool(e.msgstr)


def _carry(prev: polib.POEntry, e: polib.POEntry) -> None:
    """The translator's part of an old entry onto a new one: translation, comment, fuzzy state."""
    if e.msgid_plural:
        e.msgstr_plural = dict(prev.msgstr_plural) or e.msgstr_plural
    else:
        e.msgstr = prev.msgstr
    e.tcomment = prev.tcomment
    if "fuzzy" in prev.flags:
        _flag_fuzzy(e)
        e.previous_msgctxt = prev.previous_msgctxt
        e.previous_msgid = prev.previous_msgid
        e.previous_msgid_plural = prev.previous_msgid_plural


def _flag_fuzzy(e: polib.POEntry) -> None:
    """Mark e fuzzy, first of its flags, keeping the template's own (max-length, format flags)."""
    e.flags = ["fuzzy", *(f for f in e.flags if f != "fuzzy")]


def _most_similar(e: polib.POEntry, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    """The translated entry whose source text is most like e's, above GNU's threshold (ties: the
    same context, then the first in the file)."""
    want = e.msgid.encode("utf-8")
    best, best_weight = None, FUZZY_THRESHOLD
    for c in candidates:
        have = c.msgid.encode("utf-8")
        bonus = 0.00001 if c.msgctxt is None or c.msgctxt == e.msgctxt else 0.0
        if 2 * min(len(want), len(have)) / max(1, len(want) + len(have)) + bonus <= best_weight:
            continue
        if _upper_bound(want, have) + bonus <= best_weight:
            continue
        weight = similarity(e.msgid, c.msgid) + bonus
        if weight > best_weight:
            best, best_weight = c, weight
    return best
