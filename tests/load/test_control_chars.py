"""Control characters and NUL in any text (support/safetext.control_problem) are refused at the YAML,
cell or catalogue line that holds them (`text.control`), never in the XML of the tool's own
template; U+2028 and U+2029 (line and paragraph separators, no control characters) round-trip
through `mazmorra i18n update` and build."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from conftest import edit, line_of, pdf_text, run_cli

from mazmorra.support.safetext import control_problem


def _refused(pack: Path, *needles: str) -> str:
    res = run_cli("validate", pack.name, cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert "templates/" not in text, text  # never the tool's own template
    for needle in needles:
        assert needle in text, text
    return text


@pytest.mark.parametrize("escape, shown", [("\\a", "U+0007 (BEL)"), ("\\e", "U+001B (ESC)"), ("\\0", "U+0000 (NUL)")])
def test_an_escaped_control_character_in_a_yaml_name_is_refused_at_its_line(pack_copy, escape: str, shown: str) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "  name: Ojo del vigía", f'  name: "Ojo{escape} del vigía"')
    _refused(pack, f"decks/cartas.yaml:{line_of(deck, 'Ojo')}:9:", shown, "(text.control)")


def test_a_raw_control_character_in_a_yaml_file_is_refused_at_its_line_and_column(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "  name: Fogata del claustro", "  name: Fogata\x1b del claustro")
    _refused(pack, f"decks/cartas.yaml:{line_of(deck, 'Fogata')}:15:", "U+001B (ESC)", "(text.control)")


def test_a_control_character_in_a_spreadsheet_cell_is_refused_at_its_cell(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    (pack / "decks" / "hoja.csv").write_text(
        'id,name,text,name@en\nuno,"Un\x07o",Nada,One\ndos,Dos,"Na\x00da","T\x1bwo"\n', encoding="utf-8"
    )
    edit(pack / "pack.yaml", "file: decks/cartas.yaml", "file: decks/hoja.csv")
    edit(pack / "pack.yaml", "size: 4", "size: 2")
    text = _refused(pack, "hoja.csv:2:2:", "hoja.csv:3:3:", "hoja.csv:3:4:", "U+0007 (BEL)", "U+0000 (NUL)")
    assert text.count("(text.control)") == 3 and "schema." not in text, text  # the cells read without them


def test_a_nul_in_a_catalogue_entry_is_refused_at_its_msgstr_line(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    po = pack / "locale" / "en.po"
    edit(po, 'msgstr "Forgotten Chest"', 'msgstr "Forgotten\x00 Chest"')
    edit(po, 'msgstr "Cloister Bonfire"', 'msgstr "Cloister\\b Bonfire"')  # polib's own escape for backspace
    _refused(
        pack,
        f"locale/en.po:{line_of(po, 'Forgotten')}:1: error [cofre-olvidado.name]",
        f"locale/en.po:{line_of(po, 'Cloister')}:1: error [fogata-del-claustro.name]",
        "U+0000 (NUL)",
        "U+0008 (backspace)",
    )


@pytest.mark.parametrize("text", ["a\tb", "a\nb", "a\rb", "Ojo del vigía", "a\u2028b\u2029c", "🐉"])
def test_tab_line_breaks_separators_and_any_printable_text_pass(text: str) -> None:
    assert control_problem(text) is None


@pytest.mark.parametrize("text", ["\x00", "a\x07", "\x1b[31m", "\x7f", "\x85", "\ud800", "\uffff"])
def test_every_other_control_character_is_named(text: str) -> None:
    assert "U+" in (control_problem(text) or "")


@pytest.mark.slow  # i18n update twice and a build
def test_line_and_paragraph_separators_round_trip_through_i18n_update(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    project = pack.parents[1]
    name = "Cofre\u2028olvidado\u2029viejo"
    edit(pack / "decks" / "cartas.yaml", "  name: Cofre olvidado", '  name: "Cofre\\Lolvidado\\Pviejo"')
    assert run_cli("i18n", "update", cwd=project).returncode == 0
    path = pack / "locale" / "en.po"
    catalogue = polib.pofile(str(path))  # read from the file: lines end at line ends only
    entry = catalogue.find(name, msgctxt="cofre-olvidado.name")
    assert entry is not None, path.read_text(encoding="utf-8")
    entry.msgstr, entry.flags = "Forgotten\u2028old\u2029chest", []
    catalogue.save()  # as a translator's editor saves it
    again = run_cli("i18n", "update", cwd=project)
    said = again.stdout + again.stderr
    assert again.returncode == 0 and "up to date (8 translated)" in said and "fuzzy" not in said, said
    kept = polib.pofile(str(path)).find(name, msgctxt="cofre-olvidado.name")
    assert kept is not None and kept.msgstr == "Forgotten\u2028old\u2029chest" and "fuzzy" not in kept.flags
    written = path.read_bytes()
    assert run_cli("i18n", "update", cwd=project).returncode == 0
    assert path.read_bytes() == written  # its own catalogue read back as written: nothing lost, nothing rewritten
    built = run_cli("build", "muestras", "--lang", "en", "-j", "1", cwd=project)
    assert built.returncode == 0, built.stdout + built.stderr
    shown = pdf_text(project / "output/muestras/en/loose-cards.pdf")
    assert "Forgotten" in shown and "chest" in shown
