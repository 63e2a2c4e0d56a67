"""A `PackStats` as labelled lines in one language: what the terminal table prints and what `--since`
compares, figure by figure. Every line has a key that does not depend on the language (the same
figure of two revisions has the same key), its section, its label and its value as written in the
language; the fixed words are labels (the tool's catalogue, then the pack's: msgctxt "label")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from mazmorra.i18n.labels import number_formatter
from mazmorra.stats.statvalues import DeckStats, DrawOdds, DungeonStats, PackStats, SetupStats


class LabelWords(Protocol):
    """Labels in one language (`i18n.labels.Labels`)."""

    def __call__(self, msgid: str) -> str: ...


@dataclass(frozen=True)
class Figure:
    """One figure: `number` is what `--since` compares (None: the text is)."""

    key: str
    section: str
    label: str
    value: str
    number: Fraction | None = None
    warning: bool = False  # a rare dice table row


# The measures of generated dungeons, as labels (dungeonspread.MEASURES' names).
MEASURE_LABELS = {
    "rooms": "Rooms",
    "corridor sections": "Corridor sections",
    "dead ends": "Dead ends",
    "doors": "Doors",
    "secret doors": "Secret doors",
    "longest path": "Longest path (areas)",
}


class FigureWriter:
    """Numbers and chances as the language writes them ("16,7 %" in Spanish)."""

    def __init__(self, words: LabelWords, lang: str):
        self._ = words
        self.num: Callable[..., str] = number_formatter(lang)

    def chance(self, value: Fraction) -> str:
        return f"{value.numerator}/{value.denominator} · {self.num(float(value) * 100, 1)} %"

    def say(self, msgid: str, **values: object) -> str:
        return self._(msgid) % {k: str(v) for k, v in values.items()} if values else self._(msgid)


def lines(stats: PackStats, words: LabelWords) -> tuple[Figure, ...]:
    """Every figure of `stats`, section by section."""
    w = FigureWriter(words, stats.lang)
    out: list[Figure] = []
    for deck in stats.decks:
        out += _deck(deck, w)
    for bag in stats.bags:
        section = w.say("Bag: %(name)s", name=bag.name)
        for chip in bag.chips:
            out.append(
                Figure(
                    f"bag:{bag.bag}/chip:{chip.chip}",
                    section,
                    w.say("%(chip)s per draw", chip=chip.name),
                    w.chance(chip.per_draw),
                    chip.per_draw,
                )
            )
        for face in bag.faces:
            key = f"bag:{bag.bag}/face:{face.face}"
            for suffix, msgid, value in (
                ("", "A draw offers %(face)s", face.per_draw),
                ("/run2", "%(face)s in the next 2 draws in a row", face.run_of_2),
                ("/run3", "%(face)s in the next 3 draws in a row", face.run_of_3),
            ):
                out.append(Figure(key + suffix, section, w.say(msgid, face=face.face), w.chance(value), value))
    for table in stats.tables:
        section = w.say("Dice table: %(name)s (%(die)s)", name=table.name, die=table.die)
        for row in table.rows:
            shown = w.chance(row.chance) + (" " + w.say("rare") if row.rare else "")
            label = w.say("%(rolls)s: %(result)s", rolls=row.rolls, result=row.result)
            out.append(Figure(f"table:{table.table}/{row.rolls}", section, label, shown, row.chance, row.rare))
    for dist in stats.dice:
        section = w.say("Dice: %(die)s", die=dist.die)
        for total, chance in dist.totals:
            label = w.say("Total %(total)s", total=total)
            out.append(Figure(f"dice:{dist.die}/{total}", section, label, w.chance(chance), chance))
    if stats.dungeons is not None:
        out += _dungeons(stats.dungeons, w)
    if stats.setup is not None:
        out += _setup(stats.setup, w)
    deck_names = {d.deck: d.name for d in stats.decks}
    for draw in stats.query:
        label = w.say(
            "%(deck)s: at least %(k)s %(field)s = %(value)s in the first %(n)s draws",
            deck=deck_names.get(draw.deck, draw.deck),
            k=draw.at_least,
            field=draw.field,
            value=draw.value,
            n=draw.draws,
        )
        key = f"query/{draw.deck}/{draw.field}={draw.value}/{draw.at_least}in{draw.draws}"
        out.append(Figure(key, w.say("Your query"), label, w.chance(draw.chance), draw.chance))
    return tuple(out)


def _deck(deck: DeckStats, w: FigureWriter) -> Iterator[Figure]:
    section = w.say("Deck: %(name)s", name=deck.name)
    key = f"deck:{deck.deck}"
    yield Figure(f"{key}/copies", section, w.say("Copies"), w.num(deck.copies), Fraction(deck.copies))
    for f in deck.fields:
        for c in f.counts:
            label = w.say("Copies with %(field)s = %(value)s", field=f.field, value=c.value)
            yield Figure(f"{key}/{f.field}={c.value}", section, label, w.num(c.copies), Fraction(c.copies))
        if f.mean is not None:
            yield Figure(
                f"{key}/{f.field}/mean",
                section,
                w.say("Mean %(field)s", field=f.field),
                w.num(float(f.mean), 2),
                f.mean,
            )
    for draw in deck.draws:
        yield _draw(draw, w, section, f"{key}/draw:{draw.named}")


def draw_label(draw: DrawOdds, w: FigureWriter) -> str:
    """What a deck's draw odds answer, in words: in a hand, in a draw its kind's rules name (by the
    name the kind file gives it), or in the first draws."""
    values = {"k": draw.at_least, "n": draw.draws, "field": draw.field, "value": draw.value, "draw": draw.named}
    if draw.named == "hand":
        msgid = "At least %(k)s %(field)s = %(value)s in a hand of %(n)s"
    elif draw.named:
        msgid = "At least %(k)s %(field)s = %(value)s in %(draw)s: %(n)s draws"
    else:
        msgid = "At least %(k)s %(field)s = %(value)s in the first %(n)s draws"
    return w.say(msgid, **values)


def _draw(draw: DrawOdds, w: FigureWriter, section: str, key: str) -> Figure:
    key = f"{key}/{draw.field}={draw.value}/{draw.at_least}in{draw.draws}"
    return Figure(key, section, draw_label(draw, w), w.chance(draw.chance), draw.chance)


def _dungeons(d: DungeonStats, w: FigureWriter) -> Iterator[Figure]:
    section = w.say("Generated dungeons: %(n)s seeds from %(seed)s", n=d.seeds, seed=d.first_seed)
    for s in d.spreads:
        value = w.say(
            "min %(low)s · median %(median)s · max %(high)s · mean %(mean)s",
            low=s.low,
            median=w.num(float(s.median), 1),
            high=s.high,
            mean=w.num(float(s.mean), 1),
        )
        yield Figure(f"dungeons/{s.measure}", section, w.say(MEASURE_LABELS[s.measure]), value, s.mean)


def _setup(s: SetupStats, w: FigureWriter) -> Iterator[Figure]:
    section = w.say("Per player colour: %(colours)s", colours=", ".join(s.colours))
    for row in s.rows:
        value = " · ".join(f"{c} {n}" for c, n in zip(s.colours, row.copies))
        yield Figure(f"setup/{row.kind}", section, row.kind, value)
