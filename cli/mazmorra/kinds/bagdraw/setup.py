"""The bag-draw family's setup, counted against the number of players (pack.yaml `game.players`):
an entrance map for each player, bags made for that many, and the entrance and depths piles apart
(rulebook B, «Fase 1: Mazmorra»)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.bagdraw import FAMILY, bagdraw_settings
from mazmorra.kinds.bagdraw.bag import Bag
from mazmorra.kinds.bagdraw.map_card import MapCard
from mazmorra.model.content import Component, Pack


@family_rule(
    FAMILY,
    RuleDoc(
        "map_card.entrances",
        "with `game.players` set, the pack holds at least one entrance map per player",
        "«Paso 1: Elige un Mapa de Mazmorra»: each player starts with their own entrance map",
    ),
    RuleDoc(
        "hero_figure.players",
        "with `game.players` set, one hero figure per player",
        "«Paso 1: Elige un Mapa de Mazmorra» 3: each player places their hero figure beside the top floor; "
        "«Descender»: it marks the current floor",
    ),
    RuleDoc(
        "bag.players",
        "with `game.players` set, each starting bag is made for that many players",
        "«Paso 1: Elige un Mapa de Mazmorra»: every player plays their own dungeon from their own bag",
    ),
)
def per_player(pack: Pack) -> Iterable[Problem]:
    """Entrance maps and bags for every player the pack says will play."""
    players = bagdraw_settings(pack).players
    if players is None:
        return
    maps = list(pack.of(MapCard))
    if maps:
        entrances = sum(comp.data.copies for comp, card in maps if card.variant == "entrance")
        if entrances < players:
            deck = next(
                (d for d in pack.decks if any(m.variant == "entrance" for _, m in _maps_of(d.components))), None
            )
            loc = pack.deck_loc(deck.id, "size") if deck is not None else pack.setting_loc("players")
            yield Problem(
                "map_card.entrances",
                f"{entrances} entrance map(s) for {players} players (game.players): each player starts on their own",
                loc,
                deck.id if deck is not None else "pack",
                "size",
            )
    figures = [c for c in pack.components() if c.kind.name == "hero_figure"]
    have = sum(c.data.copies for c in figures)
    deck = next((d for d in pack.decks if any(k.name == "hero_figure" for k in d.kinds)), None)
    if deck is not None and have < players:
        yield Problem(
            "hero_figure.players",
            f"{have} hero figure(s) for {players} players (game.players): each player marks their floor with one",
            pack.deck_loc(deck.id, "size"),
            deck.id,
            "size",
        )
    for comp, bag in pack.of(Bag):
        if bag.players != players:
            yield Problem(
                "bag.players",
                f"the bag is made for {bag.players} player(s); game.players is {players}",
                comp.field_loc("players"),
                comp.id,
                "players",
            )


def _maps_of(components: Iterable[Component]) -> list[tuple[Component, MapCard]]:
    return [(c, c.data) for c in components if isinstance(c.data, MapCard)]


@family_rule(
    FAMILY,
    RuleDoc(
        "map_card.pile",
        "a deck of map cards is one pile: entrance maps and depths maps are never in the same deck",
        "«Paso 1»: entrance maps are drawn from the bottom of their deck; «Acabando el mapa»: a depths map from the "
        "bottom of its pile",
    ),
)
def piles_apart(pack: Pack) -> Iterable[Problem]:
    """Each map deck holds one variant, the one most of its cards are: the others are in the wrong pile."""
    for deck in pack.decks:
        maps = _maps_of(deck.components)
        if not maps:
            continue
        by: dict[str, list[Component]] = defaultdict(list)
        for comp, card in maps:
            by[card.variant].append(comp)
        if len(by) < 2:
            continue
        counts = Counter({v: len(c) for v, c in by.items()})
        pile = max(counts, key=lambda v: (counts[v], v == maps[0][1].variant))
        for variant, comps in sorted(by.items()):
            if variant == pile:
                continue
            for comp in comps:
                yield Problem(
                    "map_card.pile",
                    f"{'an' if variant == 'entrance' else 'a'} {variant} map in deck '{deck.id}', the {pile} pile: the "
                    f"piles are drawn from apart, so move it to a deck of {variant} maps",
                    comp.field_loc("variant"),
                    comp.id,
                    "variant",
                )
