"""Stage beside validation, stats: what a loaded, validated pack's components do in play, as exact
numbers (no layout needed).

`stats(pack, lang, options)` is the one entry: every deck's counts, curves and draw odds
(`deckcounts.py`, the draws its family's rules name in `nameddraws.py`, exact hypergeometric odds in
`drawodds.py`), bags (`bagodds.py`), dice tables and dice (`tableodds.py`), generated dungeons over a
seeded sample (`dungeonspread.py`), per-player setup (`playersetup.py`) and a designer's own query
(`statsquery.py`); the values are in `statvalues.py`. `statslines.py` flattens them into labelled
lines in a language (the table, `--since`), `statsjson.py` writes them as JSON (`schema.json`).
"""

from __future__ import annotations

from mazmorra.i18n.localise import localise
from mazmorra.model.content import Pack
from mazmorra.stats.bagodds import bag_stats
from mazmorra.stats.deckcounts import deck_stats
from mazmorra.stats.dungeonspread import dungeon_stats
from mazmorra.stats.nameddraws import named_draws
from mazmorra.stats.playersetup import setup_stats
from mazmorra.stats.statsquery import answer, parse_query
from mazmorra.stats.statvalues import PackStats, Query, StatsOptions
from mazmorra.stats.tableodds import distributions, rare_line, table_stats

__all__ = ["PackStats", "Query", "StatsOptions", "parse_query", "stats"]


def stats(pack: Pack, lang: str, options: StatsOptions) -> PackStats:
    """Every figure of a pack in one language (names as the pack translates them)."""
    local = localise(pack, lang)
    texts = {c.component.id: {k: t.text for k, t in c.texts.items()} for c in local.components}
    names = {cid: own.get("name", cid) for cid, own in texts.items()}
    named = named_draws(pack)
    rare = options.rare_row if options.rare_row is not None else rare_line(pack)
    return PackStats(
        pack=pack.id,
        name=local.name("pack.name"),
        lang=lang,
        decks=tuple(deck_stats(d, local.name(f"deck:{d.id}.name"), named) for d in pack.decks),
        bags=bag_stats(pack, names),
        tables=table_stats(pack, texts, rare),
        dice=distributions(pack),
        dungeons=dungeon_stats(pack, options.seeds, options.first_seed),
        setup=setup_stats(pack),
        query=answer(pack, options.query) if options.query is not None else (),
        rare_row=rare,
    )
