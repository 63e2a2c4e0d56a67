"""The bag-draw family (spec B): double-sided map cards of floors of six spaces, round chips with
two faces, and the bag each player starts with."""

from __future__ import annotations

from mazmorra.kinds import register_family
from mazmorra.model import Family

FAMILY = register_family(
    Family(
        "bagdraw",
        "Bag-draw dungeon (spec B): map cards of six-space floors, two-faced chips drawn from a bag, the starting bag.",
    )
)
