"""Benchmark: grid data in content (issue 12). Loading and checking (stages 1 and 2: load_pack and
validate) N components whose map is a 5×4 grid with a legend (cells, marks, edges, a span), against
the same components with the map as one plain text field, measured in the same run.

    python bench/griddata.py [--sizes 1000,10000] [--repeat 3]

Each measurement is the best of --repeat runs in this process (warm imports). What it shows: the cost
of parsing every cell token and edge against the legend and checking them (positions kept for
located problems), per component and as a ratio to the plain deck.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from _common import best_load, sizes_and_repeat

KIND = """name: sala
size: 63x88mm
template: card.xml.j2
fields:
  name: {type: text, required: true}
  map:
    type: {type}
    required: true
{legend}"""
LEGEND = """    rows: 5
    cols: 4
    cells:
      floor: {symbol: "."}
      water: {symbol: "~"}
      blocked: {symbol: "x"}
    marks:
      spawn: {numbers: [1, 9], unique: true, on: [floor, water]}
      poi: {symbol: "*", max: 1}
    edges:
      door: {border: true, min: 1, on: [floor, water]}
      wall: {}
"""
ROWS = ["x . .2 x", ". .3 .1* .4", ". ~ ~ .", "x x . .", ". . . ."]
GRID = (
    "  map:\n    cells:\n"
    + "".join(f"      - {r}\n" for r in ROWS)
    + '    edges:\n      door: ["0,1 n", "4,3 s"]\n      wall: ["2,1 e", "3,2 n"]\n    spans: ["3,0 1x2"]\n'
)
PLAIN = '  map: "' + " / ".join(ROWS) + '"\n'


def make(root: Path, n: int, grid: bool) -> Path:
    pack = root / f"p-{'grid' if grid else 'plain'}-{n}"
    (pack / "decks").mkdir(parents=True)
    (pack / "kinds").mkdir()
    legend = LEGEND if grid else ""
    (pack / "kinds" / "sala.yaml").write_text(
        KIND.replace("{type}", "grid" if grid else "string").replace("{legend}", legend), encoding="utf-8"
    )
    body = GRID if grid else PLAIN
    (pack / "decks" / "salas.yaml").write_text(
        "".join(f"- id: s{i}\n  name: Sala {i}\n{body}" for i in range(n)), encoding="utf-8"
    )
    (pack / "pack.yaml").write_text(
        "id: p\nname: P\nlanguages: [es]\ndecks:\n  - {id: salas, kind: sala, name: Salas, file: decks/salas.yaml}\n",
        encoding="utf-8",
    )
    return pack


def main() -> None:
    sizes, repeat = sizes_and_repeat()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'maps':>7} {'plain s':>8} {'grid s':>8} {'x plain':>8} {'ms/map':>7}")
        for n in sizes:
            plain = best_load(make(Path(tmp), n, False), repeat, valid=True)
            grid = best_load(make(Path(tmp), n, True), repeat, valid=True)
            print(f"{n:>7} {plain:>8.3f} {grid:>8.3f} {grid / plain:>8.2f} {1000 * grid / n:>7.3f}")


if __name__ == "__main__":
    main()
