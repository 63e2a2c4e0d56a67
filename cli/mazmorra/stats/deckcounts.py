"""Every deck's copies by each enum and numeric field its kind declares (built-in and declared kinds
alike, read off the kind's model), the curves of its numeric fields and its draw odds."""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Iterable, Iterator
from enum import Enum
from fractions import Fraction
from typing import Any, Literal, Union, get_args, get_origin

from mazmorra.model.content import ComponentModel, Deck
from mazmorra.stats.drawodds import at_least
from mazmorra.stats.nameddraws import NamedDraw
from mazmorra.stats.statvalues import DeckStats, DrawOdds, FieldCounts, Query, ValueCount

KIND_FIELD = "kind"  # every deck can be asked about its components' kind (`kind=curse`)
DEFAULT_DRAWS = 3  # with no draw its rules name, a deck shows its first 3 draws
ENUM, NUMERIC, TAGS = "enum", "numeric", "tags"


def field_shapes(model: type[ComponentModel]) -> dict[str, str]:
    """The fields stats count, by shape: enum (a choice or a yes/no), numeric (a whole number), tags
    (a list of choices: a component counts once under each it holds)."""
    shapes = {}
    for name, info in model.model_fields.items():
        if name in ComponentModel.model_fields:
            continue
        shape = _shape(_required(info.annotation))
        if shape is not None:
            shapes[name] = shape
    return shapes


def _required(annotation: Any) -> Any:
    """An optional field's type without its None."""
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def _shape(annotation: Any) -> str | None:
    if get_origin(annotation) is Literal or annotation is bool:
        return ENUM
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return ENUM
    if annotation is int:
        return NUMERIC
    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (None,)
        if get_origin(item) is Literal:
            return TAGS
    return None


def choices(model: type[ComponentModel], name: str) -> tuple[str, ...]:
    """An enum or tags field's declared values, as text ("" when it declares none)."""
    annotation = _required(model.model_fields[name].annotation)
    if annotation is bool:
        return ("true", "false")
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(text(m.value) for m in annotation)
    return tuple(text(v) for v in get_args(annotation))


def text(value: object) -> str:
    """A field's value as a query and the tables write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return text(value.value)
    return str(value)


def values_of(deck: Deck, name: str) -> Iterator[tuple[tuple[str, ...], int]]:
    """Each component's values of a field (several for tags, none when left out) and its copies."""
    for comp in deck.components:
        if name == KIND_FIELD:
            yield (comp.kind.name,), comp.data.copies
            continue
        found = getattr(comp.data, name, None)
        if found is None:
            yield (), comp.data.copies
        elif isinstance(found, list):
            yield tuple(dict.fromkeys(text(v) for v in found)), comp.data.copies
        else:
            yield (text(found),), comp.data.copies


def counts(deck: Deck, name: str, shape: str) -> FieldCounts:
    """Copies by each value of a field: declared values in their order (a value no card holds shows 0),
    numbers from lowest to highest."""
    tally: Counter[str] = Counter()
    for held, copies in values_of(deck, name):
        for v in held:
            tally[v] += copies
    if shape == NUMERIC:
        order = sorted(tally, key=int)
        given = sum(tally.values())
        mean = Fraction(sum(int(v) * n for v, n in tally.items()), given) if given else None
        return FieldCounts(name, True, tuple(ValueCount(v, tally[v]) for v in order), mean)
    declared = choices(deck.kind.model, name)
    order = list(declared) + [v for v in tally if v not in declared]
    return FieldCounts(name, False, tuple(ValueCount(v, tally[v]) for v in order))


def odds(deck: Deck, query: Query, named: str = "", source: str = "") -> DrawOdds:
    """The chance the query asks for in this deck."""
    total = sum(c.data.copies for c in deck.components)
    hits = sum(copies for held, copies in values_of(deck, query.field) if query.value in held)
    chance = at_least(total, hits, query.draws, query.at_least)
    return DrawOdds(deck.id, query.field, query.value, query.draws, query.at_least, chance, named, source)


def category_field(deck: Deck, shapes: dict[str, str]) -> str | None:
    """The field a deck's draws are shown for: the one its counts are declared by, else its first choice."""
    if deck.kind.count_field in shapes and shapes[deck.kind.count_field] != NUMERIC:
        return deck.kind.count_field
    return next((n for n, s in shapes.items() if s == ENUM and choices(deck.kind.model, n) != ("true", "false")), None)


def deck_stats(deck: Deck, name: str, named: Iterable[NamedDraw]) -> DeckStats:
    """A deck's counts, curves and draw odds: the draws its family's rules name, else its first draws.
    A field no component of the deck gives a value says nothing about it and is left out."""
    shapes = field_shapes(deck.kind.model)
    fields = tuple(c for c in (counts(deck, f, s) for f, s in shapes.items()) if any(n.copies for n in c.counts))
    draws: list[DrawOdds] = []
    category = category_field(deck, {f.field: shapes[f.field] for f in fields})
    total = sum(c.data.copies for c in deck.components)
    if category is not None and total > 1:
        named_draws = [d for d in named if d.kind == deck.kind.name] or [NamedDraw(deck.kind.name, DEFAULT_DRAWS)]
        held = next(f for f in fields if f.field == category)
        for draw in named_draws:
            for count in held.counts:
                if count.copies:
                    query = Query(min(draw.draws, total), 1, category, count.value)
                    draws.append(odds(deck, query, draw.name, draw.source))
    return DeckStats(deck.id, name, deck.kind.name, total, fields, tuple(draws))
