"""The draws a family's rules name (a hand size, the cards drawn per turn), each with its rulebook
passage: what `stats` shows a deck's odds for, read off the pack's own components where the rulebook
puts the number on them (an investigator's hand), and the draws a kind file declares (`draws:`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mazmorra.kinds.values import of_kind
from mazmorra.model.content import Pack


@dataclass(frozen=True)
class NamedDraw:
    """`draws` cards of a deck of `kind`, named by a rule (`name`, in English: a label) at `source`."""

    kind: str
    draws: int
    name: str = ""
    source: str = ""


def _expedition(pack: Pack) -> Iterable[NamedDraw]:
    """Spec A4: an investigator's hand size is the artimaña cards refilled at the end of a turn."""
    hands: set[int] = set()
    for comp in of_kind(pack, "investigator"):
        for side in ("stats", "exalted_stats"):
            hand = getattr(getattr(comp.data, side, None), "hand", None)
            if isinstance(hand, int):
                hands.add(hand)
    for hand in sorted(hands):
        yield NamedDraw(
            "artimana", hand, "hand", "spec A4, investigador: hand size (artimaña cards refilled each turn)"
        )


# Family name -> the draws its rules name. A family with none shows each deck's first draws.
FAMILY_DRAWS: dict[str, Callable[[Pack], Iterable[NamedDraw]]] = {"expedition": _expedition}


def named_draws(pack: Pack) -> list[NamedDraw]:
    """Every draw the rules of the pack's families name, and those its kinds' files declare (`draws:`)."""
    families = {deck.kind.family.name for deck in pack.decks}
    found = [draw for family in sorted(families) if family in FAMILY_DRAWS for draw in FAMILY_DRAWS[family](pack)]
    kinds = {deck.kind.name: deck.kind for deck in pack.decks}
    found += [NamedDraw(name, d.n, d.name, d.source) for name, kind in kinds.items() for d in kind.draws]
    return found
