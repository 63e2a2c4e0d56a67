"""Benchmark: loading one deck of N generic cards (stage 1 and 2: load_pack and validate) from YAML,
CSV, XLSX and ODS-free workbooks, in the same run, as ratios against the YAML baseline.

    python bench/spreadsheet.py [--sizes 1000,10000] [--repeat 3]

Each measurement is the best of --repeat runs in this process (warm imports). Target: a spreadsheet
deck loads within 1.5x the time of the same deck in YAML.
"""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import yaml
from _common import best_load, sizes_and_repeat


def make(root: Path, n: int, fmt: str) -> Path:
    pack = root / f"p-{fmt}-{n}"
    (pack / "decks").mkdir(parents=True)
    rows = [
        {"id": f"c{i}", "name": f"Carta {i}", "text": f"Ganas {{coin}} y robas {{draw:{i % 3 + 1}}}.", "copies": 1}
        for i in range(n)
    ]
    file = f"decks/cartas.{fmt}"
    if fmt == "yaml":
        (pack / file).write_text(yaml.safe_dump(rows, allow_unicode=True), encoding="utf-8")
    elif fmt == "csv":
        with (pack / file).open("w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    else:
        import openpyxl

        wb = openpyxl.Workbook(write_only=True)
        ws = wb.create_sheet("Cartas")
        ws.append(list(rows[0]))
        for r in rows:
            ws.append(list(r.values()))
        wb.save(pack / file)
    (pack / "pack.yaml").write_text(
        f"id: p\nname: P\nlanguages: [es]\ndecks:\n  - {{id: cartas, kind: card, name: Cartas, file: {file}}}\n",
        encoding="utf-8",
    )
    return pack


def main() -> None:
    sizes, repeat = sizes_and_repeat()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'cards':>7} {'format':>6} {'seconds':>8} {'x yaml':>7}")
        for n in sizes:
            base = None
            for fmt in ("yaml", "csv", "xlsx"):
                t = best_load(make(Path(tmp), n, fmt), repeat)
                base = base or t
                print(f"{n:>7} {fmt:>6} {t:>8.3f} {t / base:>7.2f}")


if __name__ == "__main__":
    main()
