"""`mazmorra upgrade PACK`: rewrite a pack written for an earlier format (load/formats.py) in the current
one. The files are read with a round-trip YAML parser (ruamel.yaml) for where each key and value
stands, and only those characters are edited, so comments, key order, quoting and line breaks stay
as the designer wrote them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazmorra.errors import Loc, Problem, rel
from mazmorra.load.formats import CURRENT, UNNUMBERED, Renamed, changes_for
from mazmorra.support.atomic import atomic_write_text


@dataclass(frozen=True)
class Edit:
    """One change made to a file, as the command reports it."""

    loc: Loc
    what: str


def _round_trip(text: str) -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    return yaml.load(text)


def upgrade_pack(pack_dir: Path, write: bool = True) -> tuple[list[Edit], list[Problem]]:
    """Every edit that brings the pack to the current format (made when `write`), or the problems
    that stop it (a file that does not parse, a field under both its old and new name)."""
    from ruamel.yaml.error import YAMLError

    pack_file = pack_dir / "pack.yaml"
    text = pack_file.read_text(encoding="utf-8")
    try:
        pack = _round_trip(text)
    except YAMLError as exc:
        return [], [Problem("format.upgrade", f"pack.yaml does not parse: {exc}", Loc(rel(pack_file)))]
    if not hasattr(pack, "lc") or "decks" not in pack:
        return [], [Problem("format.upgrade", "pack.yaml is not a pack (no `decks:`)", Loc(rel(pack_file)))]
    fmt = pack.get("format", UNNUMBERED)
    if not isinstance(fmt, int) or fmt > CURRENT:
        where = Loc(rel(pack_file), pack.lc.value("format")[0] + 1)
        return [], [Problem("format.upgrade", f"format {fmt!r} is not one this version upgrades from", where)]
    edits: list[Edit] = []
    problems: list[Problem] = []
    writes: dict[Path, str] = {}
    for deck in pack["decks"] or []:
        file, kind = deck.get("file"), deck.get("kind")
        if not isinstance(file, str) or not file.endswith((".yaml", ".yml")):
            continue  # a spreadsheet's columns are named by the designer's table: see docs/formats.md
        path = (pack_dir / file).resolve()
        if not path.is_relative_to(pack_dir.resolve()) or not path.is_file():
            continue  # reported by a build
        new_text, deck_edits, deck_problems = _upgrade_deck(path, str(kind), fmt)
        edits += deck_edits
        problems += deck_problems
        if deck_edits:
            writes[path] = new_text
    if fmt != CURRENT or "format" not in pack:
        writes[pack_file], edit = _set_format(pack, text, pack_file, fmt)
        edits.insert(0, edit)
    if write and not problems:
        for path, new in writes.items():
            atomic_write_text(path, new)
    return edits, problems


def _set_format(pack: Any, text: str, pack_file: Path, fmt: int) -> tuple[str, Edit]:
    """pack.yaml stating `format: CURRENT`: the value replaced where it is written, or a line added at
    the end (so no line above moves: the catalogues' `#: pack.yaml:N` references stay right)."""
    lines = text.splitlines(keepends=True)
    if "format" in pack:
        line, col = pack.lc.value("format")
        old = str(pack["format"])
        lines[line] = lines[line][:col] + str(CURRENT) + lines[line][col + len(old) :]
        return "".join(lines), Edit(Loc(rel(pack_file), line + 1, col + 1), f"format: {fmt} → {CURRENT}")
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    lines.append(f"format: {CURRENT}  # the pack format (docs/formats.md)\n")
    where = Loc(rel(pack_file), len(lines), 1)
    return "".join(lines), Edit(where, f"format: {CURRENT} added (it was format {fmt})")


def _upgrade_deck(path: Path, deck_kind: str, fmt: int) -> tuple[str, list[Edit], list[Problem]]:
    """A YAML deck file with every renamed field of its components written the current way."""
    from ruamel.yaml.error import YAMLError

    text = path.read_text(encoding="utf-8")
    try:
        items = _round_trip(text)
    except YAMLError as exc:
        return text, [], [Problem("format.upgrade", f"the deck file does not parse: {exc}", Loc(rel(path)))]
    if not isinstance(items, list):
        return text, [], []
    lines = text.splitlines(keepends=True)
    edits: list[Edit] = []
    problems: list[Problem] = []
    planned: list[tuple[int, Renamed, Any, int]] = []  # (item index, change, its mapping, the key's line)
    for i, item in enumerate(items):
        if not hasattr(item, "lc"):
            continue
        kind = item.get("kind", deck_kind)
        for change in changes_for(str(kind), fmt):
            if change.old not in item:
                continue
            line = item.lc.key(change.old)[0]
            if change.new in item:
                problems.append(
                    Problem(
                        "format.upgrade",
                        f"both `{change.old}` and `{change.new}`: keep only `{change.new}`",
                        Loc(rel(path), line + 1),
                        str(item.get("id", "")),
                        change.old,
                    )
                )
                continue
            planned.append((i, change, item, line))
    # bottom up, so the lines of the edits still to make do not move
    for i, change, item, line in sorted(planned, key=lambda p: -p[3]):
        stop = _end_of_value(items, i, item, change.old, len(lines))
        _rename(lines, item, change, stop)
        shape = " (made a list)" if change.to_list else ""
        edits.append(
            Edit(Loc(rel(path), line + 1, item.lc.key(change.old)[1] + 1), f"{change.old} → {change.new}{shape}")
        )
    edits.sort(key=lambda e: e.loc.line or 0)
    return "".join(lines), edits, problems


def _end_of_value(items: list[Any], i: int, item: Any, key: str, total: int) -> int:
    """The line after a key's value ends: the next key of its mapping, else the next component."""
    keys = list(item)
    after = keys.index(key) + 1
    if after < len(keys):
        return int(item.lc.key(keys[after])[0])
    if i + 1 < len(items) and hasattr(items, "lc"):
        return int(items.lc.item(i + 1)[0])
    return total


def _rename(lines: list[str], item: Any, change: Renamed, stop: int) -> None:
    """The key renamed in place and, for a change to a list, its value made the list's one item: a
    value on the key's line moves to a `- ` line below it; a block value gets `- ` and two more
    spaces of indentation."""
    k_line, k_col = item.lc.key(change.old)
    v_line, v_col = item.lc.value(change.old)
    text = lines[k_line]
    assert text[k_col : k_col + len(change.old)] == change.old, (text, change.old)
    if not change.to_list:
        lines[k_line] = text[:k_col] + change.new + text[k_col + len(change.old) :]
        return
    if v_line == k_line:  # `back_effect: {type: stop}  # comment`
        indent = " " * (k_col + 2)
        lines[k_line] = text[:k_col] + change.new + ":\n" + indent + "- " + text[v_col:]
        return
    lines[k_line] = text[:k_col] + change.new + text[k_col + len(change.old) :]
    first = True
    for n in range(v_line, stop):
        body = lines[n]
        if not body.strip() or len(body) - len(body.lstrip(" ")) <= k_col:
            continue  # blank lines, and comments back at the key's level, stay
        if first:
            col = len(body) - len(body.lstrip(" "))
            lines[n] = body[:col] + "- " + body[col:]
            first = False
        else:
            lines[n] = "  " + body
