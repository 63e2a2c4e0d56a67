"""The gallery's Numbers page (output/<pack>/gallery/numbers.html): every figure of `stats` in every
language of the build, each chart a hand-drawn SVG of bars with its table beside it (the table is
what a screen reader reads; the chart is marked as an image described by its title). One
self-contained file, no script, no network."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from mazmorra.model.content import Pack
from mazmorra.stats.statslines import MEASURE_LABELS, FigureWriter, LabelWords, draw_label
from mazmorra.stats.statvalues import DeckStats, PackStats, StatsOptions

BAR_W = 260  # px: the longest bar
ROW_H = 20
LABEL_W = 120


@dataclass(frozen=True)
class Chart:
    """A bar chart and its table: rows of (label, length, value as written), the length a number the
    longest bar is drawn at BAR_W of."""

    title: str
    head: tuple[str, str]
    rows: tuple[tuple[str, Fraction, str], ...]
    plain: bool = False  # a table with no chart (the rows do not compare as bars)


def charts(stats: PackStats, w: FigureWriter) -> Iterator[tuple[str, list[Chart]]]:
    """Each section of the page and its charts, in the order the terminal shows them."""
    for deck in stats.decks:
        yield w.say("Deck: %(name)s", name=deck.name), list(_deck(deck, w))
    for bag in stats.bags:
        faces = tuple((f.face, f.per_draw, w.chance(f.per_draw)) for f in bag.faces)
        chips = tuple((c.name, c.per_draw, w.chance(c.per_draw)) for c in bag.chips)
        chance = w.say("Chance")
        yield (
            w.say("Bag: %(name)s", name=bag.name),
            [
                Chart(w.say("Faces per draw"), (w.say("Face"), chance), faces),
                Chart(w.say("Chips per draw"), (w.say("Chip"), chance), chips),
            ],
        )
    for table in stats.tables:
        rows = tuple((f"{r.rolls}: {r.result}", r.chance, w.chance(r.chance)) for r in table.rows)
        title = w.say("Dice table: %(name)s (%(die)s)", name=table.name, die=table.die)
        yield title, [Chart(title, (w.say("Roll"), w.say("Chance")), rows)]
    for dist in stats.dice:
        rows = tuple((str(t), c, w.chance(c)) for t, c in dist.totals)
        title = w.say("Dice: %(die)s", die=dist.die)
        yield title, [Chart(title, (w.say("Total"), w.say("Chance")), rows)]
    if stats.dungeons is not None:
        d = stats.dungeons
        title = w.say("Generated dungeons: %(n)s seeds from %(seed)s", n=d.seeds, seed=d.first_seed)
        rows = tuple(
            (
                w.say(MEASURE_LABELS[s.measure]),
                s.mean,
                w.say(
                    "min %(low)s · median %(median)s · max %(high)s · mean %(mean)s",
                    low=s.low,
                    median=w.num(float(s.median), 1),
                    high=s.high,
                    mean=w.num(float(s.mean), 1),
                ),
            )
            for s in d.spreads
        )
        yield title, [Chart(title, ("", ""), rows, plain=True)]
    if stats.setup is not None:
        title = w.say("Per player colour: %(colours)s", colours=", ".join(stats.setup.colours))
        rows = tuple(
            (r.kind, Fraction(0), " · ".join(f"{c} {n}" for c, n in zip(stats.setup.colours, r.copies)))
            for r in stats.setup.rows
        )
        yield title, [Chart(title, ("", ""), rows, plain=True)]


def _deck(deck: DeckStats, w: FigureWriter) -> Iterator[Chart]:
    copies = w.say("Copies")
    for f in deck.fields:
        if len(f.counts) > 1:
            rows = tuple((c.value, Fraction(c.copies), w.num(c.copies)) for c in f.counts)
            yield Chart(w.say("Copies by %(field)s", field=f.field), (f.field, copies), rows)
    if deck.draws:
        rows = tuple((draw_label(d, w), d.chance, w.chance(d.chance)) for d in deck.draws)
        yield Chart(w.say("Draw odds"), (w.say("Draw"), w.say("Chance")), rows)


def _svg(chart: Chart, ident: str) -> str:
    top = max((length for _, length, _ in chart.rows), default=Fraction(0)) or Fraction(1)
    height = ROW_H * len(chart.rows) + 4
    width = LABEL_W + BAR_W + 8
    bars = []
    for i, (label, length, _) in enumerate(chart.rows):
        y = 2 + i * ROW_H
        bar = round(float(length / top) * BAR_W, 1)
        short = label if len(label) <= 18 else label[:17] + "…"
        bars.append(
            f'<text x="{LABEL_W - 6}" y="{y + 14}" text-anchor="end">{escape(short)}</text>'
            f'<rect x="{LABEL_W}" y="{y + 3}" width="{bar}" height="{ROW_H - 6}"/>'
        )
    return (
        f'<svg role="img" aria-labelledby="{ident}-t" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t">{escape(chart.title)}</title>{"".join(bars)}</svg>'
    )


def _table(chart: Chart, ident: str) -> str:
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in chart.head) if any(chart.head) else ""
    rows = "".join(
        f'<tr><th scope="row">{escape(label)}</th><td>{escape(value)}</td></tr>' for label, _, value in chart.rows
    )
    return (
        f'<table id="{ident}"><caption>{escape(chart.title)}</caption>'
        f"{f'<thead><tr>{head}</tr></thead>' if head else ''}<tbody>{rows}</tbody></table>"
    )


def numbers_page(title: str, pages: Sequence[tuple[PackStats, LabelWords]]) -> str:
    """The whole page: one part per language, each section its charts, each chart beside its table."""
    parts, links = [], []
    for stats, words in pages:
        w = FigureWriter(words, stats.lang)
        lang = escape(stats.lang)
        links.append(f'<a href="#numbers-{lang}" hreflang="{lang}">{lang}</a>')
        sections = []
        for s, (heading, found) in enumerate(charts(stats, w)):
            figures = []
            for c, chart in enumerate(found):
                ident = f"n-{lang}-{s}-{c}"
                drawn = "" if chart.plain or not chart.rows else _svg(chart, ident)
                figures.append(f'<div class="chart">{drawn}{_table(chart, ident)}</div>')
            sections.append(f"<section><h3>{escape(heading)}</h3>{''.join(figures)}</section>")
        parts.append(
            f'<section lang="{lang}" id="numbers-{lang}" aria-labelledby="numbers-{lang}-h">'
            f'<h2 id="numbers-{lang}-h">{escape(stats.name)} ({lang})</h2>{"".join(sections)}</section>'
        )
    first = escape(pages[0][0].lang) if pages else "en"
    return _PAGE.format(lang=first, title=escape(title), links=" ".join(links), body="".join(parts))


def gallery_numbers(pack: Pack, langs: Sequence[str], seeds: int = 200) -> str:
    """The Numbers page of a pack's gallery, in the gallery's languages (its labels the tool's
    catalogue, then the pack's, as the templates' are)."""
    from mazmorra.i18n.labels import Labels
    from mazmorra.stats import stats
    from mazmorra.support.paths import templates_dir

    pages = []
    for lang in langs:
        words = Labels(pack.root, templates_dir(), lang)
        pages.append((stats(pack, lang, StatsOptions(seeds=seeds)), words))
    title = FigureWriter(pages[0][1], langs[0]).say("Numbers: %(pack)s", pack=pages[0][0].name) if pages else ""
    return numbers_page(title, pages)


_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem; color: #1d1d1d; background: #fff; }}
.chart {{ display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; margin: 0 0 1.5rem; }}
svg text {{ font-size: 12px; fill: #1d1d1d; }}
svg rect {{ fill: #2b5d8a; }}
table {{ border-collapse: collapse; }}
caption {{ text-align: left; font-weight: bold; padding-bottom: .3rem; }}
th, td {{ border-bottom: 1px solid #c9c9c9; padding: .15rem .6rem; text-align: left; }}
td {{ text-align: right; font-variant-numeric: tabular-nums; }}
</style></head>
<body><header><h1>{title}</h1><nav aria-label="languages">{links}</nav>
<p><a href="index.html">← gallery</a></p></header>
<main>{body}</main></body></html>
"""
