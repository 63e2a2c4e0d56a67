"""Issue 14: every text of an English build is English (issue 41.6: its file names too). The text of
every English output (PDF pages and metadata, gallery, Tabletop Simulator objects, cards.csv) holds
no Spanish-only word of the pack's source vocabulary: the words of its Spanish texts and Spanish
template labels, less the words its English texts share (names, cognates), but never less a
glossary's Spanish term. Identifiers (component ids, file names, URLs, the `file:line` of a problem)
are not text and are not read; the files a deck names are named by its English file name."""

from __future__ import annotations

import csv
import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, pdf_text

from mazmorra.i18n.checks.glossary import load_glossary
from mazmorra.i18n.localise import pack_messages
from mazmorra.load import load_pack
from mazmorra.support.paths import templates_dir

pytestmark = pytest.mark.slow  # not in the fast tier: every sample pack built in English with every export

WORD = re.compile(r"[^\W\d_]+")
PACKS = tuple(sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file()))


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


@cache
def spanish_only(pack_id: str) -> frozenset[str]:
    """The pack's Spanish-only words (content/ is not modified here: worked out once per pack)."""
    pack = load_pack(CONTENT / pack_id)
    spanish = set().union(*(words(m.source) for m in pack_messages(pack)))
    english: set[str] = set()
    for e in polib.pofile(str(pack.root / "locale" / "en.po")):
        english |= words(e.msgstr)
    for e in polib.pofile(str(templates_dir() / "locale" / "es.po")):
        spanish |= words(e.msgstr) | set().union(*map(words, e.msgstr_plural.values()))
        english |= words(e.msgid) | words(e.msgid_plural or "")
    glossary = load_glossary(pack.root)
    terms = {w for t in glossary for f in t.forms.get("es", ()) for w in words(f)}
    their = {w for t in glossary for f in t.forms.get("en", ()) for w in words(f)}
    never_english = terms - their  # a glossary's Spanish term is Spanish, even where a leak put it in the .po
    codes = set(pack.spec.languages)  # "es", "en": language codes the gallery shows, identifiers too
    return frozenset(((spanish - english) | never_english) - codes)


class _Text(HTMLParser):
    """A page's text as a reader meets it: text, alt, title and labels; not code, scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code"):
            self._skip += 1
        for name, value in attrs:
            if value and (
                name in ("alt", "title", "aria-label") or name.startswith("data-t-en") or name == "data-alt-en"
            ):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def english_texts(out: Path, pack_id: str) -> dict[str, str]:
    """Where -> text, for every English output of a pack built into `out`."""
    from pypdf import PdfReader

    en = out / pack_id / "en"
    found: dict[str, str] = {}
    for pdf in sorted(en.glob("*.pdf")):
        meta = PdfReader(str(pdf)).metadata or {}
        text = pdf_text(pdf)
        found[pdf.name] = re.sub(r"(\w)-\n(\w)", r"\1\2", text)  # a word hyphenated at a line's end is one word
        found[pdf.name + " (title, subject)"] = f"{meta.get('/Title', '')} {meta.get('/Subject', '')}"
    for saved in sorted((en / "tts").glob("*.json")):
        found[f"tts/{saved.name}"] = "\n".join(_names(json.loads(saved.read_text(encoding="utf-8"))))
    for cards in sorted((en / "png").glob("*/cards.csv")):
        with cards.open(encoding="utf-8") as fh:
            found[f"png/{cards.parent.name}/cards.csv"] = "\n".join(row["name"] for row in csv.DictReader(fh))
    page = _Text()
    page.feed((out / pack_id / "gallery" / "index.html").read_text(encoding="utf-8"))
    found["gallery"] = "\n".join(page.parts)
    return found


def _names(o: object) -> list[str]:
    """Every Nickname and Description of a TTS saved object, nested objects included."""
    if isinstance(o, dict):
        own = [str(o[k]) for k in ("Nickname", "Description") if k in o]
        return own + [t for v in o.values() for t in _names(v)]
    if isinstance(o, list):
        return [t for v in o for t in _names(v)]
    return []


def spanish_in_english_outputs(out: Path, pack_id: str) -> dict[str, set[str]]:
    """Spanish-only word -> the outputs it appears in."""
    vocabulary = spanish_only(pack_id)
    leaks: dict[str, set[str]] = {}
    for where, text in english_texts(out, pack_id).items():
        for word in words(text) & vocabulary:
            leaks.setdefault(word, set()).add(where)
    return leaks


ENGLISH = ("--lang", "en", "--png", "--dpi", "30", "--tts", "--gallery")


@pytest.fixture(scope="module")
def english_build(built) -> Path:
    """Every sample built in English with every export, once per test run: the output folder."""
    for pack in PACKS:
        out = built(pack, *ENGLISH).parent
    return out


@pytest.mark.parametrize("pack_id", PACKS)
def test_english_outputs_hold_no_spanish(english_build: Path, pack_id: str) -> None:
    vocabulary = spanish_only(pack_id)
    assert len(vocabulary) > 20
    texts = english_texts(english_build, pack_id)
    assert any(n.endswith(".pdf") for n in texts) and "gallery" in texts and any(n.startswith("tts/") for n in texts)
    assert any(n.startswith("png/") for n in texts)
    assert spanish_in_english_outputs(english_build, pack_id) == {}


def test_the_vocabulary_has_the_words_a_leak_would_show() -> None:
    vocabulary = spanish_only("expedicion")
    assert {"becario", "artimañas", "maldición", "expedición", "fichas", "aturdimiento"} <= vocabulary
    assert "ismara" not in vocabulary and "clan" not in vocabulary  # a name, a shared word


@pytest.mark.parametrize("pack_id", PACKS)
def test_english_outputs_are_named_by_the_decks_english_file_names(english_build: Path, pack_id: str) -> None:
    """Every file and folder an English build names after a deck (PDF, PNG and TTS folders, TTS
    decks, the gallery's images) carries the deck's English file name, never a Spanish id it replaces."""
    pack = load_pack(CONTENT / pack_id)
    english = {d.file_name("en") for d in pack.decks}
    spanish = {d.id for d in pack.decks} - english
    assert spanish, f"{pack_id}: every deck's English name is its id: nothing to look for"
    en, images = english_build / pack_id / "en", english_build / pack_id / "gallery" / "img" / "en"
    assert {p.stem for p in en.glob("*.pdf")} == english
    per_deck = [*(en / "png").iterdir(), *(en / "tts").glob("*.json"), *images.iterdir()]
    assert per_deck and {p.name.split(".")[0] for p in per_deck} <= english
    named = {
        part.split(".")[0] for folder in (en, images) for p in folder.rglob("*") for part in p.relative_to(folder).parts
    }
    assert named & spanish == set()
