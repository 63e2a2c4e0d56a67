"""Every translation problem is located where the translator fixes it: the `.po` line of a catalogue
entry, the `@lang` cell of a spreadsheet; a spreadsheet translation whose source cell changed is
fuzzy; no message carries a path of this machine."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import polib
import pytest
from conftest import REPO, edit, line_of, run_cli

pytestmark = pytest.mark.slow  # not in the fast tier: builds of sample copies

SHEET = "decks/hechizos.xlsx"


def _cell(pack: Path, component: str, column: str) -> tuple[str, int]:
    """(column letter, row) of a spell's cell in the workbook."""
    ws = openpyxl.load_workbook(pack / SHEET)["Hechizos"]
    header = [c.value for c in ws[1]]
    col = header.index(column) + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == component)
    return openpyxl.utils.get_column_letter(col), row


def _set(pack: Path, component: str, column: str, value: str | None) -> None:
    wb = openpyxl.load_workbook(pack / SHEET)
    ws = wb["Hechizos"]
    letter, row = _cell(pack, component, column)
    ws[f"{letter}{row}"] = value
    wb.save(pack / SHEET)


def test_an_empty_translation_cell_is_reported_at_that_cell(pack_copy) -> None:
    pack = pack_copy("grimorio")
    _set(pack, "llamarada", "text@en", None)
    letter, row = _cell(pack, "llamarada", "text@en")
    res = run_cli("validate", "grimorio", cwd=pack.parents[1])
    assert res.returncode == 1
    (line,) = [ln for ln in res.stderr.splitlines() if "(i18n.missing)" in ln]
    assert line.startswith(f"content/grimorio/{SHEET}[Hechizos]!{letter}{row}:"), line
    assert f"{letter}{row} (text@en) is empty" in line and ".po" not in line
    st = next(
        d
        for d in json.loads(run_cli("i18n", "status", "grimorio", "--json", cwd=pack.parents[1]).stdout)
        if d["lang"] == "en"
    )
    (item,) = st["items"]
    assert item["state"] == "untranslated" and item["file"] == f"content/grimorio/{SHEET}"


def test_a_changed_source_cell_makes_its_translation_fuzzy_until_the_translation_is_reviewed(pack_copy) -> None:
    pack = pack_copy("grimorio")
    project = pack.parents[1]
    assert (pack / f"{SHEET}.sources.yaml").is_file()
    ws = openpyxl.load_workbook(pack / SHEET)["Hechizos"]
    letter, row = _cell(pack, "llamarada", "text")
    _set(pack, "llamarada", "text", str(ws[f"{letter}{row}"].value) + " Y roba una carta.")
    en_letter, _ = _cell(pack, "llamarada", "text@en")  # (its text@fr cell turns fuzzy alike: English only here)
    res = run_cli("validate", "grimorio", "--lang", "en", cwd=project)
    assert res.returncode == 1
    (line,) = [ln for ln in res.stderr.splitlines() if "(i18n.fuzzy)" in ln]
    assert line.startswith(f"content/grimorio/{SHEET}[Hechizos]!{en_letter}{row}:"), line
    assert "earlier source text" in line and f"!{letter}{row}" in line  # and names the source cell
    assert run_cli("i18n", "update", "grimorio", cwd=project).returncode == 0
    assert (
        run_cli("validate", "grimorio", "--lang", "en", cwd=project).returncode == 1
    )  # an update alone does not review it
    translation = str(ws[f"{en_letter}{row}"].value)
    _set(pack, "llamarada", "text@en", translation + " And draw a card.")
    assert run_cli("i18n", "update", "--check", "grimorio", cwd=project).returncode == 1
    assert run_cli("i18n", "update", "grimorio", cwd=project).returncode == 0
    ok = run_cli("validate", "grimorio", "--lang", "en", cwd=project)
    assert ok.returncode == 0, ok.stderr


def _msgstr_line(po: Path, ctx: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgctxt "{ctx}"')
    return next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1


def test_catalogue_problems_point_at_the_po_line_status_too(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    po.find("cofre-olvidado.name", by="msgctxt").msgstr = ""
    po.find("ojo-del-vigia.text", by="msgctxt").flags.append("fuzzy")
    po.remove(po.find("fogata-del-claustro.name", by="msgctxt"))
    po.save()
    res = run_cli("validate", "muestras", cwd=project)
    text = res.stderr
    empty = _msgstr_line(po_path, "cofre-olvidado.name")
    fuzzy = _msgstr_line(po_path, "ojo-del-vigia.text")
    yaml_line = line_of(pack / "decks" / "cartas.yaml", "name: Fogata del claustro")
    assert f"content/muestras/locale/en.po:{empty}:1: error [cofre-olvidado.name] (en)" in text
    assert f"content/muestras/locale/en.po:{fuzzy}:1: error [ojo-del-vigia.text] (en)" in text
    assert "content/muestras/locale/en.po: error [fogata-del-claustro.name] (en)" in text
    assert f"source text at content/muestras/decks/cartas.yaml:{yaml_line}" in text
    st = next(
        d for d in json.loads(run_cli("i18n", "status", "muestras", "--json", cwd=project).stdout) if d["lang"] == "en"
    )
    where = {i["msgctxt"]: (i["file"], i["line"]) for i in st["items"]}
    assert where["cofre-olvidado.name"] == ("content/muestras/locale/en.po", empty)
    assert where["ojo-del-vigia.text"] == ("content/muestras/locale/en.po", fuzzy)
    assert where["fogata-del-claustro.name"][0] == "content/muestras/locale/en.po"


def test_no_message_names_a_path_of_this_machine(pack_copy, tmp_path: Path) -> None:
    pack = pack_copy("muestras")
    po = polib.pofile(str(pack / "locale" / "en.po"), wrapwidth=0)
    po.find("cofre-olvidado.name", by="msgctxt").msgstr = ""
    po.save()
    edit(pack / "decks" / "cartas.yaml", "name: Ojo del vigía", "name: Ojo del vigía " + "muy " * 40)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    absolute = str(pack.resolve())
    runs = [
        ("build", absolute, "--out", str(tmp_path / "o")),
        ("validate", absolute),
        ("i18n", "status", absolute),
        ("i18n", "status", absolute, "--json"),
        ("i18n", "update", "--check", absolute),
        ("i18n", "extract", absolute),
        ("i18n", "update", absolute),
        ("i18n", "pseudo", absolute, "--out", str(tmp_path / "p")),
    ]
    said = 0
    for args in runs:
        res = run_cli(*args, cwd=elsewhere)
        out = res.stdout + res.stderr
        said += len(out.splitlines())
        for root in {str(tmp_path), str(tmp_path.resolve()), str(REPO), str(Path.home())}:
            lines = [ln for ln in out.splitlines() if root in ln and "PDFs in" not in ln and "--out" not in ln]
            assert not lines, (args, lines[:3])
    assert said > 10
