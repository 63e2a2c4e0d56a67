"""Rules of the bag-draw family that look across its kinds: run once per pack holding any of them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem
from mazmorra.kinds import family_rule
from mazmorra.kinds.bagdraw import FAMILY
from mazmorra.kinds.bagdraw.bag import Bag
from mazmorra.kinds.bagdraw.chip import Chip
from mazmorra.kinds.bagdraw.map_card import MapCard, sides
from mazmorra.model.content import Pack


def _chips(pack: Pack) -> dict[frozenset[str], tuple[str, int]]:
    """Chips of the pack by their faces: (id, copies)."""
    out: dict[frozenset[str], tuple[str, int]] = {}
    for comp, chip in pack.of(Chip):
        out.setdefault(frozenset(f.key for f in chip.faces), (comp.id, comp.data.copies))
    return out


@family_rule(FAMILY)
def composition(pack: Pack) -> Iterable[Problem]:
    """The bag adds up to its declared total, names chips that exist, and the chip decks hold enough of each."""
    chips = _chips(pack)
    for comp, bag in pack.of(Bag):
        have = sum(e.count for e in bag.chips)
        if have != bag.total:
            yield Problem(
                "bag.total",
                f"the chips listed add up to {have}, but the bag declares total {bag.total}",
                comp.field_loc("total"),
                comp.id,
                "total",
            )
        seen = Counter(e.chip.key for e in bag.chips)
        for i, entry in enumerate(bag.chips, 1):
            where = f"chips.{i}"
            if seen[entry.chip.key] > 1:
                yield Problem(
                    "bag.duplicate",
                    f"chip '{entry.chip}' is listed {seen[entry.chip.key]} times; list it once with its whole count",
                    comp.field_loc(f"chips.{i - 1}"),
                    comp.id,
                    where,
                )
                seen[entry.chip.key] = 0  # report once
            found = chips.get(entry.chip.key)
            if found is None:
                yield Problem(
                    "bag.unknown-chip",
                    f"no chip has the faces '{entry.chip}' (chips: "
                    f"{', '.join(sorted('/'.join(sorted(k)) for k in chips)) or 'none'})",
                    comp.field_loc(f"chips.{i - 1}"),
                    comp.id,
                    where,
                )
            elif found[1] < entry.count * bag.players:
                yield Problem(
                    "bag.supply",
                    f"{bag.players} player(s) × {entry.count} '{entry.chip}' need "
                    f"{entry.count * bag.players} chips; chip '{found[0]}' has {found[1]} copies",
                    comp.field_loc(f"chips.{i - 1}"),
                    comp.id,
                    where,
                )


@family_rule(FAMILY)
def features_are_chip_faces(pack: Pack) -> Iterable[Problem]:
    """A map feature looks like a played chip, so its icon must be one of the pack's chip faces."""
    faces = {face.key for _, chip in pack.of(Chip) for face in chip.faces}
    faces |= {
        face.icon for _, chip in pack.of(Chip) for face in chip.faces
    }  # a feature with no number: any face of its icon
    icons = IconSet.for_pack(pack.root)
    known = ", ".join(sorted(faces)) or "none: the pack has no chip deck"
    for comp, card in pack.of(MapCard):
        for side, m in sides(card):
            for i, floor in enumerate(m.floors, 1):
                for j, space in enumerate(floor, 1):
                    where = f"{side}.floors.{i}.{j}"
                    if space.type in ("mandatory", "optional") and space.face not in faces:
                        yield Problem(
                            "map_card.unknown-face",
                            f"{side}: floor {i}, space {j}: '{space.face}' is not a chip face (faces: {known})",
                            comp.field_loc(f"{side}.floors.{i - 1}"),
                            comp.id,
                            where,
                        )
                    elif space.type == "empty" and space.icon is not None and space.icon not in icons:
                        yield Problem(
                            "map_card.unknown-decoration",
                            f"{side}: floor {i}, space {j}: no icon '{space.icon}' for the decoration",
                            comp.field_loc(f"{side}.floors.{i - 1}"),
                            comp.id,
                            where,
                        )
                    elif space.type == "empty" and space.icon in faces:
                        yield Problem(
                            "map_card.decoration-face",
                            f"{side}: floor {i}, space {j}: the decoration '{space.icon}' is a chip face, so the empty "
                            "space would read as a feature; decorate it with art no chip shows (torches, bones …)",
                            comp.field_loc(f"{side}.floors.{i - 1}"),
                            comp.id,
                            where,
                        )
