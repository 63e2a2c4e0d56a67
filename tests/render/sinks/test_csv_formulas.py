"""Every CSV the tool writes (`cards.csv` of --png and of image printer profiles, `<deck>-cards.csv`
of --card-pdfs and of PDF printer profiles), given OWASP's CSV-injection strings as component names
and as their translations, reads back through Python's csv module one row a component, every row as
wide as the header, no cell a formula; and, where LibreOffice is installed, through its CSV import."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, need_tool, run_cli

from mazmorra.support.safetext import FORMULA_STARTS

pytestmark = pytest.mark.slow  # not in the fast tier: four builds of a pack in two languages

# OWASP's CSV injection test strings: a formula, a sign, an at, a tab, a bare carriage return, DDE.
OWASP = ("=1+1", "+1", "-1", "@SUM(1)", "\tx", "a\rb", "=cmd|' /C calc'!A0")
IDS = tuple(f"carta-{i}" for i in range(1, len(OWASP) + 1))
# (the build's own options, the CSV files it writes under output/muestras/<lang>/)
BUILDS = {
    "png": (("--no-pdf", "--png"), "png/{deck}/cards.csv"),
    "card-pdfs": (("--no-pdf", "--card-pdfs"), "cards/{deck}-cards.csv"),
    "drivethrucards": (("--printer", "drivethrucards"), "drivethrucards/{deck}-cards.csv"),
    "thegamecrafter": (("--printer", "thegamecrafter"), "thegamecrafter/{deck}/cards.csv"),
}
DECK = {"es": "cartas", "en": "loose-cards"}  # the deck's file name in each language


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar, or a PO string, holding text exactly (JSON's escapes are both's)."""
    return json.dumps(text, ensure_ascii=False)


def _entry(context: str, source: str, english: str) -> str:
    return f"msgctxt {_quoted(context)}\nmsgid {_quoted(source)}\nmsgstr {_quoted(english)}\n\n"


def owasp_pack(pack: Path) -> dict[str, dict[str, str]]:
    """muestras with seven components named by the OWASP strings, each translated as the next one;
    each language's names by component id (a source name loses its outer blanks when read, as every
    YAML text does: `\tx` is `x`; a translation keeps them)."""
    english = {i: OWASP[(n + 1) % len(OWASP)] for n, i in enumerate(IDS)}
    deck = "".join(f"- id: {i}\n  name: {_quoted(name)}\n  text: Nada.\n\n" for i, name in zip(IDS, OWASP))
    (pack / "decks" / "cartas.yaml").write_text(deck, encoding="utf-8")
    spec = pack / "pack.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("size: 4", f"size: {len(IDS)}"), encoding="utf-8")
    po = pack / "locale" / "en.po"
    header = po.read_text(encoding="utf-8").split("\n\n")[0] + "\n\n"
    entries = [_entry("pack.name", "Muestras", "Samples"), _entry("deck:cartas.name", "Cartas sueltas", "=2+2")]
    for i, name in zip(IDS, OWASP):
        entries += [_entry(f"{i}.name", name.strip(), english[i]), _entry(f"{i}.text", "Nada.", "Nothing.")]
    po.write_text(header + "".join(entries), encoding="utf-8")
    return {"es": {i: name.strip() for i, name in zip(IDS, OWASP)}, "en": english}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The pack built each way (each into its own output folder): every CSV written, and the names."""
    project = tmp_path_factory.mktemp("owasp")
    pack = project / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    names = owasp_pack(pack)
    files: dict[Path, str] = {}
    for what, (options, rel) in BUILDS.items():
        out = project / "out" / what
        res = run_cli("build", "muestras", "-j", "1", "--draft", *options, "--out", str(out), cwd=project)
        assert res.returncode == 0, f"{what}: {res.stdout}{res.stderr}"
        assert "Traceback" not in res.stdout + res.stderr
        every = sorted(out.rglob("*.csv"))
        assert every == sorted(out / "muestras" / lang / rel.format(deck=DECK[lang]) for lang in names), (what, every)
        files |= {p: next(lang for lang in names if f"/{lang}/" in p.as_posix()) for p in every}
    return {"files": files, "names": names}


def test_every_csv_reads_back_one_row_a_component_as_wide_as_its_header(written: dict) -> None:
    assert len(written["files"]) == 2 * len(BUILDS)
    for path in written["files"]:
        assert path.read_bytes().startswith(b"\xef\xbb\xbf"), path  # UTF-8 with Excel's byte order mark
        rows = list(csv.reader(path.open(encoding="utf-8-sig", newline="")))
        assert len(rows) == 1 + len(IDS), (path, rows)  # no bare CR started a row of its own
        assert {len(r) for r in rows} == {len(rows[0])}, (path, rows)
        assert "component" in rows[0] and "name" in rows[0], (path, rows[0])


def test_no_cell_starts_as_a_formula_and_every_name_reads_as_typed(written: dict) -> None:
    for path, lang in written["files"].items():
        rows = list(csv.reader(path.open(encoding="utf-8-sig", newline="")))
        for cell in (c for r in rows for c in r):
            assert not cell.startswith(FORMULA_STARTS), (path, cell)
        names = {r[rows[0].index("component")]: r[rows[0].index("name")] for r in rows[1:]}
        escaped = {i: ("'" if n.startswith(FORMULA_STARTS) else "") + n for i, n in written["names"][lang].items()}
        assert names == escaped, path


@pytest.mark.slow  # LibreOffice starts once per file
def test_libreoffice_evaluates_no_formula(written: dict, tmp_path: Path) -> None:
    need_tool("soffice")  # (CI installs libreoffice-calc-nogui)
    for n, (path, lang) in enumerate(written["files"].items()):
        out = tmp_path / str(n)
        # Import as UTF-8 comma-separated with formulas evaluated (token 6 "true": cells as formulas
        # where they are ones), export the values it shows as CSV again.
        options = "44,34,76,1,,0,false,true,false,false,false"
        subprocess.run(
            ["soffice", "--headless", f"--infilter=CSV:{options}", "--convert-to", "csv", "--outdir", str(out), path],
            check=True,
            capture_output=True,
            timeout=120,
        )
        shown = list(csv.reader((out / path.name).open(encoding="utf-8-sig", newline="")))
        column = shown[0].index("name")
        names = {r[shown[0].index("component")]: r[column] for r in shown[1:]}
        for i, name in written["names"][lang].items():  # `=1+1` run would show `2`, `+1` would show `1`
            assert name.replace("\r", "") in names[i].replace("\r", "").replace("\n", ""), (path, i, names[i])
