"""Bag-draw games (family B): each starting bag's exact odds, drawing chips without replacement as
the rulebook says («Paso 2»): each chip per draw, each face a draw offers (a chip shows both of its
faces and the player chooses; faces by icon, whatever their number), and runs of the same face in
consecutive draws."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from mazmorra.kinds.bagdraw.bag import Bag
from mazmorra.model.content import Pack
from mazmorra.stats.drawodds import run_of
from mazmorra.stats.statvalues import BagStats, ChipOdds, FaceOdds


def bag_stats(pack: Pack, names: Mapping[str, str]) -> tuple[BagStats, ...]:
    """Every bag of the pack; `names` gives a component's name in the language asked for, by id."""
    chip_names = {}
    for comp in pack.components():
        key = getattr(comp.data, "key", None)
        if comp.kind.name == "chip" and isinstance(key, str):
            chip_names[frozenset(key.split("/"))] = names.get(comp.id, comp.id)
    return tuple(_one(comp.id, names.get(comp.id, comp.id), bag, chip_names) for comp, bag in pack.of(Bag))


def _one(bag_id: str, name: str, bag: Bag, chip_names: Mapping[frozenset[str], str]) -> BagStats:
    total = sum(e.count for e in bag.chips)
    chips = tuple(
        ChipOdds(str(e.chip), chip_names.get(e.chip.key, str(e.chip)), e.count, Fraction(e.count, total))
        for e in bag.chips
    )
    offering: dict[str, int] = {}
    for e in bag.chips:
        for face in dict.fromkeys(f.icon for f in e.chip.faces):  # a monster is a monster, whatever its number
            offering[face] = offering.get(face, 0) + e.count
    faces = tuple(
        FaceOdds(face, Fraction(n, total), run_of(total, n, 2), run_of(total, n, 3)) for face, n in offering.items()
    )
    return BagStats(bag_id, name, total, chips, faces)
