"""The values the stats stage returns: frozen dataclasses, every chance an exact `Fraction`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Query:
    """A designer's own question: the chance of at least `at_least` components whose `field` is
    `value` within the first `draws` draws of a deck (`--draw 5 --at-least 1 kind=curse`)."""

    draws: int
    at_least: int
    field: str
    value: str


@dataclass(frozen=True)
class StatsOptions:
    """What `stats` is asked for besides the pack: a query, the generator's sample and the rare-row line."""

    query: Query | None = None
    seeds: int = 200  # generated dungeons sampled
    first_seed: int = 1  # seeds first_seed .. first_seed + seeds - 1: the same numbers every run
    rare_row: Fraction | None = (
        None  # a dice table row less likely is flagged (None: the pack's `game: dungeon: rare_row:`, 1 %)
    )


@dataclass(frozen=True)
class ValueCount:
    """How many copies of a deck hold one value of a field."""

    value: str
    copies: int


@dataclass(frozen=True)
class FieldCounts:
    """Copies by each value of one enum or numeric field; a numeric field's curve is its counts in
    order of value, with its mean."""

    field: str
    numeric: bool
    counts: tuple[ValueCount, ...]
    mean: Fraction | None = None  # numeric fields only, over the copies that give a value


@dataclass(frozen=True)
class DrawOdds:
    """The exact chance of at least `at_least` copies with `field` = `value` among the first `draws`
    cards of a shuffled deck (hypergeometric); `named` is the rule that names the draw, `source` its
    rulebook passage ("" for a designer's own query or the default look at the first draws)."""

    deck: str
    field: str
    value: str
    draws: int
    at_least: int
    chance: Fraction
    named: str = ""
    source: str = ""


@dataclass(frozen=True)
class DeckStats:
    deck: str
    name: str  # in the language asked for
    kind: str
    copies: int
    fields: tuple[FieldCounts, ...]
    draws: tuple[DrawOdds, ...]


@dataclass(frozen=True)
class ChipOdds:
    """One chip of a bag: how many the bag holds and the chance that a draw brings it."""

    chip: str  # face/face, as the bag lists it
    name: str
    count: int
    per_draw: Fraction


@dataclass(frozen=True)
class FaceOdds:
    """One chip face (an icon, whatever its number): the chance that a draw offers it (either face of the chip drawn), and that the
    next 2 and 3 draws all do (a run), drawing without replacement."""

    face: str
    per_draw: Fraction
    run_of_2: Fraction
    run_of_3: Fraction


@dataclass(frozen=True)
class BagStats:
    bag: str
    name: str
    total: int
    chips: tuple[ChipOdds, ...]
    faces: tuple[FaceOdds, ...]


@dataclass(frozen=True)
class RowOdds:
    """One row of a dice table: its rolls, what it says and its exact chance."""

    rolls: str
    result: str
    ways: int
    of: int
    chance: Fraction
    rare: bool


@dataclass(frozen=True)
class TableStats:
    table: str
    name: str
    die: str
    rows: tuple[RowOdds, ...]


@dataclass(frozen=True)
class Distribution:
    """Every total of a die expression and its exact chance."""

    die: str
    totals: tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class Spread:
    """One measure of the generated dungeons over the sample: lowest, median, highest and mean."""

    measure: str
    low: int
    median: Fraction
    high: int
    mean: Fraction


@dataclass(frozen=True)
class DungeonStats:
    seeds: int
    first_seed: int
    spreads: tuple[Spread, ...]


@dataclass(frozen=True)
class SetupRow:
    """One kind of component and how many copies each player colour gets."""

    kind: str
    copies: tuple[int, ...]  # in the order of `SetupStats.colours`


@dataclass(frozen=True)
class SetupStats:
    colours: tuple[str, ...]
    rows: tuple[SetupRow, ...]


@dataclass(frozen=True)
class PackStats:
    """Everything `mazmorra stats` shows about one pack in one language."""

    pack: str
    name: str
    lang: str
    decks: tuple[DeckStats, ...]
    bags: tuple[BagStats, ...] = ()
    tables: tuple[TableStats, ...] = ()
    dice: tuple[Distribution, ...] = ()
    dungeons: DungeonStats | None = None
    setup: SetupStats | None = None
    query: tuple[DrawOdds, ...] = ()
    rare_row: Fraction = Fraction(1, 100)
