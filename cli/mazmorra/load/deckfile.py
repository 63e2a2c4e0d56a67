"""A deck's file, YAML or spreadsheet, as located entries: one mapping of field values per
component (each value knowing its line or cell) plus the translations a spreadsheet carries. What
stage 1 reads before it knows which kind each entry is."""

from __future__ import annotations

import difflib
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mazmorra.errors import Loc, Problem, Severity, did_you_mean, rel
from mazmorra.load import spreadsheet
from mazmorra.load.slugs import MAX_ID, slug
from mazmorra.load.workbook import is_spreadsheet
from mazmorra.model.content import Kind, PackSpec
from mazmorra.source.yamlsafe import YamlError, YList, YMap, load_yaml
from mazmorra.support.limits import DECK_COMPONENTS
from mazmorra.support.memo import Memo


@dataclass
class Entry:
    """One component as written: its fields and, from a spreadsheet, its translations."""

    fields: YMap
    loc: Loc
    translations: dict[str, dict[str, tuple[Any, Loc]]] = field(default_factory=dict)
    from_spreadsheet: bool = False
    unfilled: dict[str, Problem] = field(default_factory=dict)  # a field no column fills -> the typo finding


def read_entries(
    path: Path,
    spec: PackSpec,
    worksheet: str | None,
    deck: str,
    kind_of: Callable[[str], Kind | None],
    default: Kind,
    memo: Memo | None = None,
) -> tuple[list[Entry] | None, list[Problem]]:
    """Every entry of a deck file and their problems; None when the file cannot be read at all. A
    YAML file an earlier build parsed is taken from `memo`. A spreadsheet's entries that miss a
    required field because its column is misspelt (or the kind file's field is) leave it to the one
    finding at the header (`fold_missing`)."""
    if is_spreadsheet(path, path.suffix.lower() == ".csv"):  # a workbook by its content, whatever its name
        table, problems = spreadsheet.read_spreadsheet(path, worksheet, spec.source_language, list(spec.languages))
        if table is None:
            return None, problems
        columns, unfilled = _check_columns(table, deck, kind_of, default)
        problems += columns + _ids_from_names(table, deck)
        entries = [Entry(row.values, row.values.loc, row.translations, True, unfilled) for row in table.rows]
        return entries, problems
    problems = []
    if worksheet is not None:
        problems.append(
            Problem(
                "spreadsheet.name",
                "`sheet:` names a worksheet of an .xlsx or .ods deck file",
                Loc(rel(path)),
                f"deck:{deck}",
            )
        )
    try:
        data = load_yaml(path, memo=memo)
    except YamlError as exc:
        return None, [*problems, exc.problem]
    if not isinstance(data, YList):
        not_list = "a deck file must be a YAML list of components (or a .csv, .xlsx or .ods spreadsheet)"
        where = getattr(data, "loc", Loc(rel(path), 1, 1))
        return None, [*problems, Problem("deck.shape", not_list, where, f"deck:{deck}")]
    if len(data) > DECK_COMPONENTS:  # refused before any component is validated
        too_many = f"the deck file holds {len(data):,} components; a deck holds at most {DECK_COMPONENTS:,}"
        return None, [*problems, Problem("deck.too-many", too_many, data.locs[DECK_COMPONENTS], f"deck:{deck}")]
    out = []
    for j, item in enumerate(data):
        if not isinstance(item, YMap):
            problems.append(Problem("deck.shape", "each component must be a mapping", data.locs[j], f"deck:{deck}"))
            continue
        out.append(Entry(item, data.locs[j]))
    return out, problems


def _check_columns(
    table: spreadsheet.Spreadsheet,
    deck: str,
    kind_of: Callable[[str], Kind | None],
    default: Kind,
) -> tuple[list[Problem], dict[str, Problem]]:
    """Each column names a field of a kind the spreadsheet holds (one located problem per column, not
    per row); a column that does not is dropped from every row. Also: each field of a kind file that
    a misspelt column (or a misspelt field) leaves unfilled, with that finding."""
    problems: list[Problem] = []
    unfilled: dict[str, Problem] = {}
    used = [default] + [
        k
        for r in table.rows
        if isinstance(r.values.get("kind"), str)
        for k in [kind_of(r.values["kind"])]
        if k is not None
    ]
    fields: dict[str, Any] = {}
    for kind in used:
        for name, info in kind.model.model_fields.items():
            fields.setdefault(name, info)
    texts = {t for k in used for t in k.translatable}
    bad: set[tuple[str, str | None]] = set()
    for (name, lang), where in table.columns.items():
        if lang is None and name != "kind" and name not in fields:
            found, suspect = _unknown_column(name, where, fields, used, table, deck)
            problems.append(found)
            if suspect is not None:
                unfilled[suspect] = found
            bad.add((name, lang))
        elif lang is None and name in fields and spreadsheet.shape(fields[name].annotation) == "nested":
            problems.append(
                Problem(
                    "spreadsheet.nested",
                    f"field '{name}' holds nested data, which a cell cannot: write this deck in YAML",
                    where,
                    f"deck:{deck}",
                    name,
                )
            )
            bad.add((name, lang))
        elif lang is not None and name not in texts:
            what = "is not a field" if name not in fields else "is not a text field (only texts are translated)"
            problems.append(
                Problem(
                    "spreadsheet.translation",
                    f"column '{name}@{lang}': '{name}' {what}{did_you_mean(name, texts)}",
                    where,
                    f"deck:{deck}",
                    name,
                )
            )
            bad.add((name, lang))
    for row in table.rows:
        for name, lang in bad:
            if lang is None:
                row.values.pop(name, None)
                row.values.locs.pop(name, None)
            else:
                row.translations.get(lang, {}).pop(name, None)
    return problems, unfilled


def _unknown_column(
    name: str, where: Loc, fields: dict[str, Any], used: list[Kind], table: spreadsheet.Spreadsheet, deck: str
) -> tuple[Problem, str | None]:
    """A column naming no field. When the nearest field is one a pack's kind file declares and no column
    fills, either may be misspelt: the kind file is, when its template prints the column's name and not
    the field's (`potenica:` for the sheet's and template's `potencia`): reported at the kind file's line,
    suggesting the column's name, with the column as the second place; else at the column, naming the
    kind file's line too. With it, the kind file's field it leaves unfilled (None when it names none)."""
    near = difflib.get_close_matches(name, list(fields), n=1, cutoff=0.6)
    filled = {n for n, lang in table.columns if lang is None}
    owner = next((k for k in used if near and near[0] in k.declared_at), None)
    if not near or owner is None or near[0] in filled:
        return Problem(
            "spreadsheet.unknown-field",
            f"column '{name}' is not a field of kind '{used[0].name}'{did_you_mean(name, fields)} "
            f"(fields: {', '.join(fields)})",
            where,
            f"deck:{deck}",
            name,
        ), None
    field_name, declared = near[0], owner.declared_at[near[0]]
    printed = _template_words(owner)
    if name in printed and field_name not in printed:
        return Problem(
            "kind.field-no-column",
            f"field '{field_name}' has no column in {where.file}, whose column '{name}' ({where}) names no field "
            f"and is the name template '{owner.template}' prints; did you mean '{name}'?",
            declared,
            f"deck:{deck}",
            field_name,
        ), field_name
    return Problem(
        "spreadsheet.unknown-field",
        f"column '{name}' is not a field of kind '{owner.name}'; did you mean '{field_name}'? (or, if the kind "
        f"file is misspelt, rename its field '{field_name}' at {declared})",
        where,
        f"deck:{deck}",
        name,
    ), field_name


def fold_missing(problems: Sequence[Problem], entries: list[Entry]) -> list[Problem]:
    """The entries' `schema.missing` findings for a field a misspelt column leaves unfilled, folded into
    that one finding with their count: the designer fixes one name, not every row."""
    unfilled = entries[0].unfilled if entries else {}
    if not unfilled:
        return list(problems)
    count: dict[str, int] = {}
    kept = []
    for p in problems:
        if p.rule == "schema.missing" and p.field in unfilled:
            count[p.field] = count.get(p.field, 0) + 1
        else:
            kept.append(p)
    said = {id(found): (name, count[name]) for name, found in unfilled.items() if count.get(name)}
    out = []
    for p in kept:
        if id(p) in said:
            name, n = said[id(p)]
            rows = "row" if n == 1 else "rows"
            p = replace(p, message=f"{p.message}; until then {n} {rows} miss required field '{name}'")
        out.append(p)
    return out


def _template_words(kind: Kind) -> set[str]:
    """The words of a kind's front template (the pack's own, else the shipped one): which field names
    it prints; empty when it cannot be read."""
    from mazmorra.support.paths import templates_dir

    if kind.source is None or not kind.template:
        return set()
    pack_dir = Path(kind.source.file).parent.parent  # <pack>/kinds/<kind>.yaml
    for folder in (pack_dir / "templates", templates_dir()):
        try:
            return set(re.findall(r"\w+", (folder / kind.template).read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return set()


def _ids_from_names(table: spreadsheet.Spreadsheet, deck: str) -> list[Problem]:
    """A row without an `id` takes a slug of its `name` (a Squib or nanDECK sheet has no ids); a
    slug already taken gets `-2`, `-3`… and a warning, since that id then depends on row order."""
    problems: list[Problem] = []
    used = {str(r.values["id"]): r.values.locs.get("id", r.values.loc) for r in table.rows if "id" in r.values}
    for n, row in enumerate(table.rows, start=1):
        name = row.values.get("name")
        if "id" in row.values or name is None:
            continue  # no name either: the model reports the missing id
        where = row.values.locs.get("name", row.values.loc)
        base = slug(str(name)) or f"{slug(deck) or 'row'}-{n}"
        given, k = base, 1
        while given in used:
            k += 1
            given = f"{base[: MAX_ID - 1 - len(str(k))]}-{k}"
        if given != base:
            problems.append(
                Problem(
                    "spreadsheet.id-collision",
                    f"no id: the name '{name}' gives '{base}', already the id at {used[base]}; this row is "
                    f"'{given}', which changes if rows move: add an `id` column to keep ids (and the "
                    "translations filed under them) stable",
                    where,
                    given,
                    "id",
                    Severity.WARNING,
                )
            )
        used[given] = where
        row.values["id"] = given
        row.values.locs["id"] = where
    return problems


def coerced(entry: Entry, kind: Kind) -> YMap:
    """An entry's fields as its kind's model takes them: a spreadsheet's cells converted by each
    field's type (numbers, true/false, `;`-separated lists); a YAML entry unchanged. `kind` is
    never a field."""
    out = YMap({k: v for k, v in entry.fields.items() if k != "kind"})
    out.loc, out.locs = entry.fields.loc, entry.fields.locs
    if not entry.from_spreadsheet:
        return out
    shapes = _cell_shapes(kind)
    for name, value in list(out.items()):
        if name not in shapes:
            continue
        what, item = shapes[name]
        out[name] = spreadsheet.split_list(value, item) if what == "list" else spreadsheet.cell_value(value, what)
    return out


_SHAPES: weakref.WeakKeyDictionary[type, dict[str, tuple[str, str]]] = weakref.WeakKeyDictionary()


def _cell_shapes(kind: Kind) -> dict[str, tuple[str, str]]:
    """field -> (what a cell of it holds, what a list's items hold): worked out once per kind's
    model, not once per row (a declared kind's model goes when the kind does)."""
    found = _SHAPES.get(kind.model)
    if found is None:
        found = {}
        for name, info in kind.model.model_fields.items():
            what = spreadsheet.shape(info.annotation)
            found[name] = (what, spreadsheet.item_shape(info.annotation) if what == "list" else "")
        _SHAPES[kind.model] = found
    return found


def translations(entry: Entry, kind: Kind) -> dict[str, dict[str, tuple[str, Loc]]]:
    """A spreadsheet entry's translations by language and text key (`tags.2` for a list's second item)."""
    out: dict[str, dict[str, tuple[str, Loc]]] = {}
    for lang, cells in entry.translations.items():
        for name, (value, loc) in cells.items():
            if name not in kind.translatable:
                continue
            if _cell_shapes(kind).get(name, ("", ""))[0] == "list":
                for i, item in enumerate(spreadsheet.split_list(value, "str")):
                    out.setdefault(lang, {})[f"{name}.{i + 1}"] = (str(item), loc)
            else:
                out.setdefault(lang, {})[name] = (spreadsheet.cell_value(value, "str"), loc)
    return out
