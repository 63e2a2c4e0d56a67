"""The pack that docs/own-kind.md and docs/spreadsheets.md build, written from the pages alone: every
file they show under a **`path`** heading (code blocks, and the workbook's Markdown table)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACK = "grimorio-mini"
_BLOCK = re.compile(r"\*\*`([^`]+)`\*\*[^\n]*\n\n```[a-z]*\n(.*?)```", re.S)
_TABLE = re.compile(r"\*\*`([^`]+\.xlsx)`\*\* \(worksheet `([^`]+)`\)\n\n((?:\|.*\|\n)+)")


def doc_files() -> dict[str, str]:
    """path -> text of every file the two pages show as a code block."""
    out: dict[str, str] = {}
    for page in ("own-kind.md", "spreadsheets.md"):
        for path, body in _BLOCK.findall((REPO / "docs" / page).read_text(encoding="utf-8")):
            out[path] = body
    return out


def doc_workbooks() -> dict[str, tuple[str, list[list[object]]]]:
    """path -> (worksheet, rows) of every workbook the pages show as a table."""
    out = {}
    for path, worksheet, table in _TABLE.findall((REPO / "docs" / "spreadsheets.md").read_text(encoding="utf-8")):
        rows = []
        for line in table.strip().splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(set(c) <= {"-", " "} for c in cells):
                continue
            rows.append([int(c) if c.isdigit() else (c or None) for c in cells])
        out[path] = (worksheet, rows)
    return out


def write_doc_pack(project: Path) -> Path:
    """content/grimorio-mini as the docs describe it; returns the pack folder."""
    import openpyxl
    from conftest import write_pack

    pack = write_pack(project, doc_files(), PACK)
    for path, (worksheet, rows) in doc_workbooks().items():
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = worksheet
        for row in rows:
            ws.append(row)
        (pack / path).parent.mkdir(parents=True, exist_ok=True)
        wb.save(pack / path)
    return pack


def set_cell(path: Path, cell: str, value: object) -> None:
    """Change one cell of a workbook the way a designer would."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    wb.active[cell] = value
    wb.save(path)
