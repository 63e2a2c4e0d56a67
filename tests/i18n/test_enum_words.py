"""Enum words per language in the kind file: a Spanish-source pack prints its own words in Spanish
and English with no hand-written catalogue, and a third language never falls back to Spanish."""

from __future__ import annotations

import pypdf
import pytest
from conftest import run_cli

pytestmark = pytest.mark.slow  # not in the fast tier: whole builds in three languages


def _text(pdf) -> str:
    return " ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


def test_school_words_come_from_the_kind_file_in_every_language(pack_copy, tmp_path) -> None:
    pack = pack_copy("grimorio")
    assert not (pack / "locale" / "es.po").exists()  # no hand-written catalogue for the source language
    assert "schools = {" not in (pack / "templates" / "hechizo.xml.j2").read_text(encoding="utf-8")
    out = tmp_path / "out"
    res = run_cli("build", "grimorio", "--out", str(out), cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    es, en = _text(out / "grimorio/es/hechizos.pdf"), _text(out / "grimorio/en/spells.pdf")
    assert "Fuego" in es and "Sombra" in es and "Fire" not in es
    assert "Fire" in en and "Shadow" in en and "Fuego" not in en
    st = run_cli("i18n", "status", "grimorio", "--json", cwd=pack.parents[1])
    assert '"untranslated": 0' in st.stdout


def test_a_third_language_never_prints_the_spanish_word(pack_copy, tmp_path) -> None:
    pack = pack_copy("grimorio")
    project = pack.parents[1]
    assert run_cli("i18n", "add", "it", "grimorio", cwd=project).returncode == 0
    it = (pack / "locale" / "labels" / "it.po").read_text(encoding="utf-8")
    assert 'msgid "Fire"' in it  # the English word is what an Italian translator translates
    res = run_cli("build", "grimorio", "--lang", "it", "--out", str(tmp_path / "o"), cwd=project)
    assert res.returncode == 1 and "template label 'Fire' has no 'it' translation" in res.stderr
    draft = run_cli("build", "grimorio", "--lang", "it", "--draft", "--out", str(tmp_path / "d"), cwd=project)
    assert draft.returncode == 0, draft.stderr
    text = _text(tmp_path / "d/grimorio/it/hechizos.pdf")
    assert "Fire" in text and "Fuego" not in text  # (card texts fall back to Spanish in a draft, marked)
