"""The pseudo-locale (`mazmorra i18n pseudo`): every text a player reads, accented, bracketed and
made longer by a chosen share (35 % by default, what a Spanish or English text grows by in German
or French), built like any language so a designer finds the tight boxes before any translator
starts. Icon tokens and bold/italic markers are kept as written."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

from mazmorra.i18n.labels import TEMPLATE_LANG, Labels
from mazmorra.i18n.localise import Localisation, LocalText, localise
from mazmorra.model.cardtext import _ALIGN_MARK, EMPHASIS, TOKEN
from mazmorra.model.content import Pack
from mazmorra.support.memo import Memo

PSEUDO = "qps"  # the pseudo-locale's code (Microsoft's qps-ploc family; no real language uses it)
EXPANSION = 35.0  # percent
# Latin-1 accented letters: every font a pack may use covers them, so a missing glyph is real.
_ACCENTS = str.maketrans("aeiouncyAEIOUNCY", "áéíóúñçýÁÉÍÓÚÑÇÝ")
_FILLER = "lóréá ípsúm dólór sít ámét çóñséçtétúr ádípísçíñg élít séd dó éíúsmód témpór"
_KEEP = re.compile(f"{TOKEN.pattern}|{EMPHASIS.pattern}|%\\(\\w+\\)[sd]|\\s+")


_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\*\*")


def pseudo_text(text: str, percent: float = EXPANSION) -> str:
    """`text` accented, in brackets, `percent` longer (filler words inside the brackets); icon
    tokens, bold/italic markers and placeholders kept; every line of a multi-line text alike."""
    if "\n" in text:
        return "\n".join(pseudo_text(line, percent) if line.strip() else line for line in text.split("\n"))
    if not text.strip():
        return text
    align = _ALIGN_MARK.match(text)  # `{center}` opening a paragraph stays its first token
    if align:
        return align.group(0) + pseudo_text(text[align.end() :], percent)
    out, at = [], 0
    for m in _KEEP.finditer(text):
        out.append(text[at : m.start()].translate(_ACCENTS))
        out.append(m.group(0))
        at = m.end()
    out.append(text[at:].translate(_ACCENTS))
    body = "".join(out)
    # the brackets count; a label's placeholder does not (what fills it is made longer on its own),
    # nor a bold marker (it prints nothing)
    extra = max(0, math.ceil(len(_PLACEHOLDER.sub("", text)) * percent / 100) - 2)
    pad = (_FILLER + " ") * (extra // (len(_FILLER) + 1) + 1)
    pad = pad[: max(0, extra - 1)].rstrip()
    return f"[{body}{' ' + pad if pad else ''}]"


def pseudo_localise(pack: Pack, percent: float = EXPANSION, memo: Memo | None = None) -> Localisation:
    """Every component of the pack in the pseudo-locale: its source texts, pseudo-translated."""
    source = localise(pack, pack.spec.source_language, memo)

    def local(t: LocalText) -> LocalText:
        status = t.status if t.status == "list" else "translated"
        return replace(t, text=pseudo_text(t.text, percent), status=status, lang=PSEUDO)

    components = tuple(
        replace(c, lang=PSEUDO, texts={k: local(t) for k, t in c.texts.items()}) for c in source.components
    )
    names = {k: local(t) for k, t in source.names.items()}
    return Localisation(PSEUDO, components, names, source.problems)


class PseudoLabels(Labels):
    """Template labels in the pseudo-locale: the labels as written (English), pseudo-translated."""

    def __init__(self, pack_root: Path, shared: Path, percent: float = EXPANSION, memo: Memo | None = None):
        super().__init__(pack_root, shared, TEMPLATE_LANG, memo)
        self.lang = PSEUDO
        self.percent = percent

    def word(self, msgid: str, missing: dict[str, None]) -> str:
        return pseudo_text(self.table.get(msgid, msgid), self.percent)

    def words(self, singular: str, plural: str, n: int, missing: dict[str, None]) -> str:
        text = singular if n == 1 else plural
        return pseudo_text(text, self.percent).replace("%(n)d", str(n)).replace("%(n)s", str(n))
