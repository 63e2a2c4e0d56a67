"""Decks from spreadsheets: a CSV (the csv module), XLSX or ODS (python-calamine) deck file read
into the same located rows a YAML deck gives, so everything downstream is unchanged.

The first row names the fields; every later non-empty row is one component. `field@lang` columns
carry translations; list fields split on `;`. Every value remembers its cell: `file.csv:ROW:COL`
or `file.xlsx[Worksheet]!C7`. A file that cannot be read (corrupt, password-protected, not UTF-8, too
big) is one clear, located problem.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mazmorra.errors import Loc, Problem, did_you_mean, rel
from mazmorra.load.workbook import WORKBOOK_SUFFIXES, Odd, decode, odd_cells, sniff, workbook_kind
from mazmorra.source.yamlsafe import YMap
from mazmorra.support import limits
from mazmorra.support.safetext import CONTROL_RULE, control_problem, without_control

SUFFIXES = (".csv", *WORKBOOK_SUFFIXES)
MAX_ROWS = limits.SHEET_ROWS  # components: a deck holds at most 10,000 (limits.DECK_COMPONENTS)
MAX_COLS = limits.SHEET_COLS
MAX_BYTES = limits.SHEET_BYTES
MAX_UNZIPPED = limits.SHEET_UNZIPPED  # a workbook is a zip: refuse one that inflates beyond this
LIST_SEP = ";"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # encrypted OOXML and old .xls files are OLE containers


class _Unreadable(Exception):
    """The one problem that stops a file from being read at all."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


@dataclass
class Spreadsheet:
    """A spreadsheet deck (one worksheet of a workbook, or a CSV file): its rows and where each
    column's header stands."""

    rows: list[DeckRow]
    columns: dict[tuple[str, str | None], Loc]  # (field, language or None for the source) -> header cell


@dataclass
class DeckRow:
    """One component's row: its values by field (located YMap) and its translations by language."""

    values: YMap
    translations: dict[str, dict[str, tuple[Any, Loc]]] = field(default_factory=dict)  # lang -> field -> cell


def read_spreadsheet(
    path: Path, worksheet: str | None, source_language: str, languages: list[str] | None
) -> tuple[Spreadsheet | None, list[Problem]]:
    """The components of a spreadsheet deck and the problems of its header and rows; None when the
    file cannot be read, with the problem that says why. `languages` None takes any `@lang` column."""
    shown = rel(path)
    problems: list[Problem] = []
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _Unreadable(
                Problem("spreadsheet.size", f"file is {size} bytes; the limit is {MAX_BYTES}", Loc(shown))
            )
        if path.suffix.lower() == ".csv" and sniff(path) == "text":  # a workbook is one whatever its name
            if worksheet is not None:
                problems.append(
                    Problem("spreadsheet.name", "a CSV file has no worksheets: remove `sheet:`", Loc(shown))
                )
            cells, loc = _csv_cells(path, shown)
        else:
            cells, loc = _book_cells(path, shown, worksheet)
    except _Unreadable as exc:
        return None, [*problems, exc.problem]
    except OSError as exc:
        return None, [*problems, Problem("spreadsheet.unreadable", f"cannot read file: {exc.strerror}", Loc(shown))]
    table, found = _rows(cells, loc, source_language, languages)
    sheet = loc(1, 1).sheet
    if sheet is not None:
        problems += [_odd_problem(odd, loc) for odd in odd_cells(path, sheet) if odd.row <= len(cells)]
    return table, problems + found


def _odd_problem(odd: Odd, loc: Callable[[int, int], Loc]) -> Problem:
    """A cell whose value the workbook does not hold, named as what it is, at the cell."""
    if odd.what == "formula":
        return Problem(
            "spreadsheet.formula",
            f"cell {odd.ref} holds a formula whose result was never saved (the file was written by a program "
            "that does not calculate): open the workbook in Excel or LibreOffice and save it, or type the value",
            loc(odd.row, odd.col),
        )
    return Problem(
        "spreadsheet.merged",
        f"cells {odd.ref} are merged: only the first holds a value, the others read as empty; unmerge them and "
        "fill each cell",
        loc(odd.row, odd.col),
    )


def _csv_cells(path: Path, shown: str) -> tuple[list[tuple[int, list[Any]]], Callable[[int, int], Loc]]:
    raw = path.read_bytes()
    try:
        marked = decode(raw)  # a byte-order mark names the encoding: UTF-8, UTF-16 or UTF-32
    except UnicodeDecodeError as exc:
        raise _Unreadable(
            Problem(
                "spreadsheet.encoding",
                f"the file starts as {exc.encoding.upper()} but is not: {exc.reason}",
                Loc(shown),
            )
        ) from None
    if not marked and raw[:200].count(b"\x00") * 3 > len(raw[:200]):  # every other byte zero: UTF-16 text
        raise _Unreadable(
            Problem(
                "spreadsheet.encoding",
                "the file is UTF-16 without a byte-order mark (every other byte is zero); save it as 'CSV UTF-8' "
                "(Excel) or with character set Unicode (UTF-8) (LibreOffice)",
                Loc(shown, 1, 1),
            )
        )
    try:
        text = marked[0] if marked else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        start = raw.rfind(b"\n", 0, exc.start) + 1
        head = raw[: raw.find(b"\n")] if b"\n" in raw else raw
        sep = max((b",", b";", b"\t"), key=head.count)
        cell = raw[start : exc.start].count(sep) + 1  # the cell holding the byte (quotes aside)
        byte = raw[exc.start]
        guess = "Latin-1 (ISO-8859-1) or Windows-1252" if 0x80 <= byte else "an unknown encoding"
        raise _Unreadable(
            Problem(
                "spreadsheet.encoding",
                f"not UTF-8: byte 0x{byte:02x} on line {line} looks like {guess}; save the file as "
                "'CSV UTF-8' (Excel) or with character set Unicode (UTF-8) (LibreOffice)",
                Loc(shown, line, cell),
            )
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)  # Excel writes ';' where the decimal mark is ','
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[Any]]] = []
    start = 1
    try:
        for cells in reader:
            rows.append((start, cells))
            start = reader.line_num + 1
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        raise _Unreadable(
            Problem("spreadsheet.syntax", f"malformed CSV: {exc}", Loc(shown, reader.line_num, 1))
        ) from None
    return rows, lambda row, col: Loc(shown, row, col)


def _book_cells(
    path: Path, shown: str, worksheet: str | None
) -> tuple[list[tuple[int, list[Any]]], Callable[[int, int], Loc]]:
    from python_calamine import CalamineWorkbook

    kind = workbook_kind(path)
    with path.open("rb") as fh:
        head = fh.read(8)
    if head == _OLE:
        data = path.read_bytes()
        if "EncryptionInfo".encode("utf-16-le") in data:
            why = "it is password-protected: save a copy without a password"
        else:
            why = "it is an old Excel 97–2003 (.xls) file: save it as .xlsx"
        raise _Unreadable(Problem("spreadsheet.unreadable", f"cannot read this {kind}: {why}", Loc(shown)))
    try:
        with zipfile.ZipFile(path) as zf:
            inflated = sum(i.file_size for i in zf.infolist())
            if inflated > MAX_UNZIPPED:
                raise _Unreadable(
                    Problem(
                        "spreadsheet.size",
                        f"the {kind} inflates to {inflated} bytes; the limit is {MAX_UNZIPPED}",
                        Loc(shown),
                    )
                )
            if path.suffix.lower() == ".ods" and "META-INF/manifest.xml" in zf.namelist():
                if b"encryption-data" in zf.read("META-INF/manifest.xml"):
                    raise _Unreadable(
                        Problem(
                            "spreadsheet.unreadable",
                            f"cannot read this {kind}: it is password-protected: save a copy without a password",
                            Loc(shown),
                        )
                    )
    except zipfile.BadZipFile:
        raise _Unreadable(
            Problem(
                "spreadsheet.unreadable", f"not a readable {kind} (the file is damaged or not a {kind})", Loc(shown)
            )
        ) from None
    try:
        book = CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
        if not names:
            raise _Unreadable(Problem("spreadsheet.unreadable", f"the {kind} has no worksheets", Loc(shown)))
        name = names[0] if worksheet is None else worksheet
        if name not in names:
            raise _Unreadable(
                Problem(
                    "spreadsheet.name",
                    f"no worksheet '{worksheet}'{did_you_mean(name, names)} (worksheets: {', '.join(names)})",
                    Loc(shown),
                )
            )
        values = book.get_sheet_by_name(name).to_python(skip_empty_area=False, nrows=MAX_ROWS + 2)
    except _Unreadable:
        raise
    except Exception as exc:  # calamine raises several types for damaged files
        raise _Unreadable(
            Problem("spreadsheet.unreadable", f"not a readable {kind} ({type(exc).__name__}: {exc})", Loc(shown))
        ) from None
    rows = [(i + 1, [_plain(v) for v in r[: MAX_COLS + 1]]) for i, r in enumerate(values)]
    return rows, lambda row, col: Loc(shown, row, col, sheet=name)


def _plain(value: Any) -> Any:
    """A workbook value as YAML would give it: dates as ISO text, empty cells as ""."""
    if isinstance(value, (dt.date, dt.time, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return value


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _rows(
    cells: list[tuple[int, list[Any]]],
    loc: Callable[[int, int], Loc],
    source_language: str,
    languages: list[str] | None,
) -> tuple[Spreadsheet | None, list[Problem]]:
    """The rows under the header and the problems of both; None past a limit or without a header."""
    if not cells or all(_empty(v) for v in cells[0][1]):
        return None, [Problem("spreadsheet.header", "the first row must name the fields (id, name, ...)", loc(1, 1))]
    header_row, header = cells[0]
    if len(header) > MAX_COLS:
        return None, [Problem("spreadsheet.size", f"more than {MAX_COLS} columns", loc(header_row, MAX_COLS + 1))]
    problems: list[Problem] = []
    columns: list[tuple[str, str | None] | None] = []  # (field, language or None) per column; None: skipped
    seen: dict[tuple[str, str | None], int] = {}
    width = max((c + 1 for c, v in enumerate(header) if not _empty(v)), default=0)
    for c, head in enumerate(header[:width]):
        where = loc(header_row, c + 1)
        name = "" if _empty(head) else str(head).strip()
        if not name:
            columns.append(None)
            continue
        fld, _, given = name.partition("@")
        lang = given or None
        key: tuple[str, str | None] = (fld, None if lang is None or lang == source_language else lang)
        if lang is not None and languages is not None and lang not in languages:
            problems.append(
                Problem(
                    "spreadsheet.language",
                    f"column '{name}': the pack has no language '{lang}'{did_you_mean(lang, languages)} "
                    f"(languages: {', '.join(languages)})",
                    where,
                    field=fld,
                )
            )
            columns.append(None)
            continue
        if key in seen:
            problems.append(
                Problem(
                    "spreadsheet.header",
                    f"column '{name}' appears twice (first in column {seen[key]})",
                    where,
                    field=fld,
                )
            )
            columns.append(None)
            continue
        seen[key] = c + 1
        columns.append(key)
    located = {key: loc(header_row, c + 1) for c, key in enumerate(columns) if key is not None}
    csv_file = loc(1, 1).sheet is None
    out: list[DeckRow] = []
    for row_no, values in cells[1:]:
        filled = [c for c, v in enumerate(values) if not _empty(v)]  # one look at each cell
        if not filled:
            continue
        if len(out) >= MAX_ROWS:
            too_many = f"more than {MAX_ROWS} components; a deck holds at most {MAX_ROWS} (split it into several decks)"
            return None, [*problems, Problem("spreadsheet.size", too_many, loc(row_no, 1))]
        last = filled[-1] + 1
        if last > width or (len(values) < width and csv_file):
            col = width + 1 if last > width else len(values) + 1
            problems.append(
                Problem(
                    "spreadsheet.ragged",
                    f"row {row_no} has {len(values) if last <= width else last} cell(s) but the header names "
                    f"{width} column(s): a missing or extra separator shifts every value after it",
                    loc(row_no, min(col, max(width, 1))),
                )
            )
            continue
        row = DeckRow(YMap())
        row.values.loc, row.values.locs = loc(row_no, 1), {}
        for c in filled:  # every one a column of the header: the row is not longer than it
            column = columns[c]
            if column is None:
                continue
            value = values[c].strip() if isinstance(values[c], str) else values[c]
            fld, lang = column
            why = control_problem(value) if isinstance(value, str) else None
            if why is not None:  # refused at its cell, not in a template's XML; read without it
                problems.append(Problem(CONTROL_RULE, why, loc(row_no, c + 1), field=fld))
                value = without_control(value)
            if lang is None:
                row.values[fld] = value
                row.values.locs[fld] = loc(row_no, c + 1)
            else:
                row.translations.setdefault(lang, {})[fld] = (value, loc(row_no, c + 1))
        for c, column in enumerate(columns):  # an empty `field@lang` cell: untranslated there, where it is typed
            if column is not None and column[1] is not None and column[0] not in row.translations.get(column[1], {}):
                row.translations.setdefault(column[1], {})[column[0]] = ("", loc(row_no, c + 1))
        out.append(row)
    return Spreadsheet(out, located), problems


# ---------------------------------------------------------------- cell values -> field values

_TRUE = {"true", "yes", "y", "1", "sí", "si", "x", "verdadero", "on"}
_FALSE = {"false", "no", "n", "0", "falso", "off"}


def shape(annotation: Any) -> str:
    """What a model field holds, as far as a cell is concerned: int, float, bool, str, list,
    nested (a mapping: not writable in a cell) or any."""
    import types
    import typing

    from pydantic import BaseModel

    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return shape(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        shapes = {shape(a) for a in typing.get_args(annotation) if a is not type(None)}
        return shapes.pop() if len(shapes) == 1 else "any"
    if origin is typing.Literal:
        args = typing.get_args(annotation)
        return "int" if all(isinstance(a, int) and not isinstance(a, bool) for a in args) else "str"
    if origin in (list, tuple) or annotation in (list, tuple):
        return "list"
    if origin is dict or (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        return "nested"
    return {int: "int", float: "float", bool: "bool", str: "str"}.get(annotation, "any")


def item_shape(annotation: Any) -> str:
    """The shape of a list field's items."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return item_shape(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                return item_shape(arg)
    if origin in (list, tuple):
        args = typing.get_args(annotation)
        return shape(args[0]) if args else "any"
    return "any"


def cell_value(value: Any, kind: str) -> Any:
    """A cell's value as the field wants it (what cannot be converted is left for the model to report)."""
    if kind == "str":
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    if kind == "int":
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value)
        return value
    if kind == "float":
        if isinstance(value, str):
            try:
                return float(value.replace(",", ".")) if value.count(",") == 1 and "." not in value else float(value)
            except ValueError:
                return value
        return value
    if kind == "bool" and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        word = str(value).strip().lower()
        word = word[:-2] if word.endswith(".0") else word
        return True if word in _TRUE else False if word in _FALSE else value
    return value


def split_list(value: Any, item: str) -> list[Any]:
    """A list cell: items separated by `;`, each converted as the list's items want."""
    parts = [p.strip() for p in str(value).split(LIST_SEP)] if isinstance(value, str) else [value]
    return [cell_value(p, item) for p in parts if p != ""]
