"""Where a line may break inside a chunk of text (what model/cardtext.py leaves between spaces): the Unicode
line-breaking algorithm (UAX #14, by uniseg) beside ideographs, kana, hangul and other wide
characters in every language, and in Japanese and Chinese only between the phrases BudouX finds.

UAX #14 keeps the rules of kinsoku shori: no line starts with 、。」 or a small kana, none ends with
「. Inside a Latin word its only opportunities are after a hyphen or a slash or around a dash; the
fitting engine breaks after a word's own hyphen already (linebreak.word_splits) and, so that no
Latin line moves, uses none of the others. Japanese and Chinese lines break at a phrase boundary
(that UAX #14 allows) and at another UAX #14 opportunity only inside a phrase wider than the line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from mazmorra.layout.text.lbclasses import line_break_class
from mazmorra.model.cardtext import IconPart, Part, TextPart

if TYPE_CHECKING:
    from budoux import Parser

ICON = "\u25a0"  # an inline icon, for the breakers: a thing (a noun to BudouX, an ordinary letter to UAX #14)
_WIDE = frozenset({"W", "F"})


@cache
def _parser(lang: str) -> Parser | None:
    """BudouX's phrase model for a language that writes no spaces between words, else None."""
    base, _, region = lang.partition("_")
    if base not in ("ja", "zh"):
        return None  # without importing BudouX
    import budoux

    if base == "ja":
        return budoux.load_default_japanese_parser()
    if base == "zh":
        if region in ("TW", "HK", "MO"):
            return budoux.load_default_traditional_chinese_parser()
        return budoux.load_default_simplified_chinese_parser()
    return None


def phrased(lang: str) -> bool:
    """Whether lines of this language break between phrases (Japanese, Chinese), never hyphenated."""
    return _parser(lang) is not None


# The blocks of the scripts written without spaces and of wide signs (hangul jamo, CJK and its punctuation,
# kana, hangul, compatibility ideographs, fullwidth forms, Tangut, Nushu, kana supplements, emoji, the
# supplementary ideographic planes): UAX #14 breaks inside a chunk only beside one of their wide characters.
_MAYBE_WIDE = re.compile(
    "[\u1100-\u115f\u2e80-\ua4cf\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe10-\ufe6f\uff00-\uffef"
    "\U00016fe0-\U00018fff\U0001b000-\U0001b2ff\U0001f000-\U0001faff\U00020000-\U0003ffff]"
)


def maybe_wide(text: str) -> bool:
    """Whether text may hold a wide character of those blocks (a quick look before asking each one)."""
    return _MAYBE_WIDE.search(text) is not None


def _wide(ch: str) -> bool:
    return _MAYBE_WIDE.match(ch) is not None and unicodedata.east_asian_width(ch) in _WIDE


def _spelled(chunk: tuple[Part, ...]) -> tuple[str, list[tuple[int, int]]]:
    """The chunk as the breakers read it, and where each part starts and ends in that string."""
    out, spans, at = [], [], 0
    for part in chunk:
        s = (
            part.text
            if isinstance(part, TextPart)
            else ICON + (part.number or "")
            if isinstance(part, IconPart)
            else ""
        )
        out.append(s)
        spans.append((at, at + len(s)))
        at += len(s)
    return "".join(out), spans


def _opportunities(s: str) -> list[int]:
    """UAX #14's break opportunities strictly inside s."""
    from uniseg.linebreak import line_break_boundaries

    return [b for b in line_break_boundaries(s) if 0 < b < len(s)]


@lru_cache(maxsize=20000)
def segments(chunk: tuple[Part, ...], lang: str) -> tuple[tuple[Part, ...], ...]:
    """The chunk cut where a line may break inside it (each piece follows the one before without a
    space): at the phrase boundaries of Japanese and Chinese, and elsewhere at UAX #14's
    opportunities beside a wide character. A chunk with no wide character, in a language with
    spaces, is left whole without asking either library (all Latin text)."""
    s, spans = _spelled(chunk)
    parser = _parser(lang)
    if len(s) < 2 or (parser is None and not any(_wide(ch) for ch in s)):
        return (chunk,)
    allowed = _opportunities(s)
    if parser is not None:
        bounds, at = set(), 0
        for phrase in parser.parse(s):
            at += len(phrase)
            bounds.add(at)
        cuts = [b for b in allowed if b in bounds]
    else:
        cuts = [b for b in allowed if _wide(s[b - 1]) or _wide(s[b])]
    return _cut(chunk, spans, cuts) if cuts else (chunk,)


def _cut(chunk: tuple[Part, ...], spans: list[tuple[int, int]], cuts: list[int]) -> tuple[tuple[Part, ...], ...]:
    """The chunk's parts cut at the given places of its spelling (never inside an icon)."""
    pieces: list[tuple[Part, ...]] = []
    current: list[Part] = []
    todo = sorted(cuts)
    for part, (a, b) in zip(chunk, spans):
        inside = [c for c in todo if a < c < b] if isinstance(part, TextPart) else []
        if todo and current and todo[0] <= a:  # a cut before this part
            while todo and todo[0] <= a:
                todo.pop(0)
            pieces.append(tuple(current))
            current = []
        if not inside:
            current.append(part)
            todo = [c for c in todo if c >= b]
            continue
        assert isinstance(part, TextPart)
        lo = a
        for c in inside:
            current.append(replace(part, text=part.text[lo - a : c - a]))
            pieces.append(tuple(current))
            current, lo = [], c
        current.append(replace(part, text=part.text[lo - a :]))
        todo = [c for c in todo if c >= b]
    if current:
        pieces.append(tuple(current))
    return tuple(pieces)


@lru_cache(maxsize=20000)
def inner_breaks(chunk: tuple[Part, ...]) -> tuple[tuple[int, int], ...]:
    """UAX #14's opportunities inside a phrase, as (text part, character) where the next line would
    start: where a phrase wider than its line breaks (never inside an icon)."""
    s, spans = _spelled(chunk)
    out = []
    for b in _opportunities(s):
        for m, (part, (lo, hi)) in enumerate(zip(chunk, spans)):
            if lo <= b < hi and isinstance(part, TextPart):
                out.append((m, b - lo))
            elif b == lo and isinstance(part, IconPart) and m and isinstance(chunk[m - 1], TextPart):
                prev = chunk[m - 1]
                assert isinstance(prev, TextPart)
                out.append((m - 1, len(prev.text)))
    return tuple(out)


SPACE = TextPart(" ", False)  # a space a line may not break at, inside a chunk
_BEFORE = frozenset({"CL", "CP", "EX", "IS", "SY", "WJ"})  # LB11, LB13: no break before them, spaces or not
_AFTER_CLOSE = frozenset({"CL", "CP"})


@lru_cache(maxsize=4096)
def _class(ch: str) -> str:
    """A character's UAX #14 class (uniseg's data), ambiguous and unknown ones resolved as UAX #14 advises;
    cached: held() asks it at every space of every text, and uniseg's lookup is slow. Below U+3000
    the shipped table answers (lbclasses.py): Latin text never imports uniseg."""
    cls = "AL" if ch == ICON else line_break_class(ch)
    if cls is None:
        from uniseg.linebreak import line_break

        cls = str(line_break(ch).name)
    return {"AI": "AL", "SG": "AL", "XX": "AL", "SA": "AL", "CJ": "NS"}.get(cls, cls)


def _held_at(before: str, after: str) -> bool:
    """Whether UAX #14 forbids a break at one space between `before` and `after` (the texts on each
    side, at least their last and first characters): its rules that reach across spaces, LB11 and
    LB13 to LB17 (the others concern characters that touch)."""
    a, b = _class(before[-1]), _class(after[0])
    if b in _BEFORE or a == "OP" or (a in _AFTER_CLOSE and b == "NS") or (a == b == "B2"):
        return True
    if a == "QU" and unicodedata.category(before[-1]) == "Pi":  # LB15a: an opening quote after a space or start
        return len(before) == 1 or _class(before[-2]) in ("OP", "QU", "GL", "SP", "ZW")
    if b == "QU" and unicodedata.category(after[0]) == "Pf":  # LB15b: a closing quote before a space or end
        return len(after) == 1 or _class(after[1]) in ("SP", "GL", "WJ", "CL", "QU", "CP", "EX", "IS", "SY", "ZW")
    return False


def held(chunks: list[list[Part]]) -> list[list[Part]]:
    """A hard line's chunks (model/cardtext.py cut them at every space) joined again, space included, where
    UAX #14 allows no break after the space: before `/` `!` `?` `:` `;` `)` `»` and the like, after
    `¿` `¡` `(` `«`. Chunks of letters or digits meet at a break (LB18): not asked."""
    if len(chunks) < 2:
        return chunks
    out = [chunks[0]]
    for chunk in chunks[1:]:
        last, first = out[-1][-1] if out[-1] else None, chunk[0] if chunk else None
        if (  # the common case, letters or digits on both sides, seen without spelling the chunks out
            type(last) is TextPart
            and type(first) is TextPart
            and last.text
            and first.text
            and last.text[-1].isalnum()
            and first.text[0].isalnum()
        ):
            out.append(chunk)
            continue
        tail, _ = _spelled(tuple(out[-1][-2:]))
        head, _ = _spelled(tuple(chunk[:2]))
        if not tail or not head or (tail[-1].isalnum() and head[0].isalnum()) or not _held_at(tail, head):
            out.append(chunk)
        else:
            out[-1] = [*out[-1], SPACE, *chunk]
    return out
