"""One guard per promise (support/filenames.py, safetext.csv_bytes): every registered sink and every
printer profile and layout, fed a pack whose ids, names and translations are the hostile strings of
issue 36 (`con`, `=cmd|' /C calc'!A0`, `..\\..\\x`, `a\\rb`), writes only inside its output folder,
with safe names, and every CSV cell it writes reads back escaped; a pack's own profile that names
its files with `..`, an attribute or an unknown placeholder is refused at its line, nothing written."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import CONTENT, assert_build_fails, calls_of, edit, line_of, run_cli, tree_snapshot

from mazmorra import printers
from mazmorra.printers import LAYOUTS
from mazmorra.render.sinks import table
from mazmorra.render.sinks.sink import Sink
from mazmorra.support.filenames import RESERVED
from mazmorra.support.safetext import FORMULA_STARTS

pytestmark = pytest.mark.slow  # not in the fast tier: the hostile pack built by every sink and printer layout

CMD = "=cmd|' /C calc'!A0"
CLIMB = "..\\..\\x"
CR = "a\rb"
HOSTILE = ("con", CMD, CLIMB, CR)
# Ids the schema allows but Windows reserves (pack, deck, components); the other hostile strings are
# names and translations, and refused as ids (test_ids_the_schema_refuses_are_located).
PACK_ID, DECK_ID = "prn", "aux"
IDS = {"cofre-olvidado": "con", "fogata-del-claustro": "nul.txt", "ojo-del-vigia": "lpt1"}
SOURCE_NAMES = {"con": CMD, "nul.txt": CLIMB, "lpt1": CR, "deck": CLIMB}
ENGLISH_NAMES = {"con": CR, "nul.txt": CMD, "lpt1": "\t@SUM(A1)", "deck": CMD}
NAMES = {"Cofre olvidado": "con", "Fogata del claustro": "nul.txt", "Ojo del vigía": "lpt1", "Cartas sueltas": "deck"}
SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
TOOL_FOLDERS = {".cache", ".deps", ".stamps"}  # the tool's own hidden folders (content-addressed caches inside)

# A profile of the pack's own for each layout no shipped profile has: with the shipped ones, every layout.
OWN_LAYOUTS = {
    "per-card": "drivethrucards",
    "per-face": "drivethrucards",
    "deck-front-first": "drivethrucards",
    "fronts-backs": "drivethrucards",
    "sheet-images": "home-a4",
}


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar, or a PO string, holding text exactly (JSON's escapes are both's)."""
    return json.dumps(text, ensure_ascii=False)


def hostile_pack(pack: Path) -> None:
    """A copy of muestras made hostile: Windows-reserved ids, names and translations that are
    formulas, a climb out of the folder and a carriage return."""
    deck, po, spec = pack / "decks" / "cartas.yaml", pack / "locale" / "en.po", pack / "pack.yaml"
    edit(spec, "id: muestras", f"id: {PACK_ID}")
    edit(spec, "  - id: cartas", f"  - id: {DECK_ID}")
    edit(spec, "    file_names: {en: loose-cards}\n", "")  # the hostile id names the deck's files in English too
    edit(spec, "name: Cartas sueltas", f"name: {_quoted(SOURCE_NAMES['deck'])}")
    edit(po, 'msgctxt "deck:cartas.name"', f'msgctxt "deck:{DECK_ID}.name"')
    for old, new in IDS.items():
        edit(deck, f"- id: {old}", f"- id: {new}")
        edit(po, f'msgctxt "{old}.', f'msgctxt "{new}.', count=2)
    for name, key in NAMES.items():
        if key != "deck":
            edit(deck, f"name: {name}", f"name: {_quoted(SOURCE_NAMES[key])}")
        entry = f"msgid {_quoted(SOURCE_NAMES[key])}\nmsgstr {_quoted(ENGLISH_NAMES[key])}\n"
        text, n = re.subn(f'msgid "{name}"\nmsgstr ".*"\n', lambda _, e=entry: e, po.read_text(encoding="utf-8"))
        assert n == 1, name
        po.write_text(text, encoding="utf-8")
    (pack / "printers").mkdir()
    for layout, base in OWN_LAYOUTS.items():
        (pack / "printers" / f"every-{layout}.yaml").write_text(
            f"name: Every {layout} file\nextends: {base}\nfiles:\n  layout: {layout}\n", encoding="utf-8"
        )


def _builds(pack: Path) -> dict[str, tuple[str, ...]]:
    """Every sink's own option in one build, and one build per printer profile the pack can name."""
    asking = [o for decl in table.sinks() for o in decl.options[:1] if o.asks]  # each sink's own switch
    own = tuple(o.flags.split("/")[0] for o in asking)
    return {"sinks": own, **{f"printer-{name}": ("--printer", name) for name in printers.names(pack)}}


def _declared(cls: type) -> str:
    decl = table.declaration_of(cls)
    assert decl is not None, cls
    return decl.name


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The hostile pack built every way (each into its own output folder), both languages: the
    project folder, each build's output folder, the sinks that ran and the project's other files
    before and after."""
    project = tmp_path_factory.mktemp("hostile")
    pack = project / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    hostile_pack(pack)
    before = tree_snapshot(project)
    outs, ran = {}, {}
    with pytest.MonkeyPatch.context() as mp:
        for what, options in _builds(pack).items():
            seen = calls_of(mp, Sink, "end", lambda sink, doc: _declared(type(sink)))
            out = project / "out" / what
            res = run_cli("build", "muestras", "-j", "1", *options, "--out", str(out), cwd=project)
            assert res.returncode == 0, f"{what}: {res.stdout}{res.stderr}"
            outs[what], ran[what] = out, set(seen)
            mp.undo()
    after = {k: v for k, v in tree_snapshot(project).items() if not k.startswith("out/")}
    return {"project": project, "outs": outs, "ran": ran, "before": before, "after": after}


def test_every_sink_and_every_printer_layout_is_fed_the_hostile_pack(hostile: dict) -> None:
    assert set().union(*hostile["ran"].values()) == {decl.name for decl in table.sinks()}
    pack = hostile["project"] / "content" / "muestras"
    profiles = [what.removeprefix("printer-") for what in hostile["outs"] if what.startswith("printer-")]
    assert set(printers.names()) <= set(profiles)  # every shipped profile
    assert {printers.load(name, pack).layout for name in profiles} == set(LAYOUTS)


def test_nothing_is_written_outside_the_output_folder(hostile: dict) -> None:
    assert hostile["after"] == hostile["before"]  # the project's files as they were, none added beside


def _written(out: Path) -> list[Path]:
    return [p.relative_to(out) for p in sorted(out.rglob("*")) if p.is_file()]


@pytest.mark.parametrize(
    "what", ["sinks", *(f"printer-{n}" for n in printers.names()), *(f"printer-every-{n}" for n in OWN_LAYOUTS)]
)
def test_every_name_written_is_safe_and_not_reserved(hostile: dict, what: str) -> None:
    out: Path = hostile["outs"][what]
    files = _written(out)
    shown = [f for f in files if f.parts[0] not in TOOL_FOLDERS]
    assert len(shown) >= 2, files  # each language wrote its files: a test that cannot fail would pass empty
    for rel in files:
        names = rel.parts[1:] if rel.parts[0] in TOOL_FOLDERS else rel.parts
        if rel.parts[0] == ".cache":
            continue  # content-addressed by hashes: no name of the pack's
        for name in names:
            assert SAFE.fullmatch(name), rel
            assert name.split(".")[0].lower() not in RESERVED, rel
            assert not name.endswith("."), rel
        assert (out / rel).resolve().is_relative_to(out.resolve())
    assert f"_{PACK_ID}" in {f.parts[0] for f in shown}  # the reserved pack id renamed, not dropped


def _csv_rows(out: Path) -> dict[Path, list[list[str]]]:
    return {p: list(csv.reader(p.open(encoding="utf-8-sig", newline=""))) for p in sorted(out.rglob("*.csv"))}


def test_every_csv_cell_reads_back_escaped_one_row_per_component(hostile: dict) -> None:
    tables = {p: rows for out in hostile["outs"].values() for p, rows in _csv_rows(out).items()}
    assert len(tables) >= 4  # --png, --card-pdfs and the printers' PDF and image layouts, both languages
    for path, rows in tables.items():
        assert len(rows) == 1 + len(IDS), (path, rows)  # a header, then one row a component: no CR split one
        assert {len(r) for r in rows} == {len(rows[0])}, path
        for cell in (c for r in rows for c in r):
            assert not cell.startswith(FORMULA_STARTS), (path, cell)
        names = {r[rows[0].index("component")]: r[rows[0].index("name")] for r in rows[1:]}
        lang = "en" if "/en/" in path.as_posix() else "es"
        expected = SOURCE_NAMES if lang == "es" else ENGLISH_NAMES
        assert names == {i: ("'" if expected[i].startswith(FORMULA_STARTS) else "") + expected[i] for i in IDS.values()}


def test_the_reserved_ids_get_their_underscore_in_every_sink(hostile: dict) -> None:
    out = hostile["outs"]["sinks"] / f"_{PACK_ID}"
    assert (out / "es" / f"_{DECK_ID}.pdf").is_file()
    assert (out / "en" / "png" / f"_{DECK_ID}" / "con-front.png").is_file()  # `con-front` is no reserved name
    assert {p.name for p in (out / "es" / "cards" / f"_{DECK_ID}").iterdir()} == {
        "_con.pdf",
        "_nul.txt.pdf",
        "_lpt1.pdf",
    }
    assert (out / "es" / "tts" / f"_{DECK_ID}.json").is_file()
    assert (out / "es" / "cut" / f"_{DECK_ID}" / f"_{DECK_ID}.pdf").is_file()
    assert (out.parent / ".deps" / f"_{PACK_ID}" / "es" / f"_{DECK_ID}.d").is_file()


@pytest.mark.parametrize("text", [CMD, CLIMB, CR])
def test_ids_the_schema_refuses_are_located(pack_copy, text: str) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "- id: fogata-del-claustro", f"- id: {_quoted(text)}")
    assert_build_fails(pack, f"cartas.yaml:{line_of(deck, _quoted(text))}", "id")


@pytest.mark.parametrize(
    "name, needle",
    [
        ("../../../../x.pdf", "'..' climbs out"),
        ("{deck.__class__}.pdf", "unknown placeholder '{deck.__class__}'"),
        ("{name}-{n}.pdf", "unknown placeholder '{name}'"),
        ("{deck}\\\\..\\\\{n}.pdf", "the character '\\\\'"),
        ("/tmp/{deck}-{n}.pdf", "starts with '/'"),
    ],
)
def test_a_pack_profile_naming_files_outside_or_with_python_is_refused_at_its_line(  # type: ignore[no-untyped-def]
    pack_copy, name: str, needle: str
) -> None:
    pack = pack_copy("muestras")
    (pack / "printers").mkdir()
    profile = pack / "printers" / "evil.yaml"
    profile.write_text(
        f'name: Evil\nextends: drivethrucards\nfiles:\n  layout: per-card\n  name: "{name}"\n', encoding="utf-8"
    )
    project = pack.parents[1]
    (project / "x.pdf").write_bytes(b"mine")
    before = tree_snapshot(project)
    res = run_cli("build", "muestras", "--printer", "evil", cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text
    assert "evil.yaml:5" in text and "files.name" in text and needle in text, text
    assert tree_snapshot(project) == before  # nothing written, the file a climb would reach untouched


def test_two_decks_meeting_in_one_folder_are_an_error_at_the_deck(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    spec = pack / "pack.yaml"
    edit(spec, "format: 2", "  - id: cartas.\n    kind: card\n    name: Otras\n    file: decks/otras.yaml\nformat: 2")
    (pack / "decks" / "otras.yaml").write_text("- id: otra\n  name: Otra\n  text: Nada.\n", encoding="utf-8")
    project = pack.parents[1]
    res = run_cli("build", "muestras", "--no-pdf", "--png", "--lang", "es", "--draft", cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert f"pack.yaml:{line_of(spec, '- id: cartas.')}" in text and "output.name-clash" in text, text
    assert not (project / "output" / "muestras" / "es" / "png").exists()
