"""The input limits: one table (mazmorra.support.limits), the docs generated from it and agreeing with it,
every limit enforced before the work it guards, and measured by bench/limits.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from conftest import REPO, run_cli, write_pack

from mazmorra.support import limits


def test_docs_limits_is_generated_from_the_table() -> None:
    """`make limits-doc` has been run since the table last changed."""
    assert (REPO / "docs" / "limits.md").read_text(encoding="utf-8") == limits.markdown()


@pytest.mark.parametrize(
    ("doc", "keys"),
    [
        ("docs/templates.md", ("grid_rows", "grid_cols")),
        ("docs/kinds/dice_table.md", ("die_faces", "dice", "dice_modifier", "dice_span")),
        ("docs/spreadsheets.md", ("sheet_rows", "sheet_cols", "sheet_bytes", "sheet_unzipped")),
    ],
)
def test_other_docs_say_the_same_numbers(doc: str, keys: tuple[str, ...]) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    by_key = {lim.key: lim for lim in limits.LIMITS}
    for key in keys:
        lim = by_key[key]
        number = lim.shown.split(" ")[-2] if lim.unit else lim.shown.strip()
        assert number in text, f"{doc} does not say {lim.shown} ({key})"
    assert "limits.md" in text


def test_every_limit_has_a_bench_case() -> None:
    spec = importlib.util.spec_from_file_location("bench_limits", REPO / "bench" / "limits.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    covered = {key for keys, _ in bench.CASES.values() for key in keys}
    assert covered == {lim.key for lim in limits.LIMITS}


def test_the_table_is_the_one_the_code_reads() -> None:
    """The modules that enforce a limit read it from the table, not a copy of their own."""
    from mazmorra.assets import images
    from mazmorra.kinds.dicedungeon import MAX_PRINT_MM, dice
    from mazmorra.load import spreadsheet
    from mazmorra.source import yamlsafe

    assert (yamlsafe.MAX_BYTES, yamlsafe.MAX_DEPTH, yamlsafe.MAX_NODES) == (
        limits.YAML_BYTES,
        limits.YAML_DEPTH,
        limits.YAML_NODES,
    )
    assert (spreadsheet.MAX_ROWS, spreadsheet.MAX_COLS, spreadsheet.MAX_BYTES, spreadsheet.MAX_UNZIPPED) == (
        limits.SHEET_ROWS,
        limits.SHEET_COLS,
        limits.SHEET_BYTES,
        limits.SHEET_UNZIPPED,
    )
    assert (dice.MAX_DICE, dice.MAX_FACES, dice.MAX_MODIFIER, dice.MAX_SPAN) == (
        limits.DICE,
        limits.DIE_FACES,
        limits.DICE_MODIFIER,
        limits.DICE_SPAN,
    )
    assert (images.MAX_PIXELS, images.MAX_BYTES, MAX_PRINT_MM) == (
        limits.IMAGE_PIXELS,
        limits.IMAGE_BYTES,
        limits.COMPONENT_MM,
    )


GRID_KIND = """name: sala
size: 63x88mm
template: card.xml.j2
fields:
  name: {type: text, required: true}
  map:
    type: grid
    cells:
      floor: {symbol: "."}
"""


def _grid_pack(tmp_path: Path, rows: int, cols: int) -> Path:
    body = "".join(f'    - "{" ".join("." * 1 for _ in range(cols))}"\n' for _ in range(rows))
    return write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es]\n"
            "decks:\n  - {id: salas, kind: sala, name: Salas, file: decks/salas.yaml}\n",
            "kinds/sala.yaml": GRID_KIND,
            "decks/salas.yaml": f"- id: s0\n  name: Sala\n  map:\n{body}",
        },
    )


@pytest.mark.parametrize(("rows", "cols", "words"), [(201, 3, "at most 200 rows"), (2, 201, "at most 200 columns")])
def test_a_grid_over_the_limit_is_refused_at_its_field(tmp_path: Path, rows: int, cols: int, words: str) -> None:
    _grid_pack(tmp_path, rows, cols)
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1
    assert "content/p/decks/salas.yaml:4:5: error [s0.map]: a grid has " + words in res.stderr, res.stderr
    assert "Traceback" not in res.stderr


@pytest.mark.slow
def test_a_deck_over_the_limit_is_refused_before_its_components(tmp_path: Path) -> None:
    n = limits.DECK_COMPONENTS + 1
    write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es]\n"
            "decks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
            "decks/cartas.yaml": "".join(f"- {{id: c{i}}}\n" for i in range(n)),  # each invalid: never checked
        },
    )
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1
    line = next(x for x in res.stderr.splitlines() if "deck.too-many" in x)
    assert line.startswith(f"content/p/decks/cartas.yaml:{n}:"), line
    assert "10,001 components; a deck holds at most 10,000" in line
    assert "schema." not in res.stderr  # refused whole: no component was validated


def test_a_template_including_itself_is_found_before_rendering(tmp_path: Path) -> None:
    """Through two templates; found by reading what each includes, at the first include that goes round."""
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es]\n"
            "decks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
            "decks/cartas.yaml": '- id: una\n  name: Una\n  text: "Texto."\n',
            "templates/card.xml.j2": "<card>\n{% include 'marco.j2' %}\n</card>\n",
            "templates/marco.j2": "\n\n{% include 'card.xml.j2' %}\n",
        },
    )
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1
    assert (
        "content/p/templates/card.xml.j2:2:1: error: template card.xml.j2 includes itself "
        "(card.xml.j2 → marco.j2 → card.xml.j2): an endless recursion (template.render)"
    ) in res.stderr, res.stderr
    assert pack.is_dir()


def test_includes_deeper_than_the_limit_are_refused(tmp_path: Path) -> None:
    depth = limits.INCLUDE_DEPTH + 1  # includes nested: card.xml.j2 → n1.j2 → … → n11.j2
    files = {
        "pack.yaml": "id: p\nname: P\nlanguages: [es]\n"
        "decks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
        "decks/cartas.yaml": '- id: una\n  name: Una\n  text: "Texto."\n',
        "templates/card.xml.j2": "{% include 'n1.j2' %}<card/>\n",
    }
    for i in range(1, depth + 1):
        files[f"templates/n{i}.j2"] = f"{{% include 'n{i + 1}.j2' %}}\n" if i < depth else "\n"
    write_pack(tmp_path, files)
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1
    assert f"templates include templates more than {limits.INCLUDE_DEPTH} deep" in res.stderr, res.stderr
    files[f"templates/n{limits.INCLUDE_DEPTH}.j2"] = "\n"  # exactly the limit: accepted
    write_pack(tmp_path, files)
    res = run_cli("validate", "p", cwd=tmp_path)
    assert "template.render" not in res.stderr, res.stderr


def test_a_font_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es]\n"
            "decks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
            "decks/cartas.yaml": '- id: una\n  name: Una\n  text: "Texto."\n',
        },
    )
    (pack / "fonts").mkdir()
    with (pack / "fonts" / "Grande.ttf").open("wb") as fh:
        fh.truncate(limits.FONT_BYTES + 1)  # sparse: no disk used
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1
    assert (
        "content/p/fonts/Grande.ttf: error [fonts]: cannot use font file 'Grande.ttf': the file is 32 MiB; "
        "a font file is at most 32 MiB (font.unreadable)"
    ) in res.stderr, res.stderr


def _catalogue_pack(tmp_path: Path) -> Path:
    return write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es, en]\n"
            "decks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
            "decks/cartas.yaml": '- id: una\n  name: Una\n  text: "Texto."\n',
        },
    )


def test_a_catalogue_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    pack = _catalogue_pack(tmp_path)
    (pack / "locale").mkdir(exist_ok=True)
    with (pack / "locale" / "en.po").open("wb") as fh:
        fh.truncate(limits.CATALOGUE_BYTES + 1)  # sparse, and NUL bytes: read, it would be refused otherwise
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    assert (
        "content/p/locale/en.po: error: the catalogue is 16,777,217 bytes; a catalogue is at most 16 MiB (i18n.size)"
    ) in res.stderr, res.stderr
    assert "Traceback" not in res.stderr


def test_a_catalogue_over_the_entry_limit_is_refused_at_the_first_entry_past_it(tmp_path: Path) -> None:
    pack = _catalogue_pack(tmp_path)
    (pack / "locale").mkdir(exist_ok=True)
    head = 'msgid ""\nmsgstr ""\n"Language: en\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    entries = "".join(f'msgctxt "x{i}.name"\nmsgid "x{i}"\nmsgstr "y{i}"\n\n' for i in range(limits.CATALOGUE_ENTRIES))
    (pack / "locale" / "en.po").write_text(head + entries, encoding="utf-8")  # the header is an entry: one over
    res = run_cli("validate", "p", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    line = 6 + 4 * (limits.CATALOGUE_ENTRIES - 1) + 1  # the msgid of the last entry
    assert (
        f"content/p/locale/en.po:{line}:1: error: more than 100,000 entries; a catalogue holds at most 100,000 (i18n.size)"
    ) in res.stderr, res.stderr
