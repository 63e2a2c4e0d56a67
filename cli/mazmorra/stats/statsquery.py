"""A designer's own draw query (`--draw 5 --at-least 1 kind=curse`): parsed, checked against the
pack (a UsageError, exit 2, saying what is wrong), answered for every deck that has the field."""

from __future__ import annotations

from mazmorra.errors import UsageError, did_you_mean
from mazmorra.model.content import Pack
from mazmorra.stats.deckcounts import KIND_FIELD, NUMERIC, choices, field_shapes, odds, values_of
from mazmorra.stats.statvalues import DrawOdds, Query


def parse_query(draws: int, wanted: int, condition: str) -> Query:
    """`--draw N --at-least K FIELD=VALUE` as a Query; a UsageError for what cannot be asked."""
    field, eq, value = condition.partition("=")
    field, value = field.strip(), value.strip()
    if not eq or not field or not value:
        raise UsageError(f"'{condition}' is not FIELD=VALUE (e.g. kind=curse, type=destino, cost=3)")
    if draws < 1:
        raise UsageError(f"--draw {draws}: draw at least 1 card")
    if wanted < 1:
        raise UsageError(f"--at-least {wanted}: ask for at least 1")
    if wanted > draws:
        raise UsageError(f"--at-least {wanted} is more than the {draws} card(s) drawn (--draw {draws})")
    return Query(draws, wanted, field, value)


def answer(pack: Pack, query: Query) -> tuple[DrawOdds, ...]:
    """The query's chance in every deck whose kind has the field (and, for a choice, that value)."""
    decks = [d for d in pack.decks if query.field == KIND_FIELD or query.field in field_shapes(d.kind.model)]
    if not decks:
        known = sorted({KIND_FIELD} | {f for d in pack.decks for f in field_shapes(d.kind.model)})
        raise UsageError(
            f"no deck of {pack.id} has a field '{query.field}'{did_you_mean(query.field, known)} "
            f"(fields stats can count: {', '.join(known)})"
        )
    seen: set[str] = set()
    out = []
    for deck in decks:
        values = {v for held, _ in values_of(deck, query.field) for v in held}
        if query.field != KIND_FIELD and field_shapes(deck.kind.model)[query.field] != NUMERIC:
            values |= set(choices(deck.kind.model, query.field))
        seen |= values
        if query.value in values:
            out.append(odds(deck, query))
    if not out:
        raise UsageError(
            f"no component of {pack.id} has {query.field}={query.value}{did_you_mean(query.value, seen)} "
            f"(its values: {', '.join(sorted(seen))})"
        )
    return tuple(out)
