"""Issue 5: translator workflow — catalogues, status, draft builds, strictness, new languages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import edit, line_of, located, need_tool, pdf_text, run_cli

pytestmark = pytest.mark.slow  # not in the fast tier: catalogue updates and builds of sample copies

ART = "decks/artimanas.yaml"


def _status(project: Path, pack: str = "expedicion") -> dict:
    res = run_cli("i18n", "status", pack, "--json", cwd=project)
    assert res.returncode == 0, res.stderr
    return {d["lang"]: d for d in json.loads(res.stdout)}


def test_changed_source_turns_fuzzy_and_update_keeps_the_old_translation(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    edit(pack / ART, "name: Mala racha", "name: Racha funesta")
    st = _status(project)["en"]
    assert st["fuzzy"] == 1
    item = next(i for i in st["items"] if i["state"] == "fuzzy")
    assert item["component"] == "mala-racha" and item["field"] == "name"
    # located where the translator reviews it: the entry's msgstr line in the catalogue
    po = (pack / "locale" / "en.po").read_text(encoding="utf-8").splitlines()
    at = po.index('msgctxt "mala-racha.name"')
    msgstr = next(i for i in range(at, len(po)) if po[i].startswith("msgstr")) + 1
    assert item["file"] == "content/expedicion/locale/en.po" and item["line"] == msgstr
    old = polib.pofile(str(pack / "locale/en.po")).find("mala-racha.name", by="msgctxt").msgstr
    res = run_cli("i18n", "update", "expedicion", cwd=project)
    assert res.returncode == 0, res.stderr
    entry = polib.pofile(str(pack / "locale/en.po")).find("mala-racha.name", by="msgctxt")
    assert entry.msgid == "Racha funesta" and entry.msgstr == old
    assert "fuzzy" in entry.flags and entry.previous_msgid == "Mala racha"
    assert _status(project)["en"]["fuzzy"] == 1
    # A fuzzy text fails a normal build, names the .po line, and passes only as a draft.
    res = run_cli("build", "expedicion", cwd=project)
    assert res.returncode == 1 and "i18n.fuzzy" in res.stderr
    assert located(pack, "locale/en.po", "msgstr", after='msgid "Racha funesta"') in res.stderr, res.stderr
    assert run_cli("build", "expedicion", "--draft", cwd=project).returncode == 0
    assert run_cli("build", "expedicion", "--draft", "--strict", cwd=project).returncode == 1


def test_removed_component_becomes_obsolete_not_lost(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    path = pack / "decks" / "maldiciones.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("- id: brujula-enloquecida")
    end = text.index("- id:", start + 5)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    edit(pack / "pack.yaml", "size: 15", f"size: {15 - 1}")
    assert run_cli("i18n", "update", "expedicion", cwd=project).returncode == 0
    po = polib.pofile(str(pack / "locale/en.po"))
    gone = [e for e in po.obsolete_entries() if e.msgctxt == "brujula-enloquecida.name"]
    assert gone and gone[0].msgstr
    assert _status(project)["en"]["obsolete"] == 2


def test_deleted_entry_is_untranslated_and_a_draft_marks_it(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    po = polib.pofile(str(pack / "locale/en.po"), wrapwidth=0)
    po.remove(po.find("pista-falsa.effect", by="msgctxt"))
    po.save()
    st = _status(project)["en"]
    assert st["untranslated"] == 1 and st["translated"] == st["total"] - 1
    res = run_cli("build", "expedicion", "--lang", "en", cwd=project)
    assert res.returncode == 1 and "pista-falsa.effect" in res.stderr and "i18n.missing" in res.stderr
    res = run_cli("build", "expedicion", "--lang", "en", "--draft", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "i18n.missing" in res.stderr  # still reported, as a warning
    text = pdf_text(project / "output/expedicion/en/tricks.pdf")
    assert text.count("UNTRANSLATED (en): effect") == 2  # one card, two copies
    assert run_cli("build", "expedicion", "--lang", "en", "--draft", "--strict", cwd=project).returncode == 1


def test_translation_with_other_icon_tokens_is_reported_at_its_po_line(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    po_path = pack / "locale/en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = po.find("fama-precoz.effect", by="msgctxt")
    assert "{alert:1}" in entry.msgstr
    entry.msgstr = entry.msgstr.replace("{alert:1}", "{alert:3}")
    po.save()
    line = line_of(po_path, "{alert:3}")  # the msgstr line a translator edits
    res = run_cli("validate", "expedicion", cwd=project)
    assert res.returncode == 1
    assert f"content/expedicion/locale/en.po:{line}:" in res.stderr
    assert "i18n.tokens" in res.stderr and "fama-precoz.effect" in res.stderr


def test_character_missing_from_the_font_is_reported(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    po = polib.pofile(str(pack / "locale/en.po"), wrapwidth=0)
    po.find("mala-racha.name", by="msgctxt").msgstr = "Bad Luck 厄運"
    po.save()
    res = run_cli("validate", "expedicion", cwd=project)
    assert res.returncode == 1
    assert "text.missing-glyph" in res.stderr and "mala-racha.name" in res.stderr
    assert located(pack, "locale/en.po", 'msgstr "Bad Luck') in res.stderr and "(en)" in res.stderr, res.stderr


def test_a_third_language_is_one_command_away(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    # the pack's own back counts its cards: a label with plural forms, to translate like the others
    from mazmorra.support.paths import templates_dir

    back = (templates_dir() / "card-back.xml.j2").read_text(encoding="utf-8")
    count = '<text role="label" x="6" y="{{ h - 10 }}" w="{{ w - 12 }}" h="4" size="6" align="center" color="#bdc3c7">'
    count += '{{ ngettext("%(n)d card", "%(n)d cards", deck.count) }}</text>\n</card>'
    (pack / "templates").mkdir()
    (pack / "templates" / "card-back.xml.j2").write_text(back.replace("</card>", count), encoding="utf-8")
    res = run_cli("i18n", "add", "fr", "muestras", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "fr" in (pack / "pack.yaml").read_text(encoding="utf-8")
    fr = pack / "locale" / "fr.po"
    assert fr.is_file()
    for made in (fr, pack / "locale" / "labels" / "fr.po"):  # dated when made, as msginit dates a new catalogue
        assert "YEAR-MO-DA" not in made.read_text(encoding="utf-8") and "PO-Revision-Date: 20" in made.read_text(
            encoding="utf-8"
        )
    # Untranslated: a draft build works and says so; a normal build refuses.
    assert run_cli("build", "muestras", "--lang", "fr", cwd=project).returncode == 1
    assert run_cli("build", "muestras", "--lang", "fr", "--draft", cwd=project).returncode == 0
    french = {"pack.name": "Échantillons", "deck:cartas.name": "Cartes"}
    for path in (fr, pack / "locale" / "labels" / "fr.po"):  # the pack's texts, and its template labels
        po = polib.pofile(str(path), wrapwidth=0)
        for e in po:
            if e.msgid_plural:
                e.msgstr_plural = {0: "%(n)d carte", 1: "%(n)d cartes"}
            else:
                e.msgstr = french.get(e.msgctxt, "FR " + e.msgid)
        po.save()
    res = run_cli("build", "muestras", "--lang", "fr", "--strict", cwd=project)
    assert res.returncode == 0, res.stderr
    text = pdf_text(project / "output/muestras/fr/cartas.pdf")
    assert "Cartes" in text and "FR Cofre olvidado" in text and "4 cartes" in text
    need_tool("msgfmt")
    for checked in (fr, pack / "locale" / "labels" / "fr.po"):
        res = subprocess.run(
            ["msgfmt", "--check", "--check-format", "-o", "/dev/null", str(checked)], capture_output=True, text=True
        )
        # as after msginit, only the translator is left at gettext's placeholder: their editor fills it in
        said = [
            line for line in res.stderr.splitlines() if "'Last-Translator' still has the initial default" not in line
        ]
        assert res.returncode == 0 and not said, res.stderr
    again = run_cli("i18n", "add", "fr", "muestras", cwd=project)
    assert again.returncode == 2 and "already has" in again.stderr


def test_counts_and_labels_follow_the_language(built_expedicion: Path) -> None:
    es = pdf_text(built_expedicion / "es" / "maldiciones.pdf")
    en = pdf_text(built_expedicion / "en" / "curses.pdf")
    assert "Maldiciones" in es and "Curses" in en  # the shared back names the deck (it counts no cards)
    assert "15 cartas" not in es and "15 cards" not in en
    assert "Maldición" in es and "Curse" in en


def test_status_table_is_readable(cli) -> None:
    res = cli("i18n", "status", "expedicion", env={"COLUMNS": "160"})
    assert res.returncode == 0, res.stderr
    assert "translated" in res.stdout and "en" in res.stdout and "100%" in res.stdout
