"""`<text ellipsize="end">` (or `start`, `middle`): a text that does not fit its box, even at its
min-size, is cut where it still fits, a "…" where its words are left out (Squib's and Pango's
ellipsizing), instead of overflowing; the words cut off are reported, as a translation that runs
longer loses more of its meaning."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from mazmorra.errors import Loc, Problem, Severity
from mazmorra.model.cardtext import EMPHASIS, SPAN, parse

ELLIPSIZE = ("none", "end", "start", "middle")
ELLIPSIS = "…"
RULE = "text.ellipsized"


class _Fits(Protocol):
    @property
    def fits(self) -> bool: ...


B = TypeVar("B", bound=_Fits)


def cut_points(content: str) -> list[int]:
    """Where a text may be cut: after any character, never inside an icon token or a span tag."""
    inside = set[int]()
    card = parse(content)
    for start, end in [(t.start, t.end) for t in card.tokens] + [(t.start, t.end) for t in card.tags]:
        inside.update(range(start + 1, end))
    return [i for i in range(1, len(content)) if i not in inside and content[i - 1] != "\n"]


def _open_at(prefix: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The span tags (name, as written) and the bold or italic marks a text leaves open at its end."""
    tags: list[tuple[str, str]] = []
    for m in SPAN.finditer(prefix):
        if not m.group(1):
            tags.append((m.group(2), m.group(0)))
        elif tags and tags[-1][0] == m.group(2):
            tags.pop()
    marks: list[str] = []
    for m in EMPHASIS.finditer(prefix):
        before, after = prefix[m.start() - 1 : m.start()], prefix[m.end() : m.end() + 1]
        if before.isspace() and (after.isspace() or not after):
            continue  # a star with spaces around it prints as a star
        if marks and marks[-1] == m.group(1):
            marks.pop()
        else:
            marks.append(m.group(1))
    return tags, marks


def _cut(content: str, a: int, b: int) -> str:
    """content with content[a:b] replaced by "…", made whole again: the spans and bold or italic runs
    the cut leaves open closed after the "…", those open where the text goes on opened again."""
    tags, marks = _open_at(content[:a])
    closers = "".join(reversed(marks)) + "".join(f"[/{name}]" for name, _ in reversed(tags))
    tags, marks = _open_at(content[:b]) if b < len(content) else ([], [])
    openers = "".join(written for _, written in tags) + "".join(marks)
    return content[:a].rstrip() + ELLIPSIS + closers + openers + content[b:].lstrip()


def ellipsized(content: str, lay: Callable[[str], B], where: str = "end") -> tuple[B, str]:
    """The longest cut of content (its end, start or middle replaced by "…", Pango's ellipsizing)
    whose laid-out block fits, and the text cut off. If not even "…" alone fits, that is laid out
    (and the box reports its overflow)."""
    points = [0, *cut_points(content), len(content)]
    n = len(content)

    def span(k: int) -> tuple[int, int]:  # what is cut when k characters are kept
        if where == "start":
            return 0, min(p for p in points if p >= n - k)
        if where == "middle":
            return max(p for p in points if p <= (k + 1) // 2), min(p for p in points if p >= n - k // 2)
        return max(p for p in points if p <= k), n

    lo, hi = 0, n  # keeping lo characters fits (0: "…" alone, laid out even if it does not), n does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if lay(_cut(content, *span(mid))).fits:
            lo = mid
        else:
            hi = mid
    a, b = span(lo)
    words = EMPHASIS.sub("", SPAN.sub("", content[a:b]))  # the words lost, without the marks styling them
    return lay(_cut(content, a, b)), re.sub(r"\s+", " ", words).strip()


def cut_warning(
    cut: str, w: float, h: float, loc: Loc | None, component: str, fld: str | None, lang: str, where: str = "end"
) -> Problem:
    """The located warning that a box printed its text cut: what is not printed, in its words."""
    shown = cut if len(cut) <= 80 else cut[:77] + "..."
    return Problem(
        RULE,
        f"text cut to fit its {w:.1f}×{h:.1f} mm box (ellipsize=\"{where}\"): '{shown}' is not printed; "
        "check that what is printed still says enough (a translation may lose more)",
        loc,
        component,
        fld,
        Severity.WARNING,
        lang=lang,
    )
