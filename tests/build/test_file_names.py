"""A deck's PDF named in each language (pack.yaml's `file_names`): an English build writes
output/<pack>/en/<english name>.pdf, and make's dependency files, `outputs` and the removal of old
PDFs follow the name."""

from __future__ import annotations

import pytest
from conftest import edit, pdf_text, run_cli

pytestmark = pytest.mark.slow  # whole builds of a sample


def test_an_english_build_writes_the_decks_english_file_name(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    edit(pack / "pack.yaml", "    size: 4\n", "    size: 4\n    file_names: {en: loose-cards}\n")
    listed = run_cli("outputs", "muestras", cwd=project)
    assert listed.stdout.split() == ["output/muestras/es/cartas.pdf", "output/muestras/en/loose-cards.pdf"]
    assert run_cli("build", "muestras", cwd=project).returncode == 0
    en, es = project / "output/muestras/en", project / "output/muestras/es"
    assert sorted(p.name for p in en.glob("*.pdf")) == ["loose-cards.pdf"] and (es / "cartas.pdf").is_file()
    assert "Forgotten Chest" in pdf_text(en / "loose-cards.pdf")
    assert (project / "output/.deps/muestras/en/loose-cards.d").is_file()  # make follows the English name
    again = run_cli("build", "muestras", "--changed-only", cwd=project)
    assert again.returncode == 0 and "loose-cards.pdf" not in again.stdout  # up to date under its name
    # the name dropped: the next build writes cartas.pdf and removes the PDF it wrote before
    edit(pack / "pack.yaml", "    file_names: {en: loose-cards}\n", "")
    assert run_cli("build", "muestras", "--lang", "en", cwd=project).returncode == 0
    assert sorted(p.name for p in en.glob("*.pdf")) == ["cartas.pdf"]


def test_two_decks_with_one_file_name_in_a_language_are_refused_at_their_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    two = """
  - id: otras
    kind: card
    name: Otras cartas
    file: decks/cartas.yaml
    file_names: NAMES
format: 2"""
    text = (
        (pack / "pack.yaml")
        .read_text(encoding="utf-8")
        .replace("    size: 4\n", "    file_names: {en: cartas-en, de: karten}\n")
    )

    def validate(names: str) -> str:
        (pack / "pack.yaml").write_text(text.replace("\nformat: 2", two.replace("NAMES", names)), encoding="utf-8")
        res = run_cli("validate", "muestras", cwd=pack.parents[1])
        assert res.returncode == 1 and "Traceback" not in res.stderr
        return res.stdout + res.stderr

    said = validate("{es: cartas-en}")  # another language: no clash
    assert "would both write" not in said
    assert "file_names gives a name in 'de', which the pack does not build (es, en)" in said
    assert "is not a file name" in validate("{en: Cartas-EN}")  # lowercase, as ids are
    said = validate("{en: cartas-en}")
    assert "decks 'cartas' and 'otras' would both write cartas-en.pdf in 'en'" in said
    assert "content/muestras/pack.yaml:" in said
