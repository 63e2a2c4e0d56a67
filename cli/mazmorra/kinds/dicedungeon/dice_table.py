"""Dice table (spec E): a die expression and rows of roll ranges with their results, printed as a
reference card with each row's odds. Its rules prove the table sound: every possible roll falls in
exactly one row, no row asks for a roll the die cannot give, and the die itself can be rolled."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    computed_field,
    field_validator,
    model_validator,
)

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.dicedungeon import FAMILY
from mazmorra.kinds.dicedungeon.dice import Dice, DiceError, parse_dice
from mazmorra.model.content import ID_PATTERN, ComponentModel, Deck, Kind, Pack, Strict, of

# What the generator rolls each table for, and the outcomes it understands from its rows.
ROLES: dict[str, tuple[str, ...]] = {
    "corridor-length": ("1", "2", "3", "4", "5", "6", "special"),
    "corridor-features": ("empty", "one-door", "two-doors", "gm-choice"),
    "corridor-end": (
        "x-junction",
        "dead-end",
        "turn-right",
        "t-junction",
        "turn-left",
        "stairs-down",
        "stairs-up",
        "special",
    ),
    "room-type": ("empty", "special", "lair", "quest"),
    "room-doors": ("no-doors", "one-door", "two-doors"),
}
Role = Literal["corridor-length", "corridor-features", "corridor-end", "room-type", "room-doors"]
_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:(?:-|–|\.\.)\s*(-?\d+)|(\+))?\s*$")


class Rolls(BaseModel):
    """The totals one row answers: low..high; `high` None for "low or more" (written `11+`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: int
    high: int | None

    def upto(self, dice: Dice) -> int:
        return dice.highest if self.high is None else self.high

    def text(self) -> str:
        """As printed: 5, 1–4, 11+."""
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


def _rolls(value: Any) -> Any:
    """'1-4', '1–4', '12', 12 or '11+' -> Rolls."""
    if isinstance(value, dict | Rolls):
        return value
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("a roll is a number (12), a range (1-4) or a number and up (11+)")
    m = _RANGE.match(str(value))
    if m is None:
        raise ValueError(f"'{value}' is not a roll: write a number (12), a range (1-4) or a number and up (11+)")
    low = int(m.group(1))
    high = None if m.group(3) else int(m.group(2) or low)
    if high is not None and high < low:
        raise ValueError(f"'{value}': the range runs backwards (write {high}-{low})")
    return {"low": low, "high": high}


class Row(Strict):
    """One row: the rolls it answers and what they mean."""

    roll: Annotated[
        Rolls,
        BeforeValidator(_rolls),
        WithJsonSchema(
            {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": r"^\s*-?\d+\s*((-|–|\.\.)\s*-?\d+|\+)?\s*$"}]}
        ),
    ] = Field(description="1-4, 12 or 11+")
    result: str | None = Field(None, min_length=1, max_length=120, description="what the roll means (translated)")
    then: str | None = Field(None, pattern=ID_PATTERN, description="another table to roll on next (its id)")
    outcome: Annotated[str | None, WithJsonSchema({"type": ["string", "integer", "null"]})] = Field(
        None, max_length=30, description="what the generator makes of it (see the role)"
    )

    @field_validator("outcome", mode="before")
    @classmethod
    def _outcome(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("result")
    @classmethod
    def _one_line(cls, v: str | None) -> str | None:
        if v is not None and "\n" in v:
            raise ValueError("a result is one line; put longer explanations in the table's note")
        return v

    @model_validator(mode="after")
    def _says_something(self) -> Row:
        if self.result is None and self.then is None:
            raise ValueError("a row needs a result, a table to roll on next (then), or both")
        return self


class DiceTable(ComponentModel):
    name: str = Field(min_length=1, max_length=50, description="the table's title")
    die: str = Field(min_length=1, max_length=40, description="the die expression: 1d12, 2d12, 1d6+1 …")
    role: Role | None = Field(None, description="what `mazmorra generate` rolls it for; none for tables rows refer to")
    rows: list[Row] = Field(min_length=1, max_length=30, description="in order of their rolls")
    note: str | None = Field(None, max_length=400, description="an explanation printed under the rows (translated)")

    @cached_property
    def dice(self) -> Dice | None:
        """The die parsed once; None when it cannot be rolled (reported by dice_table.die)."""
        try:
            return parse_dice(self.die)
        except DiceError:
            return None

    @property
    def ranges(self) -> str:
        """What the table means, total by total ("1-4 1; 5-9 2; …": runs of totals and each row's outcome,
        `then` when it sends the roll on): what a reference edition compares, whatever the rows' order."""
        dice = self.dice
        if dice is None:
            return "; ".join(f"{r.roll.text()} {_said(r)}" for r in self.rows)
        return meaning((r.roll.low, r.roll.upto(dice), _said(r)) for r in self.rows)

    def edition_value(self, field: str) -> str:
        """The value a reference edition compares, in the form `edition_form` gives its text."""
        return self.edition_form(field, self.die) if field == "die" else str(getattr(self, field, None))

    @staticmethod
    def edition_form(field: str, text: str) -> str:
        """A reference edition's text in the form the table's values are compared in: a die as it rolls
        (`1D12` is `1d12`), rows as totals and their outcomes (reordered or split rows mean the same)."""
        if field == "die":
            try:
                return str(parse_dice(text))
            except DiceError:
                return text
        if field == "ranges":
            rows = []
            for part in text.split(";"):
                rolls, _, said = part.strip().partition(" ")
                low, _, high = rolls.partition("-")
                rows.append((int(low), int(high or low), said.strip()))
            return meaning(rows)
        return text

    def edition_where(self, field: str, want: str) -> str:
        """The path of the first row that means something else than `want` says (for a message's line)."""
        if field != "ranges" or self.dice is None:
            return field
        have, wanted = _totals(self.ranges), _totals(want)
        first = next((t for t in sorted(set(have) | set(wanted)) if have.get(t) != wanted.get(t)), None)
        if first is None:
            return "rows"
        row = self.row_for(first)  # the row that says otherwise, else the one the missing total follows
        row = row if row is not None else self.row_for(first - 1)
        return f"rows.{row}" if row is not None else "rows"

    def printed(self) -> list[tuple[str, str, str]]:
        """Each row's printed result with its outcome: (path, outcome, result) for a reference's words."""
        return [(f"rows.{i}", r.outcome or "", r.result) for i, r in enumerate(self.rows) if r.outcome and r.result]

    @property
    def results(self) -> tuple[str, ...]:
        """Every row's result, "" for a row that only names a table: what translators translate."""
        return tuple(r.result or "" for r in self.rows)

    @computed_field
    def odds(self) -> list[dict[str, Any]]:
        """Per row, for templates: the rolls as printed and the row's chance as a fraction and a percentage."""
        dice = self.dice
        if dice is None:
            return []
        total = dice.combinations
        out = []
        for row in self.rows:
            ways = dice.chance(row.roll.low, row.roll.upto(dice))
            out.append({"rolls": row.roll.text(), "ways": ways, "of": total, "percent": 100.0 * ways / total})
        return out

    def row_for(self, total: int) -> int | None:
        """The (0-based) first row holding a total; None when none does (or the die is invalid)."""
        dice = self.dice
        if dice is None:
            return None
        return next((i for i, r in enumerate(self.rows) if r.roll.low <= total <= r.roll.upto(dice)), None)


def _said(row: Row) -> str:
    return (row.outcome or "-") + (" then" if row.then else "")


def meaning(rows: Iterable[tuple[int, int, str]]) -> str:
    """Rows (low, high, what they say) as the runs of totals each says, in the order of the totals; a
    total two rows hold is the first's (as a roll reads it)."""
    said: dict[int, str] = {}
    for low, high, what in rows:
        for total in range(low, high + 1):
            said.setdefault(total, what)
    runs: list[tuple[int, int, str]] = []
    for total in sorted(said):
        if runs and runs[-1][1] == total - 1 and runs[-1][2] == said[total]:
            runs[-1] = (runs[-1][0], total, said[total])
        else:
            runs.append((total, total, said[total]))
    return "; ".join(f"{a} {what}" if a == b else f"{a}-{b} {what}" for a, b, what in runs)


def _totals(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for part in text.split(";"):
        rolls, _, said = part.strip().partition(" ")
        low, _, high = rolls.partition("-")
        if low.lstrip("-").isdigit():
            out |= {t: said for t in range(int(low), int(high or low) + 1)}
    return out


def _rows_named(indices: Iterable[int], table: DiceTable) -> str:
    return ", ".join(f"row {i + 1} ({table.rows[i].roll.text()})" for i in indices)


def die_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dice_table.die: the die expression can be rolled (1d0 cannot)."""
    for comp, table in of(deck.components, DiceTable):
        try:
            parse_dice(table.die)
        except DiceError as exc:
            yield Problem("dice_table.die", str(exc), comp.field_loc("die"), comp.id, "die")


def coverage(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """Every total the die can give falls in exactly one row: each gap and each overlap reported
    with the rows around it; a row asking for totals the die never gives is out of bounds."""
    for comp, table in of(deck.components, DiceTable):
        dice = table.dice
        if dice is None:
            continue
        low, high = dice.lowest, dice.highest
        holders: dict[int, list[int]] = {}
        for i, row in enumerate(table.rows):
            top = row.roll.upto(dice)
            if row.roll.low > high or top < low or row.roll.low < low or top > high:
                yield Problem(
                    "dice_table.bounds",
                    f"row {i + 1} ({row.roll.text()}) asks for totals {table.die} never gives: it rolls {low}–{high}",
                    comp.field_loc(f"rows.{i}"),
                    comp.id,
                    f"rows.{i + 1}.roll",
                )
            for total in range(max(row.roll.low, low), min(top, high) + 1):
                holders.setdefault(total, []).append(i)
        for start, end, rows in _runs(low, high, holders):
            if not rows:
                near = sorted(set(holders.get(start - 1, []) + holders.get(end + 1, [])))
                yield Problem(
                    "dice_table.gap",
                    f"no row holds {_span(start, end)} ({table.die} rolls {'it' if start == end else 'them'} "
                    f"{_percent(dice, start, end)} of the time)"
                    + (f"; it falls between {_rows_named(near, table)}" if near else ""),
                    comp.field_loc(f"rows.{near[0]}") if near else comp.field_loc("rows"),
                    comp.id,
                    "rows",
                )
            elif len(rows) > 1:
                yield Problem(
                    "dice_table.overlap",
                    f"{_span(start, end)} is in {len(rows)} rows: {_rows_named(rows, table)}",
                    comp.field_loc(f"rows.{rows[1]}"),
                    comp.id,
                    f"rows.{rows[1] + 1}.roll",
                )


def _runs(low: int, high: int, holders: dict[int, list[int]]) -> Iterable[tuple[int, int, list[int]]]:
    """Consecutive totals held by the same rows, as (first, last, rows)."""
    start, current = low, holders.get(low, [])
    for total in range(low + 1, high + 2):
        now = holders.get(total, []) if total <= high else None
        if now != current:
            yield start, total - 1, current
            start, current = total, now or []


def _span(start: int, end: int) -> str:
    return f"roll {start}" if start == end else f"rolls {start}–{end}"


def _percent(dice: Dice, low: int, high: int) -> str:
    return f"{100.0 * dice.chance(low, high) / dice.combinations:.1f}%"


def outcomes_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dice_table.outcome: a table the generator rolls says, on every row, what it means in its terms."""
    for comp, table in of(deck.components, DiceTable):
        if table.role is None:
            continue
        known = ROLES[table.role]
        for i, row in enumerate(table.rows):
            if row.outcome is None or row.outcome not in known:
                what = "has no outcome" if row.outcome is None else f"has outcome '{row.outcome}'"
                yield Problem(
                    "dice_table.outcome",
                    f"row {i + 1} ({row.roll.text()}) {what}; a {table.role} table's rows say one of: "
                    f"{', '.join(known)}",
                    comp.field_loc(f"rows.{i}"),
                    comp.id,
                    f"rows.{i + 1}.outcome",
                )


KIND = register(
    Kind(
        name="dice_table",
        family=FAMILY,
        model=DiceTable,
        template="dice_table.xml.j2",
        back_template=None,
        size="90x130mm",
        translatable=("name", "results", "note"),
        count_field="role",
        deck_rules=(die_valid, coverage, outcomes_known),
        reads_settings=False,
        summary="Dice table: a die (1d12, 2d12, 1d6+1 …) and rows of rolls and results, checked for gaps and "
        "overlaps, printed with each row's odds.",
    )
)
