"""A deck's outputs named in each language (pack.yaml's `file_names`): an English build writes
output/<pack>/en/<english name>.pdf, and every other output named after the deck (card PDFs, PNG and
TTS folders, cut files, printer-profile files, gallery images, make's dependency files) follows the
name, as do `outputs` and the removal of old PDFs. Every sample deck declares its name in every
language it is built in besides the source, made from its name there."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, SAMPLES, edit, line_of, pdf_text, run_cli

from mazmorra.load import load_pack


def _slug(name: str) -> str:
    """A deck name as a file name: ASCII, lowercase, words joined by '-' ("Créatures" -> "creatures")."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join("".join(ch if ch.isalnum() else " " for ch in ascii_name).split())


@pytest.mark.parametrize("pack_id", SAMPLES)
def test_every_sample_deck_is_named_in_each_language_after_its_name_there(pack_id: str) -> None:
    pack = load_pack(CONTENT / pack_id)
    source = pack.spec.source_language
    others = [lang for lang in pack.spec.languages if lang != source]
    assert others, "every sample is built in a language besides its source"
    for lang in others:
        names = {
            e.msgctxt[len("deck:") : -len(".name")]: e.msgstr
            for e in polib.pofile(str(pack.root / "locale" / f"{lang}.po"))
            if e.msgctxt and e.msgctxt.startswith("deck:") and e.msgctxt.endswith(".name")
        }
        for deck in pack.decks:
            assert lang in deck.spec.file_names, f"{pack_id}: deck '{deck.id}' has no file name in '{lang}'"
            name, translated = deck.file_name(lang), names[deck.id]
            assert name == _slug(translated), f"{pack_id}/{lang}: '{name}' is not the deck's name '{translated}'"
            if _slug(translated) != _slug(deck.spec.name):  # the names differ: so do the files
                assert name != deck.file_name(source), f"{pack_id}/{lang}/{name}.pdf keeps the source's name"
        assert sorted(d.file_name(source) for d in pack.decks) == sorted(d.id for d in pack.decks)


def _names_under(folder: Path) -> set[str]:
    """Every file and folder name under `folder`, each without its extension."""
    return {p.name.split(".")[0] for p in folder.rglob("*")}


@pytest.mark.slow  # a build of a sample with every output
def test_every_output_of_an_english_build_takes_the_decks_english_name(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    every = ("--png", "--dpi", "30", "--tts", "--card-pdfs", "--cut-file", "--gallery")
    assert run_cli("build", "muestras", *every, cwd=project).returncode == 0
    printed = run_cli("build", "muestras", "--printer", "drivethrucards", "--out", "output/dtc", cwd=project)
    assert printed.returncode == 0, printed.stdout + printed.stderr
    out = project / "output"
    for root in (out / "muestras", out / "dtc" / "muestras", out / ".deps" / "muestras"):
        en, es = _names_under(root / "en"), _names_under(root / "es")
        assert not any("cartas" in name for name in en), (root, sorted(en))
        assert any("loose-cards" in name for name in en) and any("cartas" in name for name in es)
    gallery = _names_under(out / "muestras" / "gallery" / "img" / "en")
    assert "loose-cards" in gallery and "cartas" not in gallery
    assert '"img/en/loose-cards/' in (out / "muestras" / "gallery" / "index.html").read_text(encoding="utf-8")
    en = out / "muestras" / "en"
    assert {p.name for p in en.iterdir()} == {"loose-cards.pdf", "png", "tts", "cards", "cut"}
    assert (en / "tts" / "loose-cards.json").is_file() and (en / "cut" / "loose-cards" / "loose-cards.pdf").is_file()
    assert (en / "cards" / "loose-cards-cards.csv").is_file()
    assert (out / "dtc" / "muestras" / "en" / "drivethrucards" / "loose-cards.pdf").is_file()


@pytest.mark.slow  # whole builds of a sample
def test_an_english_build_writes_the_decks_english_file_name(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    listed = run_cli("outputs", "muestras", cwd=project)
    assert listed.stdout.split() == ["output/muestras/es/cartas.pdf", "output/muestras/en/loose-cards.pdf"]
    assert run_cli("build", "muestras", cwd=project).returncode == 0
    en, es = project / "output/muestras/en", project / "output/muestras/es"
    assert sorted(p.name for p in en.glob("*.pdf")) == ["loose-cards.pdf"] and (es / "cartas.pdf").is_file()
    assert "Forgotten Chest" in pdf_text(en / "loose-cards.pdf")
    assert (project / "output/.deps/muestras/en/loose-cards.d").is_file()  # make follows the English name
    again = run_cli("build", "muestras", "--changed-only", cwd=project)
    assert again.returncode == 0 and "loose-cards.pdf" not in again.stdout  # up to date under its name
    # the name changed: the next build writes the new one and removes the PDF it wrote before
    edit(pack / "pack.yaml", "{en: loose-cards}", "{en: spare-cards}")
    assert run_cli("outputs", "muestras", cwd=project).stdout.split()[-1] == "output/muestras/en/spare-cards.pdf"
    assert run_cli("build", "muestras", "--lang", "en", "--changed-only", cwd=project).returncode == 0
    assert sorted(p.name for p in en.glob("*.pdf")) == ["spare-cards.pdf"]
    assert (project / "output/.deps/muestras/en/spare-cards.d").is_file()
    assert not (project / "output/.deps/muestras/en/loose-cards.d").exists()
    # the name dropped: the deck's id names its files again
    edit(pack / "pack.yaml", "    file_names: {en: spare-cards}\n", "")
    assert run_cli("build", "muestras", "--lang", "en", cwd=project).returncode == 0
    assert sorted(p.name for p in en.glob("*.pdf")) == ["cartas.pdf"]


@pytest.mark.slow  # a validation per name
def test_a_declared_name_that_is_no_safe_file_name_or_clashes_is_refused_at_its_line(pack_copy) -> None:
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
        .replace("{en: loose-cards}", "{en: cartas-en, de: karten}")
        .replace("    size: 4\n", "")
    )

    def validate(names: str) -> str:  # (the second deck's components repeat the first's ids: never valid)
        (pack / "pack.yaml").write_text(text.replace("\nformat: 2", two.replace("NAMES", names)), encoding="utf-8")
        res = run_cli("validate", "muestras", cwd=pack.parents[1])
        assert res.returncode == 1 and "Traceback" not in res.stderr
        return res.stdout + res.stderr

    said = validate("{es: cartas-en}")  # another language: no clash
    assert "would both write" not in said
    at = line_of(pack / "pack.yaml", "de: karten")
    # a name in a language the pack does not build names no file: a warning (a typo, or a language set aside)
    (line,) = [ln for ln in said.splitlines() if ln.startswith(f"content/muestras/pack.yaml:{at}:")]
    assert ": warning [" in line
    assert "file_names gives a name in 'de', which the pack does not build (es, en): no file takes it" in line
    mine = line_of(pack / "pack.yaml", "file_names: {es: cartas-en}")
    for unsafe, why in (
        ("Cartas-EN", "'C', 'E', 'N' not allowed"),  # lowercase, as ids are
        ("cartas/en", "'/' not allowed"),  # never a folder
        ("'..'", "starts or ends with '.'"),
        ("con", "Windows reserves the name 'con'"),
        ("'ñandú'", "'ñ', 'ú' not allowed"),
        ("x" * 65, "65 characters, at most 64"),
    ):
        said = validate("{en: " + unsafe + "}")
        assert f"'{unsafe.strip(chr(39))}' is not a file name: " in said and why in said, said
        assert f"content/muestras/pack.yaml:{mine}:" in said, said
    said = validate("{en: cartas-en}")
    assert "decks 'cartas' and 'otras' would both write cartas-en.pdf in 'en'" in said
    assert f"content/muestras/pack.yaml:{mine}:" in said  # at the second deck's name
    said = validate("{en: CARTAS-en}")  # the same file on a system that ignores case: refused as capitals
    assert "is not a file name" in said
