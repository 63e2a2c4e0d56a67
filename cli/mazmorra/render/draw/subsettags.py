"""Font subset tags that name their subset. ReportLab tags a TrueType font's subsets by their number
(`AAAAAA+`, `AAAAAB+`, ...), so every font's first subset in a PDF is `AAAAAA+`: the regular, the
bold and the italic face alike. ISO 32000 (9.6.4) and PDF/X preflights expect a tag per subset.
Here each subset's tag is six capital letters drawn from a hash of its font's name and the
characters it holds: different subsets get different tags (in one file, and in a file merged from
chunks, render/draw/chunkmerge.py), the same subset the same tag, and builds stay byte-identical.

ReportLab reads the tag from its module's `SUBSETN(n)` while it writes a font's objects
(`TTFont.addObjects`); `install()` wraps that method once per process so that, for that call only,
`SUBSETN` answers with the content tag. Workers are processes, never threads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from reportlab.pdfbase import ttfonts

_installed: list[bool] = []


def subset_tag(font: bytes | str, chars: Sequence[int]) -> bytes:
    """Six capital letters for the subset of `font` holding `chars` (code points, in subset order)."""
    name = font.encode("latin-1", "replace") if isinstance(font, str) else font
    digest = hashlib.sha256(name + b"\0" + ",".join(map(str, chars)).encode("ascii")).digest()
    return bytes(65 + b % 26 for b in digest[:6])


def install() -> None:
    """Tag every TrueType subset ReportLab writes from now on by its content (once per process)."""
    if _installed:
        return
    _installed.append(True)
    original = ttfonts.TTFont.addObjects
    numbered = ttfonts.SUBSETN

    def add_objects(self: Any, doc: Any) -> Any:
        state = self.state.get(doc)
        if state is None:
            return original(self, doc)
        face, subsets = self.face.name, state.subsets
        ttfonts.SUBSETN = lambda n, *_: subset_tag(face, subsets[n])
        try:
            return original(self, doc)
        finally:
            ttfonts.SUBSETN = numbered

    ttfonts.TTFont.addObjects = add_objects
