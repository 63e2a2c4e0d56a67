"""A third language in a sample: grimorio in French (an original translation), built like Spanish
and English, with no Spanish or English word of the card texts left, and French hyphenation."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pyphen
import pytest
from conftest import CONTENT

from mazmorra.i18n.localise import localise
from mazmorra.layout.text.fit import Style, fit
from mazmorra.load import load_pack
from mazmorra.model.cardtext import TOKEN, TextPart
from mazmorra.model.units import PT_PER_MM

_WORD = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(TOKEN.sub(" ", text))}


def _texts(pack, lang: str) -> str:
    loc = localise(pack, lang)
    parts = [t.text for c in loc.components for t in c.texts.values()]
    return "\n".join([*parts, *(t.text for t in loc.names.values())])


def _pdf_words(folder: Path) -> set[str]:
    text = " ".join(p.extract_text() for pdf in sorted(folder.glob("*.pdf")) for p in pypdf.PdfReader(pdf).pages)
    return _words(text)


@pytest.mark.slow
def test_the_french_grimorio_prints_no_spanish_or_english_word(built) -> None:
    pack = load_pack(CONTENT / "grimorio")
    assert "fr" in pack.spec.languages
    french = _words(_texts(pack, "fr"))
    words = {"es": ["Fuego", "Hielo", "Sombra", "Tierra"], "en": ["Fire", "Ice", "Shadow", "Earth"]}  # the schools
    foreign = {lang: (_words(_texts(pack, lang) + " " + " ".join(w)) - french) for lang, w in words.items()}
    out = built("grimorio")
    printed = {lang: _pdf_words(out / lang) for lang in ("es", "en", "fr")}
    for lang in ("es", "en"):
        assert len(printed[lang] & foreign[lang]) > 40  # the check reads the PDFs: each language's own words are there
        assert not printed["fr"] & foreign[lang], sorted(printed["fr"] & foreign[lang])
    assert {"créature", "invoquez", "adversaire", "feu", "glace"} <= printed["fr"]


def test_french_text_hyphenates_at_the_dictionarys_points() -> None:
    word = "extraordinairement"
    points = set(pyphen.Pyphen(lang="fr").positions(word))
    assert points  # pyphen ships a French dictionary
    f = fit(f"Un sort {word} rare", 24 * PT_PER_MM, 40 * PT_PER_MM, Style(), 10, 10, "fr")
    lines = [" ".join(p.part.text for p in line.items if isinstance(p.part, TextPart)) for line in f.lines]
    broken = [line for line in lines if line.endswith("-")]
    assert broken, lines
    head = broken[0].split(" ")[-1].rstrip("-")
    assert word.startswith(head) and len(head) in points, lines  # broken where French allows
