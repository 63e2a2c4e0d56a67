"""The pack format: pack.yaml's `format: N`, and every change between formats as data, so a pack
written for an earlier format is read (upgraded in memory, with a warning naming each change) and
rewritten by `mazmorra upgrade` (tools/upgrade.py). A pack without `format:` was written before formats
were numbered: format 1, the one before `back_effect` became the list `back_effects`.

A renamed field is read under its old name, with a deprecation warning, for at least one format after
the one that renamed it (`until`, exclusive); from then on the old name is refused with the way out."""

from __future__ import annotations

from dataclasses import dataclass

from mazmorra.errors import Loc, Problem, Severity
from mazmorra.source.yamlsafe import YList, YMap

CURRENT = 2  # what this version writes and reads without a warning
UNNUMBERED = 1  # a pack.yaml without `format:`


@dataclass(frozen=True)
class Renamed:
    """A component field renamed in format `since` (and, with `to_list`, made a list whose one item is
    the old value); read under its old name until format `until`."""

    kind: str
    old: str
    new: str
    since: int
    until: int
    to_list: bool = False
    what: str = ""  # what the items of the list are, for the message

    def describe(self) -> str:
        """The change in words: `back_effect` became `back_effects` (a list of zone effects)."""
        shape = f" (a list of {self.what}: the old value is its one item)" if self.to_list else ""
        return f"`{self.old}` became `{self.new}` in pack format {self.since}{shape}"


CHANGES: tuple[Renamed, ...] = (
    Renamed("boss", "back_effect", "back_effects", since=2, until=4, to_list=True, what="zone effects"),
)

UPGRADE_HINT = "run `mazmorra upgrade PACK` to rewrite the pack in the current format"


def changes_for(kind: str, fmt: int) -> list[Renamed]:
    """The renames that apply to a component of `kind` in a pack of format `fmt` (a pack of the
    current format still has its deprecated names read, until they are removed)."""
    return [c for c in CHANGES if c.kind == kind and fmt < c.until]


def upgrade_entry(fields: YMap, kind: str, fmt: int, component: str) -> tuple[YMap, list[Problem]]:
    """One component's fields as the current format names them, and a warning for each renamed field
    it used (an error when it also has the new name). The mapping keeps its order and locations."""
    todo = [c for c in changes_for(kind, fmt) if c.old in fields]
    if not todo:
        return fields, []
    problems: list[Problem] = []
    renamed = {c.old: c for c in todo}
    out = YMap()
    out.loc, out.locs = fields.loc, {}
    for key, value in fields.items():
        change = renamed.get(key)
        loc = fields.locs.get(key, fields.loc)
        if change is None:
            out[key], out.locs[key] = value, loc
            continue
        if change.new in fields:
            problems.append(
                Problem(
                    "format.renamed",
                    f"both `{change.old}` and `{change.new}`: {change.describe()}; keep only `{change.new}`",
                    loc,
                    component,
                    change.old,
                )
            )
            continue
        if change.to_list:
            items = YList([value])
            items.loc, items.locs = loc, [loc]
            value = items
        out[change.new], out.locs[change.new] = value, loc
        problems.append(
            Problem(
                "format.renamed",
                f"{change.describe()}; read as `{change.new}`: {UPGRADE_HINT}",
                loc,
                component,
                change.old,
                severity=Severity.WARNING,
            )
        )
    return out, problems


def newer_than_known(fmt: int, where: Loc) -> Problem | None:
    """A pack written for a later format than this version reads."""
    if fmt <= CURRENT:
        return None
    return Problem(
        "format.newer",
        f"the pack is in format {fmt}; this version of mazmorra reads formats up to {CURRENT}: install a newer one",
        where,
        "pack",
        "format",
    )
