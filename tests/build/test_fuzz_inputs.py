"""Property tests (hypothesis) of every input surface: deck YAML, spreadsheets (CSV, XLSX), catalogues, templates,
SVG icons, fonts, kind files and dice tables. Whatever a file holds, `mazmorra validate` ends in a
build or in located problems (file:line or cell, rule id), never a traceback. Derandomised, with a
small bounded number of examples per surface so the suite stays fast; no time limit is asserted."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CONTENT, FIXTURES, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # not in the fast tier: property tests: hundreds of validations and builds

# Per surface; each example is a whole validation. MAZMORRA_FUZZ_EXAMPLES=200 digs deeper by hand.
EXAMPLES = int(os.environ.get("MAZMORRA_FUZZ_EXAMPLES", "6"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# A problem line: where (a path, maybe :line:col or [sheet]!cell), severity, message, (rule.id)
PROBLEM = re.compile(
    r"^((mazmorra:)?\S[^:]*?(:\d+(:\d+)?)?|\S+\[[^\]]*\]![A-Z]+\d+): (error|warning|note)\b.*\(([a-z0-9_]+\.[a-z0-9_.-]+)\)$"
)


def _edits(alphabet: str) -> st.SearchStrategy[list[tuple[float, int, str]]]:
    """Up to four edits of a file: where (a fraction of its length), how many characters to delete,
    what to insert there."""
    return st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 12), st.text(st.sampled_from(list(alphabet)), max_size=10)),
        min_size=1,
        max_size=4,
    )


def _apply(text: str, edits: list[tuple[float, int, str]]) -> str:
    for where, cut, insert in edits:
        i = int(where * len(text))
        text = text[:i] + insert + text[i + cut :]
    return text


def _judge(project: Path, pack: str = "fixture") -> None:
    """The property: exit 0, or exit 1 with every error line located and with its rule id."""
    res = run_cli("validate", pack, cwd=project)
    text = res.stdout + res.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    assert res.returncode in (0, 1), text
    if res.returncode == 1:
        errors = [line for line in res.stderr.splitlines() if ": error" in line]
        assert errors, text
        for line in errors:
            assert PROBLEM.match(line), f"not located or without a rule id: {line!r}"


def _base(factory, name: str = "_base") -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    project = factory.mktemp("fuzz")
    pack = project / "content" / "fixture"
    shutil.copytree(FIXTURES / name if name == "_base" else CONTENT / name, pack)
    return project, pack


def _surface(
    factory,
    file: str,
    edits: list[tuple[float, int, str]],
    source: Callable[[Path], str] | None = None,
    sample: str = "_base",
) -> None:  # type: ignore[no-untyped-def]
    project, pack = _base(factory, sample)
    target = pack / file
    original = source(pack) if source else target.read_text(encoding="utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(_apply(original, edits), encoding="utf-8")
    _judge(project)


YAML = "ab:-[]{}&*!|>'\"#\n  ,?%@`\t0123456789.~é"


@FUZZ
@given(edits=_edits(YAML))
def test_deck_yaml(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    _surface(tmp_path_factory, "decks/cartas.yaml", edits)


@FUZZ
@given(edits=_edits(YAML))
def test_pack_yaml(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    _surface(tmp_path_factory, "pack.yaml", edits)


CSV_START = 'id,name,text\nuna,Una carta,"Texto de prueba con {coin}."\ndos,Dos,"Otra, con coma"\n'


@FUZZ
@given(edits=_edits(',;"\n\r\tab=+-@é\x00\ufeff'))
def test_spreadsheet_csv(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    project, pack = _base(tmp_path_factory)
    (pack / "decks" / "cartas.yaml").unlink()
    (pack / "decks" / "cartas.csv").write_text(_apply(CSV_START, edits), encoding="utf-8")
    p = pack / "pack.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("decks/cartas.yaml", "decks/cartas.csv"), encoding="utf-8")
    _judge(project)


@FUZZ
@given(edits=_edits('msgidctxr "\\\n#,:|~fuzzy0123{}'))
def test_catalogue(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    _surface(tmp_path_factory, "locale/en.po", edits)


@FUZZ
@given(edits=_edits('<>/="{}%# \nxyzwhtextcardg0123.-'))
def test_template(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    shared = CONTENT.parent / "cli" / "mazmorra" / "templates" / "card.xml.j2"
    _surface(tmp_path_factory, "templates/card.xml.j2", edits, lambda _: shared.read_text(encoding="utf-8"))


SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="9" '
    'fill="#c90"/><path d="M6 12h12"/></svg>\n'
)


@FUZZ
@given(edits=_edits('<>/="#0123456789 .-MLhvzcircle!&;?xml'))
def test_svg_icon(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    _surface(tmp_path_factory, "icons/coin.svg", edits, lambda _: SVG)


@FUZZ
@given(data=st.binary(max_size=400), keep=st.integers(0, 2000))
def test_font(tmp_path_factory, data: bytes, keep: int) -> None:
    project, pack = _base(tmp_path_factory)
    real = (CONTENT.parent / "cli" / "mazmorra" / "fonts" / "DejaVuSansCondensed.ttf").read_bytes()
    (pack / "fonts").mkdir()
    (pack / "fonts" / "Rara.ttf").write_bytes(real[: keep * 50] + data)  # cut short, with garbage after
    _judge(project)


KIND = """name: nota
size: 63x88mm
template: card.xml.j2
fields:
  name: {type: text, required: true}
  text: {type: text, max: 200}
  colour: {type: colour}
  mood: {type: enum, values: [calma, furia]}
  map: {type: grid, cells: {floor: {symbol: "."}, wall: {symbol: "x"}}, marks: {spawn: {numbers: [1, 4]}}}
"""


@FUZZ
@given(edits=_edits(YAML + "enumgridtextvalues"))
def test_kind_file(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    project, pack = _base(tmp_path_factory)
    (pack / "kinds").mkdir()
    (pack / "kinds" / "nota.yaml").write_text(_apply(KIND, edits), encoding="utf-8")
    (pack / "decks" / "notas.yaml").write_text(
        '- {id: n1, name: Nota, text: "Hola.", colour: "#aa3300", mood: calma, map: [". x", "x .1"]}\n',
        encoding="utf-8",
    )
    p = pack / "pack.yaml"
    p.write_text(
        p.read_text(encoding="utf-8") + "  - {id: notas, kind: nota, name: Notas, file: decks/notas.yaml}\n",
        encoding="utf-8",
    )
    _judge(project)


roll = st.one_of(
    st.integers(-3, 40).map(str),
    st.tuples(st.integers(-3, 40), st.integers(-3, 40)).map(lambda t: f"{t[0]}-{t[1]}"),
    st.text(st.sampled_from(list("0123456789-–d+ x")), max_size=6),
)
die = st.one_of(
    st.sampled_from(["1d12", "2d6", "1d6+1", "3d6-1d4", "1d0", "d", "20d1000", "1d12+1d4-2"]),
    st.text(st.sampled_from(list("0123456789dD+- ")), max_size=10),
)


@FUZZ
@given(
    die=die,
    rows=st.lists(st.tuples(roll, st.sampled_from([None, "t0", "t1", "nada"])), min_size=1, max_size=6),
    second=die,
)
def test_dice_tables(tmp_path_factory, die: str, rows: list[tuple[str, str | None]], second: str) -> None:
    import yaml

    project = tmp_path_factory.mktemp("fuzz")
    pack = project / "content" / "fixture"
    (pack / "decks").mkdir(parents=True)
    tables = [
        {
            "id": "t0",
            "name": "Uno",
            "die": die,
            "rows": [{"roll": r, "result": f"R{i}", **({"then": t} if t else {})} for i, (r, t) in enumerate(rows)],
        },
        {"id": "t1", "name": "Dos", "die": second, "rows": [{"roll": "1-6", "result": "Vuelve", "then": "t0"}]},
    ]
    (pack / "decks" / "tablas.yaml").write_text(yaml.safe_dump(tables, allow_unicode=True), encoding="utf-8")
    (pack / "pack.yaml").write_text(
        "format: 2\nid: fixture\nname: Dados\nlanguages: [es]\n"
        "decks:\n  - {id: tablas, kind: dice_table, name: Tablas, file: decks/tablas.yaml}\n",
        encoding="utf-8",
    )
    _judge(project)


cell = st.one_of(
    st.none(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=False),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30),
    st.sampled_from(["=1/0", '=CONCATENATE("a","b")', "=A1", "una", "id", "name@en", "text@fr", "{coin}"]),
)


@FUZZ
@given(
    header=st.lists(st.sampled_from(["id", "name", "text", "name@en", "text@en", "nada", "", "id"]), max_size=6),
    rows=st.lists(st.lists(cell, max_size=7), max_size=5),
    merge=st.booleans(),
)
def test_spreadsheet_workbook(tmp_path_factory, header: list[str], rows: list[list[object]], merge: bool) -> None:
    import openpyxl

    project, pack = _base(tmp_path_factory)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Cartas"
    ws.append(header)
    for row in rows:
        ws.append(row)
    if merge and rows:
        ws.merge_cells("A2:B2")
    (pack / "decks" / "cartas.yaml").unlink()
    wb.save(pack / "decks" / "cartas.xlsx")
    p = pack / "pack.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("decks/cartas.yaml", "decks/cartas.xlsx"), encoding="utf-8")
    _judge(project)
