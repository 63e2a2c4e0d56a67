"""What a spreadsheet deck's file is, judged by its content rather than its name (a macro-enabled
`.xlsm` is a workbook; its macros are data we never run), the text encoding of a CSV file from its
byte-order mark, and the cells of a worksheet (XLSX or ODS) whose value calamine cannot give: formulas saved
without their result, and merged cells."""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

ZIP = b"PK\x03\x04"
OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # encrypted OOXML and old .xls files
BOMS = (  # longest first: UTF-32's marks begin with UTF-16's
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 (big-endian)"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8 with a byte-order mark"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 (big-endian)"),
)
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xltx", ".xltm", ".ods")

_SHEET = re.compile(rb'<sheet\b[^>]*?\bname="([^"]*)"[^>]*?\br:id="([^"]*)"')
_REL = re.compile(rb'<Relationship\b[^>]*?\bId="([^"]*)"[^>]*?\bTarget="([^"]*)"')
_REL_REVERSED = re.compile(rb'<Relationship\b[^>]*?\bTarget="([^"]*)"[^>]*?\bId="([^"]*)"')
_CELL = re.compile(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", re.DOTALL)
_REF = re.compile(rb'\br="([A-Z]+)([0-9]+)"')
_MERGE = re.compile(rb'<mergeCell\b[^>]*?\bref="([A-Z]+)([0-9]+):([A-Z]+)([0-9]+)"')


def sniff(path: Path) -> str | None:
    """ "workbook" (a zip: XLSX, XLSM, ODS), "ole" (an old or encrypted Excel file), "text", or None
    when the file cannot be read."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
    except OSError:
        return None
    if head.startswith(ZIP):
        return "workbook"
    if head == OLE:
        return "ole"
    return "text"


def is_spreadsheet(path: Path, csv_suffix: bool) -> bool:
    """Whether a deck file is read as a spreadsheet: a CSV file by its name, a workbook by its content
    (whatever its name says, `.xlsm` or `.yaml`)."""
    return csv_suffix or path.suffix.lower() in WORKBOOK_SUFFIXES or sniff(path) in ("workbook", "ole")


def workbook_kind(path: Path) -> str:
    """How messages name the workbook: an ODS spreadsheet or an XLSX workbook, by what the zip holds."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError):
        return "ODS spreadsheet" if path.suffix.lower() == ".ods" else "XLSX workbook"
    if "content.xml" in names and "xl/workbook.xml" not in names:
        return "ODS spreadsheet"
    if "xl/vbaProject.bin" in names:
        return "XLSX workbook with macros (never run)"
    return "XLSX workbook"


def decode(raw: bytes) -> tuple[str, str] | None:
    """Text that starts with a byte-order mark, decoded, and the encoding's name; None without one
    (UnicodeDecodeError when the mark lies)."""
    for mark, codec, name in BOMS:
        if raw.startswith(mark):
            return raw[len(mark) :].decode(codec), name
    return None


@dataclass(frozen=True)
class Odd:
    """A cell whose value the workbook does not hold as shown: 1-based row and column."""

    row: int
    col: int
    what: str  # "formula" or "merged"
    ref: str  # as Excel writes it: B2, or A2:B3 for a merged range


def odd_cells(path: Path, worksheet: str) -> list[Odd]:
    """Formulas saved without a result (calamine reads them as empty) and merged ranges of one XLSX or
    ODS worksheet; nothing for a workbook whose parts are not where they should be."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if "xl/workbook.xml" not in names:
                return _ods_odd_cells(zf.read("content.xml"), worksheet) if "content.xml" in names else []
            sheets = {_unescape(n.decode()): rid for n, rid in _SHEET.findall(zf.read("xl/workbook.xml"))}
            rels_xml = zf.read("xl/_rels/workbook.xml.rels") if "xl/_rels/workbook.xml.rels" in names else b""
            rels = dict(_REL.findall(rels_xml)) | {rid: t for t, rid in _REL_REVERSED.findall(rels_xml)}
            target = rels.get(sheets.get(worksheet, b""))
            if target is None:
                return []
            part = target.decode().lstrip("/")
            part = part if part.startswith("xl/") else f"xl/{part}"
            if part not in names:
                return []
            xml = zf.read(part)
    except (zipfile.BadZipFile, OSError, KeyError):
        return []
    out: list[Odd] = []
    if b"<f" in xml:
        for attrs, body in _CELL.findall(xml):
            if body and b"<f" in body and not re.search(rb"<v>[^<]", body):
                m = _REF.search(attrs)
                if m:
                    out.append(Odd(int(m.group(2)), _col(m.group(1)), "formula", (m.group(1) + m.group(2)).decode()))
    for c0, r0, c1, r1 in _MERGE.findall(xml):
        ref = f"{c0.decode()}{r0.decode()}:{c1.decode()}{r1.decode()}"
        out.append(Odd(int(r0), _col(c0), "merged", ref))
    return sorted(out, key=lambda o: (o.row, o.col))


_ODS_TABLE = re.compile(rb'<table:table\b[^>]*?\btable:name="([^"]*)"[^>]*>(.*?)</table:table>', re.DOTALL)
_ODS_TOKEN = re.compile(rb"<table:table-row\b[^>]*?/?>|</table:table-row>|<table:(?:covered-)?table-cell\b[^>]*?/?>")
_ODS_ATTR = re.compile(rb'\btable:([a-z-]+)="([^"]*)"')


def _ods_odd_cells(content: bytes, worksheet: str) -> list[Odd]:
    """Merged ranges and formulas without a saved result of one ODS worksheet (content.xml)."""
    body = next((b for n, b in _ODS_TABLE.findall(content) if _unescape(n.decode()) == worksheet), None)
    out: list[Odd] = []
    if body is None:
        return out
    row, col, repeat = 0, 0, 1
    for m in _ODS_TOKEN.finditer(body):
        tag = m.group()
        attrs = dict(_ODS_ATTR.findall(tag))
        if tag.startswith(b"<table:table-row"):
            row, col = row + repeat, 0
            repeat = int(attrs.get(b"number-rows-repeated", b"1"))
            continue
        if tag.startswith(b"</"):
            continue
        cols = int(attrs.get(b"number-columns-repeated", b"1"))
        spans = int(attrs.get(b"number-columns-spanned", b"1")), int(attrs.get(b"number-rows-spanned", b"1"))
        here = f"{_letters(col + 1)}{row}"
        if spans != (1, 1):
            end = f"{_letters(col + spans[0])}{row + spans[1] - 1}"
            out.append(Odd(row, col + 1, "merged", f"{here}:{end}"))
        if b"formula" in attrs and b"office:value-type" not in tag:
            out.append(Odd(row, col + 1, "formula", here))
        col += min(cols, 16384)
        if row > 1_000_000:
            break
    return out


def _letters(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _col(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _unescape(name: str) -> str:
    return name.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
