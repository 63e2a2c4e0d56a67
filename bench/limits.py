"""Benchmark: every input limit (cli/mazmorra/support/limits.py) at its largest allowed input, and just over
it, validated through the real command line in a fresh process each: time, peak memory and the
outcome, beside the base pack's validation measured in the same run.

    python bench/limits.py [--case grid] [--no-over] [--build]

Targets: the largest grid (limits.GRID_ROWS × limits.GRID_COLS cells, every cell drawn) validates in
< 10 s and < 500 MB; an input over a limit is refused before the work it guards (its time close to
the base pack's). The table lists every limit of limits.LIMITS; a limit without a case here fails
the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mazmorra.support import limits

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BASE = REPO / "tests" / "fixtures" / "_base"


Case = Callable[[Path, bool], None]  # writes the pack at project/content/fixture, the over-limit one if True


def _base(project: Path) -> Path:
    pack = project / "content" / "fixture"
    shutil.copytree(BASE, pack)
    return pack


def _deck(pack: Path, text: str) -> None:
    (pack / "decks" / "cartas.yaml").write_text(text, encoding="utf-8")


def grid(project: Path, over: bool) -> None:
    """A kind with a legend and one component whose map is the largest grid, every cell drawn (1 mm
    cells on a 210 mm face), marks on a tenth of them, edges and spans."""
    pack = _base(project)
    n, cols = limits.GRID_ROWS + (1 if over else 0), limits.GRID_COLS
    (pack / "kinds").mkdir()
    (pack / "kinds" / "sala.yaml").write_text(
        "name: sala\nsize: 210x210mm\ntemplate: sala.xml.j2\nfields:\n  name: {type: text, required: true}\n"
        "  map:\n    type: grid\n    required: true\n"
        '    cells:\n      floor: {symbol: "."}\n      water: {symbol: "~"}\n      blocked: {symbol: "x"}\n'
        '    marks:\n      poi: {symbol: "*", on: [floor, water]}\n'
        "    edges:\n      door: {border: true, min: 1}\n      wall: {}\n",
        encoding="utf-8",
    )
    (pack / "templates").mkdir()
    (pack / "templates" / "sala.xml.j2").write_text(
        '{% from "grid-data.xml.j2" import grid_data %}\n<card>\n'
        f'<grid x="5" y="5" rows="{{{{ card.map.rows }}}}" cols="{{{{ card.map.cols }}}}" cell="{200 / cols:.3f}">\n'
        '  <cell-type name="floor" fill="#d3c8b2"/>\n  <cell-type name="water" fill="#4f86b3"/>\n'
        '  <cell-type name="blocked" fill="#111111"/>\n  <cell-type name="poi" fill="#2e7d32"/>\n'
        '  <edge-type name="door" fill="#ffffff" stroke="#111111"/>\n'
        '  <edge-type name="wall" fill="#ffffff" stroke="#111111"/>\n'
        "  {{ grid_data(card.map) }}\n</grid>\n</card>\n",
        encoding="utf-8",
    )
    rnd = random.Random(1)
    rows = []
    for _ in range(n):
        cells = []
        for _ in range(cols):
            s = rnd.choice(".~x.")
            cells.append(s + "*" if s != "x" and rnd.random() < 0.1 else s)
        rows.append(" ".join(cells))
    doors = [f'"0,{c} n"' for c in range(cols) if rows[0].split()[c][0] != "x"][:50]
    walls = [f'"{r},{c} e"' for r in range(0, n, 3) for c in range(0, cols - 1, 5)]
    spans = [f'"{r},{c} 1x1"' for r in range(0, n, 10) for c in range(0, cols, 10)]
    (pack / "decks" / "salas.yaml").write_text(
        "- id: s0\n  name: Sala\n  map:\n    cells:\n"
        + "".join(f'      - "{r}"\n' for r in rows)
        + f"    edges:\n      door: [{', '.join(doors)}]\n      wall: [{', '.join(walls)}]\n"
        f"    spans: [{', '.join(spans)}]\n",
        encoding="utf-8",
    )
    pack_yaml = pack / "pack.yaml"
    pack_yaml.write_text(
        pack_yaml.read_text(encoding="utf-8")
        + "  - id: salas\n    kind: sala\n    name: Salas\n    file: decks/salas.yaml\n",
        encoding="utf-8",
    )
    _deck(pack, '- id: una\n  name: Una carta\n  text: "Texto de prueba."\n')


def deck(project: Path, over: bool) -> None:
    """The most components a deck file holds, each a card laid out and checked."""
    pack = _base(project)
    n = limits.DECK_COMPONENTS + (1 if over else 0)
    _deck(pack, "".join(f'- id: c{i}\n  name: "Carta {i}"\n  text: "Texto de prueba {i}."\n' for i in range(n)))


def sheet_rows(project: Path, over: bool) -> None:
    """A CSV deck of the most rows."""
    pack = _base(project)
    n = limits.SHEET_ROWS + (1 if over else 0)
    (pack / "decks" / "cartas.yaml").unlink()
    (pack / "decks" / "cartas.csv").write_text(
        "id,name,text\n" + "".join(f"c{i},Carta {i},Texto de prueba {i}.\n" for i in range(n)), encoding="utf-8"
    )
    _point_deck(pack, "decks/cartas.csv")


def sheet_cols(project: Path, over: bool) -> None:
    """A CSV deck of the most columns (the unknown ones each reported at its cell)."""
    pack = _base(project)
    extra = limits.SHEET_COLS - 3 + (1 if over else 0)
    (pack / "decks" / "cartas.yaml").unlink()
    head = ["id", "name", "text", *(f"x{j}" for j in range(extra))]
    row = ["una", "Una carta", "Texto de prueba.", *("" for _ in range(extra))]
    (pack / "decks" / "cartas.csv").write_text(",".join(head) + "\n" + ",".join(row) + "\n", encoding="utf-8")
    _point_deck(pack, "decks/cartas.csv")


def sheet_bytes(project: Path, over: bool) -> None:
    """A CSV file of the most bytes: the most rows, each with a text long enough to fill it (too long
    for a card: each reported at its cell)."""
    pack = _base(project)
    size = limits.SHEET_BYTES + (1 if over else 0)
    (pack / "decks" / "cartas.yaml").unlink()
    head = "id,name,text\n"
    rows = [f"c{i},Carta {i}," for i in range(limits.SHEET_ROWS)]
    room = size - len(head) - sum(len(r) + 1 for r in rows)
    each, extra = divmod(room, len(rows))
    text = "palabra " * (each // 8 + 2)
    with (pack / "decks" / "cartas.csv").open("w", encoding="utf-8", newline="") as fh:
        fh.write(head)
        for i, r in enumerate(rows):
            fh.write(r + text[: each + (1 if i < extra else 0)].replace(" ", "x", 1) + "\n")
    assert (pack / "decks" / "cartas.csv").stat().st_size == size
    _point_deck(pack, "decks/cartas.csv")


def sheet_unzipped(project: Path, over: bool) -> None:
    """A workbook of the most rows (the unzipped limit is far above what its rows and columns fill)."""
    from openpyxl import Workbook

    pack = _base(project)
    n = limits.SHEET_ROWS + (1 if over else 0)
    wb = Workbook()
    ws = wb.active
    ws.append(["id", "name", "text"])
    for i in range(n):
        ws.append([f"c{i}", f"Carta {i}", f"Texto de prueba {i}."])
    (pack / "decks" / "cartas.yaml").unlink()
    wb.save(pack / "decks" / "cartas.xlsx")
    _point_deck(pack, "decks/cartas.xlsx")


_XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="cartas" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'sharedStrings" Target="sharedStrings.xml"/></Relationships>',
}


def _column(n: int) -> str:
    name = ""
    while n:
        n, r = divmod(n - 1, 26)
        name = chr(65 + r) + name
    return name


def _inflated_workbook(path: Path, size: int, dense: bool) -> None:
    """An .xlsx (written part by part) that unzips to `size` bytes within the row and column limits:
    `dense`, 10,000 rows of as many cells as fit (200 at most, 8 characters each at least; the columns
    past `text` repeat `text@en`: refused once each in the header, every cell still read); else a deck
    of ten rows and shared strings no cell uses filling the rest (a reader loads them all the same)."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        fixed = sum(len(v) for v in _XLSX_PARTS.values())
        for name, text in _XLSX_PARTS.items():
            zf.writestr(name, text)
        head = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        tail = "</sheetData></worksheet>"
        strings_head = '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'

        def cell(r: int, c: int, text: str) -> str:
            return f'<c r="{_column(c)}{r}" t="inlineStr"><is><t>{text}</t></is></c>'

        rows_n = limits.SHEET_ROWS if dense else 10
        budget = size - fixed - len(head) - len(tail) - len(strings_head) - len("</sst>") - 4096
        fit = budget // (rows_n * (len(cell(10_000, 200, "")) + 8))  # cells of 8 characters at least
        names = ["id", "name", "text", *["text@en"] * (min(limits.SHEET_COLS, fit) - 3 if dense else 0)]
        header = '<row r="1">' + "".join(cell(1, c + 1, n) for c, n in enumerate(names)) + "</row>"
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            fh.write((head + header).encode())
            used = len(head) + len(header)
            per_cell = 0
            if dense:
                overhead = len(cell(10_000, 200, "")) + len('<row r="10000"></row>') // len(names)
                per_cell = max(1, (budget - used) // (rows_n * len(names)) - overhead)
            for r in range(2, rows_n + 2):
                filler = "x" * per_cell if dense else ""
                cells = [f"c{r}", f"Carta {r}", f"Texto {r}. {filler}"[: max(per_cell, 12)]]
                cells += [filler] * (len(names) - 3)
                row = f'<row r="{r}">' + "".join(cell(r, c + 1, t) for c, t in enumerate(cells)) + "</row>"
                fh.write(row.encode())
                used += len(row)
            fh.write(tail.encode())
        with zf.open("xl/sharedStrings.xml", "w", force_zip64=True) as fh:
            fh.write(strings_head.encode())
            left = size - sum(i.file_size for i in zf.infolist()) - len(strings_head) - len("</sst>")
            chunk, i = 0, 0
            while left > 64:
                item = f"<si><t>{i:09d}{'y' * min(left - 32, 10_000)}</t></si>"
                fh.write(item.encode())
                left -= len(item)
                i += 1
                chunk += 1
            fh.write(b"</sst>")


def workbook_cells(project: Path, over: bool) -> None:
    """A workbook that unzips to the limit in cells: 10,000 rows × 200 columns, every cell full."""
    pack = _base(project)
    (pack / "decks" / "cartas.yaml").unlink()
    _inflated_workbook(pack / "decks" / "cartas.xlsx", limits.SHEET_UNZIPPED + (65536 if over else -65536), True)
    _point_deck(pack, "decks/cartas.xlsx")


def workbook_strings(project: Path, over: bool) -> None:
    """A workbook that unzips to the limit in shared strings: a ten-row deck, the rest strings no cell uses."""
    pack = _base(project)
    (pack / "decks" / "cartas.yaml").unlink()
    _inflated_workbook(pack / "decks" / "cartas.xlsx", limits.SHEET_UNZIPPED + (65536 if over else -65536), False)
    _point_deck(pack, "decks/cartas.xlsx")


def _catalogue(project: Path, entries: int, size: int | None) -> None:
    """The base pack's en.po with `entries` more entries (for components the pack does not have:
    each reported), padded to `size` bytes when given."""
    pack = _base(project)
    (project / "every-language").touch()  # validated in English too: the catalogue is read
    po = pack / "locale" / "en.po"
    own = po.read_text(encoding="utf-8")
    pad = 0
    if size is not None:
        bare = len('msgctxt "x000000.name"\nmsgid "Carta 000000 "\nmsgstr "Card 000000 "\n\n')
        pad = max(0, (size - len(own.encode()) - 2) // entries - bare) // 2
    with po.open("a", encoding="utf-8") as fh:
        fh.write("\n")
        for i in range(entries):
            fh.write(
                f'msgctxt "x{i:06d}.name"\nmsgid "Carta {i:06d} {"a" * pad}"\nmsgstr "Card {i:06d} {"b" * pad}"\n\n'
            )
        if size is not None:
            fh.write("#" * max(0, size - fh.tell() - 1) + "\n")


def catalogue_bytes(project: Path, over: bool) -> None:
    """A catalogue of the most bytes, in the most entries (each 167 bytes)."""
    _catalogue(project, limits.CATALOGUE_ENTRIES - 10, limits.CATALOGUE_BYTES + (1 if over else -1024))


def catalogue_entries(project: Path, over: bool) -> None:
    """A catalogue of the most entries, each short."""
    _catalogue(project, limits.CATALOGUE_ENTRIES - 5 + (1 if over else 0), None)  # the base has 5 (its header too)


def _point_deck(pack: Path, file: str) -> None:
    p = pack / "pack.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("decks/cartas.yaml", file), encoding="utf-8")


def yaml_bytes(project: Path, over: bool) -> None:
    """A deck file of the most bytes (its components' texts long, and overflowing: reported)."""
    pack = _base(project)
    size = limits.YAML_BYTES + (1 if over else -1024)
    item = '- id: c{i}\n  name: "Carta {i}"\n  text: "' + "texto " * 100 + '"\n'
    with (pack / "decks" / "cartas.yaml").open("w", encoding="utf-8") as fh:
        i = 0
        while fh.tell() + len(item) + 10 < size and i < limits.DECK_COMPONENTS:
            fh.write(item.format(i=i))
            i += 1
        fh.write("#" * (size - fh.tell() - 1) + "\n")


def yaml_depth(project: Path, over: bool) -> None:
    """A value nested as deep as YAML may (an unknown field: reported once)."""
    pack = _base(project)
    depth = limits.YAML_DEPTH - 3 + (1 if over else 0)  # the deck's list and the component's mapping count
    _deck(pack, '- id: una\n  name: Una carta\n  text: "Texto."\n  extra: ' + "[" * depth + "]" * depth + "\n")


def yaml_nodes(project: Path, over: bool) -> None:
    """A deck file of the most values (an unknown list field: reported once)."""
    pack = _base(project)
    n = limits.YAML_NODES - 10 + (20 if over else 0)
    _deck(
        pack, '- id: una\n  name: Una carta\n  text: "Texto."\n  extra: [' + ",".join("1" * 1 for _ in range(n)) + "]\n"
    )


def text_chars(project: Path, over: bool) -> None:
    """A pack's own kind whose text field has no limit of its own: one component with the longest
    text, fitted into an A4 face (it overflows: reported)."""
    pack = _base(project)
    n = limits.TEXT_CHARS + (1 if over else 0)
    (pack / "kinds").mkdir()
    (pack / "kinds" / "nota.yaml").write_text(
        "name: nota\nsize: 210x297mm\ntemplate: nota.xml.j2\nfields:\n  name: {type: text, required: true}\n"
        "  body: {type: text, required: true}\n",
        encoding="utf-8",
    )
    (pack / "templates").mkdir()
    (pack / "templates" / "nota.xml.j2").write_text(
        '<card>\n<text x="10" y="10" w="190" h="277" size="9" min-size="6.5" field="body">{{ card.body }}</text>\n'
        "</card>\n",
        encoding="utf-8",
    )
    words = ("palabra " * (n // 8 + 1))[:n]
    (pack / "decks" / "notas.yaml").write_text(f'- id: n0\n  name: Nota\n  body: "{words}"\n', encoding="utf-8")
    p = pack / "pack.yaml"
    p.write_text(
        p.read_text(encoding="utf-8") + "  - id: notas\n    kind: nota\n    name: Notas\n    file: decks/notas.yaml\n",
        encoding="utf-8",
    )


def _dice(project: Path, die: str) -> None:
    """The sample dice tables with the first table rolled on `die`."""
    pack = project / "content" / "fixture"
    shutil.copytree(REPO / "content" / "generada", pack)
    tables = pack / "decks" / "tablas.yaml"
    text = tables.read_text(encoding="utf-8")
    start = text.index("die:")
    end = text.index("\n", start)
    tables.write_text(text[:start] + f"die: {die}" + text[end:], encoding="utf-8")


def dice(project: Path, over: bool) -> None:
    _dice(project, f"{limits.DICE + (1 if over else 0)}d2")


def die_faces(project: Path, over: bool) -> None:
    _dice(project, f"1d{limits.DIE_FACES + (1 if over else 0)}")


def dice_modifier(project: Path, over: bool) -> None:
    _dice(project, f"1d6+{limits.DICE_MODIFIER + (1 if over else 0)}")


def dice_span(project: Path, over: bool) -> None:
    _dice(project, f"2d{limits.DICE_SPAN // 2 + (1 if over else 0)}")


def component_mm(project: Path, over: bool) -> None:
    """A card kind at the largest size (a poster's), its face laid out and checked."""
    pack = _base(project)
    side = limits.COMPONENT_MM + (1 if over else 0)
    p = pack / "pack.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("decks:\n", f"card_size: {side:g}x{side:g}mm\ndecks:\n"))


def _image(pack: Path, make: Callable[[Path], None]) -> None:
    (pack / "arte").mkdir()
    make(pack / "arte" / "grande.png")
    _deck(pack, '- id: una\n  name: Una carta\n  text: "Texto."\n  image: arte/grande.png\n')


def image_pixels(project: Path, over: bool) -> None:
    """A card picture of the most pixels."""
    from PIL import Image

    w = 8000
    h = limits.IMAGE_PIXELS // w + (1 if over else 0)
    _image(_base(project), lambda p: Image.new("RGB", (w, h), (120, 90, 60)).save(p, compress_level=1))


def image_bytes(project: Path, over: bool) -> None:
    """A card picture file of the most bytes (noise, so it does not compress)."""
    from PIL import Image

    side = 4600  # 63.5 MB of RGB noise: just under 64 MiB as PNG
    pixels = os.urandom(side * side * 3)

    def make(p: Path) -> None:
        Image.frombytes("RGB", (side, side), pixels).save(p, compress_level=0)
        with p.open("ab") as fh:  # up to the limit (or one byte over) after the image's end
            fh.write(b"\0" * (limits.IMAGE_BYTES - p.stat().st_size + (1 if over else 0)))

    _image(_base(project), make)


def font_bytes(project: Path, over: bool) -> None:
    """A pack font of the most bytes: a real font with a table of padding."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.DefaultTable import DefaultTable

    pack = _base(project)
    (pack / "fonts").mkdir()
    font = TTFont(REPO / "cli" / "mazmorra" / "fonts" / "DejaVuSansCondensed.ttf")
    pad = DefaultTable("zPad")
    pad.data = b"\0" * (limits.FONT_BYTES - 800_000)
    font["zPad"] = pad
    target = pack / "fonts" / "Grande.ttf"
    font.save(target)
    with target.open("ab") as fh:
        fh.write(b"\0" * (limits.FONT_BYTES - target.stat().st_size + (1 if over else 0)))


def include_depth(project: Path, over: bool) -> None:
    """Templates including templates as deep as allowed (the card's template at the top)."""
    pack = _base(project)
    depth = limits.INCLUDE_DEPTH + (1 if over else 0)
    (pack / "templates").mkdir()
    shared = (REPO / "cli" / "mazmorra" / "templates" / "card.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "card.xml.j2").write_text("{% include 'nivel-1.j2' %}\n" + shared, encoding="utf-8")
    for i in range(1, depth + 1):  # card.xml.j2 → nivel-1.j2 → … → nivel-DEPTH.j2: DEPTH includes
        below = f"{{% include 'nivel-{i + 1}.j2' %}}" if i < depth else ""
        (pack / "templates" / f"nivel-{i}.j2").write_text(below + "\n", encoding="utf-8")


CASES: dict[str, tuple[tuple[str, ...], Case]] = {
    "grid": (("grid_rows", "grid_cols"), grid),
    "deck": (("deck_components",), deck),
    "sheet-rows": (("sheet_rows",), sheet_rows),
    "sheet-cols": (("sheet_cols",), sheet_cols),
    "sheet-bytes": (("sheet_bytes",), sheet_bytes),
    "workbook": (("sheet_unzipped",), sheet_unzipped),
    "workbook-cells": (("sheet_unzipped",), workbook_cells),
    "workbook-strings": (("sheet_unzipped",), workbook_strings),
    "catalogue-bytes": (("catalogue_bytes",), catalogue_bytes),
    "catalogue-entries": (("catalogue_entries",), catalogue_entries),
    "yaml-bytes": (("yaml_bytes",), yaml_bytes),
    "yaml-depth": (("yaml_depth",), yaml_depth),
    "yaml-nodes": (("yaml_nodes",), yaml_nodes),
    "text": (("text_chars",), text_chars),
    "dice": (("dice",), dice),
    "die-faces": (("die_faces",), die_faces),
    "dice-modifier": (("dice_modifier",), dice_modifier),
    "dice-span": (("dice_span",), dice_span),
    "poster": (("component_mm",), component_mm),
    "image-pixels": (("image_pixels",), image_pixels),
    "image-bytes": (("image_bytes",), image_bytes),
    "font": (("font_bytes",), font_bytes),
    "includes": (("include_depth",), include_depth),
}


# The child reports its own peak (VmHWM: reset by exec, unlike getrusage's maxrss, which a child forked
# from this process would inherit from it) on its way out.
CHILD = r"""
import atexit, re, sys
from pathlib import Path
target = Path(sys.argv[1])
def peak():
    status = Path('/proc/self/status').read_text()
    target.write_text(re.search(r'VmHWM:\s+(\d+)', status).group(1))
atexit.register(peak)
sys.argv = ['mazmorra', sys.argv[2], 'fixture', *sys.argv[3:]]
from mazmorra.commands import main
main()
"""


def _languages(project: Path) -> list[str]:
    """`--lang es` (the source language: no catalogue read), unless the case asks for every language."""
    return [] if (project / "every-language").exists() else ["--lang", "es"]


def measure(project: Path, command: str = "validate") -> tuple[float, float, str]:
    """`mazmorra validate fixture` (or `build`) in a fresh process: seconds, its own peak RSS (MB), and
    what it said."""
    env = {**os.environ, "MAZMORRA_JOBS": "1", "NO_COLOR": "1", "CI": "1"}
    peak_file = project / "peak-kb"
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(peak_file), command, *_languages(project)],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    proc.wait()
    seconds = time.perf_counter() - t0
    lines = [line for line in out.splitlines() if line.strip()]
    if "Traceback" in out or "internal error" in out:
        said = "TRACEBACK"
    elif proc.returncode == 0:
        said = "valid"
    else:
        rules = sorted(
            {line.rsplit("(", 1)[-1].rstrip(")") for line in lines if line.endswith(")") and " error" in line}
        )
        said = "refused: " + ", ".join(rules[:3]) if rules else (lines[-1][:60] if lines else f"exit {proc.returncode}")
    return seconds, int(peak_file.read_text()) / 1024, said


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="only these cases")
    ap.add_argument("--no-over", action="store_true", help="skip the just-over-the-limit runs")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--build", action="store_true", help="measure `mazmorra build` (every PDF) instead of validate")
    args = ap.parse_args()
    covered = {key for keys, _ in CASES.values() for key in keys}
    missing = [lim.key for lim in limits.LIMITS if lim.key not in covered]
    if missing:
        sys.exit(f"limits without a bench case: {', '.join(missing)}")
    by_key = {lim.key: lim for lim in limits.LIMITS}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        _base(base)
        command = "build" if args.build else "validate"
        b_s, b_mb, _ = measure(base, command)
        print(f"base pack: {b_s:.2f} s, {b_mb:.0f} MB\n")
        print(
            f"{'case':<14} {'limit':<34} {'at: s':>7} {'MB':>6} {'x base':>7}  {'result':<34} {'over: s':>7} {'MB':>6}  result"
        )
        for name in args.case or CASES:
            keys, make = CASES[name]
            figures: dict[str, object] = {"case": name, "limits": {k: by_key[k].shown for k in keys}}
            at = Path(tmp) / f"{name}-at"
            make(at, False)
            s, mb, said = measure(at, command)
            figures.update(seconds=s, peak_mb=mb, result=said)
            over = ""
            if not args.no_over:
                o = Path(tmp) / f"{name}-over"
                make(o, True)
                os_, omb, osaid = measure(o, command)
                figures.update(over_seconds=os_, over_peak_mb=omb, over_result=osaid)
                over = f"{os_:>7.2f} {omb:>6.0f}  {osaid}"
                shutil.rmtree(o)
            shutil.rmtree(at)
            shown = " × ".join(by_key[k].shown for k in keys)
            print(f"{name:<14} {shown:<34} {s:>7.2f} {mb:>6.0f} {s / b_s:>7.1f}  {said[:34]:<34} {over}", flush=True)
            rows.append(figures)
    if args.json:
        args.json.write_text(json.dumps({"base": {"seconds": b_s, "peak_mb": b_mb}, "cases": rows}, indent=1))


if __name__ == "__main__":
    main()
