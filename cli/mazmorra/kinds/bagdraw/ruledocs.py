"""What each rule of the bag-draw family written before its rules carried their own metadata checks,
with the rulebook passage it comes from (seed 000, «Fase 1: Mazmorra»): read by `make rules-doc`."""

from __future__ import annotations

from mazmorra.kinds import RuleDoc, documents
from mazmorra.kinds.bagdraw import FAMILY

ANATOMY = "«Anatomía de una Mazmorra»"
DOCS = (
    RuleDoc(
        "map_card.floors",
        "each side of an entrance map has 3 floors, of a depths map 2 (`game.floors`)",
        f"{ANATOMY} 3: entrance maps have 3 floors; 6: depths maps have two",
    ),
    RuleDoc("map_card.spaces", "every floor is a row of six spaces", f"{ANATOMY} 2: each floor is made of 6 spaces"),
    RuleDoc(
        "map_card.entrance",
        "only entrance maps show an entrance, above their top floor",
        f"{ANATOMY} 3: the maps show an entrance at the top; 6: depths maps have no entrance",
    ),
    RuleDoc(
        "map_card.playable",
        "warning: a floor with no empty or optional space to play a chip on",
        "«Paso 2» 3: chips go on empty spaces or optional features, never on obstacles or mandatory features",
    ),
    RuleDoc(
        "map_card.unknown-face",
        "a map feature shows one of the pack's chip faces (numbered as a bag names it)",
        f"{ANATOMY} 7: dungeon features look like chips and act as if one were placed",
    ),
    RuleDoc(
        "map_card.decoration-face",
        "an empty space's decoration is no chip face's icon (it would read as a feature)",
        f"{ANATOMY} 1: empty spaces may show art such as torches or bones, with no effect; 7: features look like chips",
    ),
    RuleDoc(
        "map_card.depths",
        "the pack holds depths maps (what the rulebook's setup needs: an error under `edition: reference`, a warning "
        "under `custom`)",
        "«Acabando el mapa»: a player who fills a map's last floor with chips left draws a depths map",
    ),
    RuleDoc(
        "chip.setup",
        "the pack holds chips (an error under `edition: reference`, a warning under `custom`)",
        "«Paso 2: Juega tu mazmorra» 1: draw a chip from your bag and look at both sides",
    ),
    RuleDoc(
        "map_card.unknown-decoration",
        "an empty space's decoration is an icon of the pack",
        f"{ANATOMY} 1: some empty spaces show illustrations such as torches or bones, with no effect",
    ),
    RuleDoc(
        "bag.total",
        "a bag's chips add up to its declared total",
        "«Paso 2» 1: each player draws chips from their own bag",
    ),
    RuleDoc("bag.duplicate", "a bag names each chip once", "«Paso 2» 1: each player draws chips from their own bag"),
    RuleDoc(
        "bag.unknown-chip",
        "a bag names chips the pack has, by their two faces",
        "«Paso 2» 1: draw a chip from your bag and look at both sides",
    ),
    RuleDoc(
        "bag.supply",
        "the chip decks hold enough of each chip for every player's bag",
        "«Paso 2»: the players draw from their bags at the same time, each from their own",
    ),
    RuleDoc(
        "chip.unknown-icon",
        "every chip face shows an icon the pack has",
        "«Paso 2» 1: look at both sides of the chip and choose which to play face up",
    ),
    RuleDoc("chip.duplicate", "no two chips have the same two faces", "«Paso 2» 1: a chip is told by its two sides"),
)


@documents(FAMILY, *DOCS)
def documented() -> None:
    """The rules above are reported by bag.py, chip.py, map_card.py and rules.py."""
