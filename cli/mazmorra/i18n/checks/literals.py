"""Words typed into a template: a `<text>` whose content holds letters outside Jinja expressions
and icon tokens prints the same words in every language. In a pack of several languages each one
is a warning at its template line, so no English card prints a Spanish word (wrap it in `_()`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from mazmorra.errors import Loc, Problem, Severity, rel
from mazmorra.model.cardtext import parse

RULE = "template.literal-text"
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.DOTALL)
_LETTER = re.compile(r"[^\W\d_]")
_ICON = re.compile(r"\{[a-z][a-z0-9_-]*(?:[:=][^{}]*)?\}")  # an icon token, its number a blanked expression


def literal_problems(files: Iterable[Path], languages: list[str]) -> list[Problem]:
    """A warning for each literal word a template prints, when the pack has several languages."""
    if len(languages) < 2:
        return []
    out = []
    for path in files:
        for line, words in _literals(path.resolve(), path.stat().st_mtime_ns):
            out.append(
                Problem(
                    RULE,
                    f"<text> prints {words!r} as typed, the same in every language ({', '.join(languages)}); "
                    f'write it as {{{{ _("…") }}}} (a label catalogues translate) or take it from a field',
                    Loc(rel(path), line, 1),
                    "templates",
                    severity=Severity.WARNING,
                    once=True,
                )
            )
    return out


@cache
def _literals(path: Path, mtime_ns: int) -> tuple[tuple[int, str], ...]:
    source = path.read_text(encoding="utf-8")
    blanked = _JINJA.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)  # same lines, no Jinja
    out = []
    for m in _TEXT.finditer(blanked):
        words = " ".join(_ICON.sub(" ", parse(m.group(1)).untokened).split())
        if _LETTER.search(words):
            out.append((blanked.count("\n", 0, m.start()) + 1, words))
    return tuple(out)
