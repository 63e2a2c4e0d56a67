"""`<text ellipsize="end">`: a text that does not fit its box, even at its min-size, is cut where it
still fits and ends with "…" (Squib's and Pango's ellipsizing) instead of overflowing; the words cut
off are reported, as a translation that runs longer loses more of its meaning."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from mazmorra.errors import Loc, Problem, Severity
from mazmorra.text import EMPHASIS, SPAN, TOKEN

ELLIPSIZE = ("none", "end")
ELLIPSIS = "…"
RULE = "text.ellipsized"


class _Fits(Protocol):
    @property
    def fits(self) -> bool: ...


B = TypeVar("B", bound=_Fits)


def cut_points(content: str) -> list[int]:
    """Where a text may be cut: after any character, never inside an icon token or a span tag."""
    inside = set[int]()
    for m in (*TOKEN.finditer(content), *SPAN.finditer(content)):
        inside.update(range(m.start() + 1, m.end()))
    return [i for i in range(1, len(content)) if i not in inside and content[i - 1] != "\n"]


def _closed(prefix: str) -> str:
    """A cut text made whole again: "…", then the spans and bold or italic runs it left open closed."""
    stack: list[str] = []
    for m in SPAN.finditer(prefix):
        if not m.group(1):
            stack.append(m.group(2))
        elif stack and stack[-1] == m.group(2):
            stack.pop()
    marks: list[str] = []
    for m in EMPHASIS.finditer(prefix):
        before, after = prefix[m.start() - 1 : m.start()], prefix[m.end() : m.end() + 1]
        if before.isspace() and (after.isspace() or not after):
            continue  # a star with spaces around it prints as a star
        if marks and marks[-1] == m.group(1):
            marks.pop()
        else:
            marks.append(m.group(1))
    return prefix.rstrip() + ELLIPSIS + "".join(reversed(marks)) + "".join(f"[/{t}]" for t in reversed(stack))


def ellipsized(content: str, lay: Callable[[str], B]) -> tuple[B, str]:
    """The longest cut of content (ending in "…") whose laid-out block fits, and the text cut off.
    If not even "…" alone fits, that is laid out (and the box reports its overflow)."""
    points = cut_points(content)
    lo, hi = -1, len(points)  # points[lo] fits (-1: nothing but "…"), points[hi] does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if lay(_closed(content[: points[mid]])).fits:
            lo = mid
        else:
            hi = mid
    end = points[lo] if lo >= 0 else 0
    rest = re.sub(r"\s+", " ", content[end:]).strip()
    return lay(_closed(content[:end])), rest


def cut_warning(cut: str, w: float, h: float, loc: Loc | None, component: str, fld: str | None, lang: str) -> Problem:
    """The located warning that a box printed its text cut: what is not printed, in its words."""
    shown = cut if len(cut) <= 80 else cut[:77] + "..."
    return Problem(
        RULE,
        f"text cut to fit its {w:.1f}×{h:.1f} mm box (ellipsize=\"end\"): '{shown}' is not printed; "
        "check that what is printed still says enough (a translation may lose more)",
        loc,
        component,
        fld,
        Severity.WARNING,
        lang=lang,
    )
