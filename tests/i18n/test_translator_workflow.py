"""Issue 14: catalogue maintenance behaves as GNU gettext does, checked against msgmerge itself.

A scripted translator round trip on a copy of the Expedition: the catalogue saved by an editor that
wraps lines its own way (msgcat --width=79, as Poedit writes), a translator's note on an entry left
untranslated, two successive edits of one source text, a component id renamed, and a new language.
At every step the catalogue `mazmorra i18n update` leaves is compared, entry by entry, with what
`msgmerge --previous` makes of the same catalogue and the template `mazmorra i18n extract` writes
(locale/<pack>.pot; template labels have their own catalogues, locale/labels/<lang>.po).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import edit, need_tool, run_cli

from mazmorra.i18n.catalogues.catalogue import plural_forms
from mazmorra.i18n.catalogues.msgmerge import lcs_length, similarity
from mazmorra.i18n.labels import CALIBRATION_WORDS
from mazmorra.load import load_pack

CURSES = "decks/maldiciones.yaml"


def _pot(pack: Path, lang: str, out: Path) -> Path:
    """The template `i18n extract` writes, checked by msgfmt, for msgmerge."""
    assert run_cli("i18n", "extract", pack.name, cwd=pack.parents[1]).returncode == 0
    template = pack / "locale" / f"{pack.name}.pot"
    check = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(template)], capture_output=True, text=True)
    assert check.returncode == 0 and "error" not in check.stderr, check.stderr
    pot = polib.pofile(str(template), wrapwidth=0)
    pot.save(str(out))
    return out


def _entries(path: Path) -> list[tuple]:
    """What a catalogue says, entry by entry, whatever its line wrapping."""
    return [
        (
            e.msgctxt,
            e.msgid,
            e.msgid_plural,
            e.msgstr,
            tuple(sorted(e.msgstr_plural.items())),
            "fuzzy" in e.flags,
            e.previous_msgctxt,
            e.previous_msgid,
            e.tcomment,
            e.comment,
            tuple(e.occurrences),
            bool(e.obsolete),
        )
        for e in polib.pofile(str(path), wrapwidth=0)
    ]


def _update_as_msgmerge(pack: Path, lang: str = "en") -> polib.POFile:
    """Run msgmerge and `i18n update` on the same catalogue and texts; they must agree."""
    po = pack / "locale" / f"{lang}.po"
    work = pack.parents[2]
    pot = _pot(pack, lang, work / f"{lang}.pot")
    expected = work / f"expected-{lang}.po"
    subprocess.run(["msgmerge", "--quiet", "--previous", str(po), str(pot), "-o", str(expected)], check=True)
    res = run_cli("i18n", "update", pack.name, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    ours, theirs = _entries(po), _entries(expected)
    assert len(ours) == len(theirs)
    for mine, gnu in zip(ours, theirs):
        assert mine == gnu
    return polib.pofile(str(po), wrapwidth=0)


@pytest.mark.slow
def test_a_translator_round_trip_leaves_catalogues_as_msgmerge_would(pack_copy) -> None:
    need_tool("msgmerge")
    need_tool("msgcat")
    need_tool("msgfmt")
    pack = pack_copy("expedicion")
    po = pack / "locale" / "en.po"
    # 1. An editor saves the catalogue wrapped at 79 columns, with a note on an untranslated entry.
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("mano-temblorosa.effect", by="msgctxt")
    entry.msgstr, entry.tcomment = "", "ask the designer: reduced for the whole game?"
    cat.save()
    subprocess.run(["msgcat", "--width=79", str(po), "-o", str(po)], check=True)
    assert "max-length" not in po.read_text(encoding="utf-8")  # GNU tools keep only the flags they know
    _update_as_msgmerge(pack)  # (flags are not compared: ours keeps the template's budgets)
    flag_lines = [ln for ln in po.read_text(encoding="utf-8").splitlines() if ln.startswith("#, ")]
    assert any("max-length:" in ln for ln in flag_lines) and any("max-size:" in ln for ln in flag_lines)
    saved = po.read_bytes()
    _update_as_msgmerge(pack)
    assert po.read_bytes() == saved  # nothing changed, nothing rewritten: the editor's wrapping stays
    # 2. Two successive edits of one text: the previous msgid stays the one it was translated from.
    edit(pack / CURSES, "name: Mano temblorosa", "name: Mano muy temblorosa")
    _update_as_msgmerge(pack)
    edit(pack / CURSES, "name: Mano muy temblorosa", "name: Manos temblorosas")
    after = _update_as_msgmerge(pack)
    fuzzy = after.find("mano-temblorosa.name", by="msgctxt")
    assert "fuzzy" in fuzzy.flags and fuzzy.previous_msgid == "Mano temblorosa" and fuzzy.msgstr == "Shaky Hand"
    note = after.find("mano-temblorosa.effect", by="msgctxt")
    assert note.tcomment.startswith("ask the designer") and not note.msgstr
    changed = [ln for ln in _diff(saved.decode(), po.read_text(encoding="utf-8")) if ln[0] in "+-"]
    assert 0 < len(changed) <= 12  # only the edited entry's lines
    # 3. A component renamed: its texts keep their translations, fuzzy, from their old context.
    edit(pack / CURSES, "id: rastro-luminoso", "id: rastro-brillante")
    after = _update_as_msgmerge(pack)
    renamed = after.find("rastro-brillante.name", by="msgctxt")
    assert renamed.msgstr == "Glowing Trail" and "fuzzy" in renamed.flags
    assert renamed.previous_msgctxt == "rastro-luminoso.name"
    assert after.find("rastro-luminoso.name", by="msgctxt") is None  # used, so not left obsolete
    # 4. A new language: every text and label, the plural rule from CLDR.
    res = run_cli("i18n", "add", "fr", "expedicion", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    fr = polib.pofile(str(pack / "locale" / "fr.po"), wrapwidth=0)
    assert fr.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    assert not any(e.msgctxt == "label" for e in fr)  # one source language per catalogue
    fr_labels = polib.pofile(str(pack / "locale" / "labels" / "fr.po"), wrapwidth=0)
    assert fr_labels.metadata["X-Source-Language"] == "en"
    assert any(e.msgctxt == "label" for e in fr_labels)  # plural labels: test_i18n's third language
    _update_as_msgmerge(pack, "fr")
    need_tool("msgfmt")
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(pack / "locale" / "fr.po")]).returncode == 0


def _diff(a: str, b: str) -> list[str]:
    import difflib

    return [
        ln
        for ln in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
        if ln[:3] not in ("---", "+++")
    ]


def test_an_update_from_another_folder_writes_references_relative_to_the_pack(pack_copy, tmp_path) -> None:
    pack = pack_copy("muestras")
    before = (pack / "locale" / "en.po").read_bytes()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run_cli("i18n", "update", str(pack), cwd=elsewhere).returncode == 0
    assert run_cli("i18n", "update", str(pack.resolve()), cwd=Path("/")).returncode == 0
    text = (pack / "locale" / "en.po").read_text(encoding="utf-8")
    assert text.encode() == before
    refs = [e.occurrences for e in polib.pofile(text)]
    assert refs and all(f in ("pack.yaml", "decks/cartas.yaml") for r in refs for f, _ in r)


@pytest.mark.parametrize(
    ("lang", "forms"),
    [("fr", "nplurals=2; plural=(n > 1);"), ("ja", "nplurals=1; plural=0;"), ("pl", None), ("zz", None)],
)
def test_plural_forms_of_a_new_language_come_from_cldr(lang: str, forms: str | None) -> None:
    n, header = plural_forms(lang)
    if forms:
        assert header == forms
    assert header.startswith(f"nplurals={n};")
    assert n == (3 if lang == "pl" else 2 if lang in ("fr", "zz") else 1)


def test_similarity_is_gnu_fstrcmp() -> None:
    import random

    rng = random.Random(7)
    for _ in range(200):
        a = bytes(rng.choice(b"abcde ") for _ in range(rng.randint(0, 30)))
        b = bytes(rng.choice(b"abcde ") for _ in range(rng.randint(0, 30)))
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(len(a)):
            for j in range(len(b)):
                table[i + 1][j + 1] = table[i][j] + 1 if a[i] == b[j] else max(table[i][j + 1], table[i + 1][j])
        assert lcs_length(a, b) == table[len(a)][len(b)]
    assert similarity("Mano temblorosa", "Mano temblorosa") == 1.0
    assert similarity("", "abc") == 0.0


def test_status_counts_every_message_a_build_needs_labels_included(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    # a back of the pack's own that counts its cards: a template label the catalogues must carry
    from mazmorra.support.paths import templates_dir

    back = (templates_dir() / "card-back.xml.j2").read_text(encoding="utf-8")
    count = '<text role="label" x="6" y="{{ h - 10 }}" w="{{ w - 12 }}" h="4" size="6" align="center" color="#bdc3c7">'
    count += '{{ ngettext("%(n)d card", "%(n)d cards", deck.count) }}</text>\n</card>'
    (pack / "templates").mkdir()
    (pack / "templates" / "card-back.xml.j2").write_text(back.replace("</card>", count), encoding="utf-8")
    assert run_cli("i18n", "add", "fr", "muestras", cwd=project).returncode == 0
    res = run_cli("i18n", "status", "muestras", "--json", cwd=project)
    fr = next(d for d in json.loads(res.stdout) if d["lang"] == "fr")
    build = run_cli("build", "muestras", "--lang", "fr", cwd=project)
    errors = [ln for ln in build.stderr.splitlines() if " error " in ln or ": error" in ln]
    # the labels only a round's removal list, a draft's band and the calibration sheet print, counted
    # too: a translator finishes them before the first round (a build needs the first five)
    sheet = len(CALIBRATION_WORDS)
    rounds_and_drafts = [i for i in fr["items"] if i["file"] == "content/muestras/locale/labels/fr.po"]
    assert len(rounds_and_drafts) == 5 + sheet, fr["items"]
    assert build.returncode == 1 and len(errors) + 5 + sheet == fr["untranslated"] == fr["total"]
    labels = [i for i in fr["items"] if i["msgctxt"] == "label" and i not in rounds_and_drafts]
    assert labels and all(i["file"] == "content/muestras/templates/card-back.xml.j2" and i["line"] > 0 for i in labels)
    assert all(i["line"] > 0 for i in rounds_and_drafts)  # each at its entry: where a translator types
    en = next(d for d in json.loads(res.stdout) if d["lang"] == "en")
    assert en["total"] == fr["total"] and en["translated"] == en["total"]  # English labels are as written


def test_a_draft_prints_the_source_text_of_a_fuzzy_entry_under_a_band_that_hides_nothing(pack_copy) -> None:
    from dataclasses import replace

    from golden import context

    from mazmorra.contracts import RectOp, TextOp
    from mazmorra.layout import lay_out

    pack = pack_copy("muestras")
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("cofre-olvidado.text", by="msgctxt")
    entry.flags.append("fuzzy")
    entry.msgstr = "OUTDATED translation"
    cat.save()
    loaded = load_pack(pack)
    ctx = replace(context(loaded, "en"), draft=True)
    item = next(i for i in lay_out(loaded.deck("cartas"), ctx).items() if i.front.component == "cofre-olvidado")
    texts = [op for op in item.front.ops if isinstance(op, TextOp)]
    words = " ".join(op.text for op in texts)
    assert "OUTDATED" not in words and "cofre" in words  # the Spanish source, as gettext falls back to it
    band = [op for op in item.front.ops if isinstance(op, RectOp) and op.fill == "#c0392b"]
    assert len(band) == 1 and band[0].y + band[0].h <= 3.2 + 1e-6
    label = [op for op in texts if op.text.startswith("FUZZY (en): text")]  # its own word: not UNTRANSLATED
    assert label and all(op.size >= 5.5 for op in label)
    others = [op for op in texts if op not in label]
    assert all(op.y - op.size * 0.3528 >= band[0].y + band[0].h for op in others)  # no card text under it
