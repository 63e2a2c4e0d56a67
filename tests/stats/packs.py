"""Held-out packs with known answers, written per test (tiny projects: one deck of tricks of a
declared kind, a 2d6 and a 2d12 table, a bag of chips)."""

from __future__ import annotations

from pathlib import Path

from conftest import write_pack

TRICK_KIND = """\
name: trick
extends: card
fields:
  type: {type: enum, values: [curse, boon, blank], required: true}
  cost: {type: int, min: 0, max: 9, default: 0}
count_field: type
"""

TRICKS = """\
- {id: hex, name: Hex, text: A curse., type: curse, cost: 1, copies: 5}
- {id: gift, name: Gift, text: A boon., type: boon, cost: 2, copies: 7}
- {id: dud, name: Dud, text: Nothing., type: blank, cost: 0, copies: 8}
"""

TRICK_PACK = """\
id: p
name: Trucos
source_language: en
languages: [en]
decks:
  - {id: trucos, kind: trick, name: Tricks, file: decks/trucos.yaml, size: 20}
format: 2
"""

TABLES = """\
- id: two-six
  name: Two dice
  die: 2d6
  rows:
    - {roll: 2-6, result: Low}
    - {roll: 7, result: Seven}
    - {roll: 8-12, result: High}
- id: two-twelve
  name: Two twelves
  die: 2d12
  rows:
    - {roll: 2, result: Snake eyes}
    - {roll: 3-12, result: Low}
    - {roll: 13, result: Middle}
    - {roll: 14-24, result: High}
"""

TABLE_PACK = """\
id: p
name: Tablas
source_language: en
languages: [en]
decks:
  - {id: tablas, kind: dice_table, name: Tables, file: decks/tablas.yaml}
format: 2
"""

CHIPS = """\
- {id: sc, name: Sword / Chest, faces: [{icon: sword}, {icon: chest}], copies: 3}
- {id: mc, name: Monster / Coin, faces: [{icon: monster}, {icon: coin}], copies: 4}
- {id: mm, name: Monster / Potion, faces: [{icon: monster}, {icon: potion}], copies: 1}
"""

BAG = """\
- id: bolsa
  name: Bag
  total: 8
  chips:
    - {chip: sword/chest, count: 3}
    - {chip: monster/coin, count: 4}
    - {chip: monster/potion, count: 1}
"""

BAG_PACK = """\
id: p
name: Bolsa
source_language: en
languages: [en]
decks:
  - {id: fichas, kind: chip, name: Chips, file: decks/fichas.yaml}
  - {id: bolsas, kind: bag, name: Bags, file: decks/bolsa.yaml}
format: 2
"""


def trick_pack(project: Path) -> Path:
    return write_pack(project, {"pack.yaml": TRICK_PACK, "kinds/trick.yaml": TRICK_KIND, "decks/trucos.yaml": TRICKS})


def table_pack(project: Path) -> Path:
    return write_pack(project, {"pack.yaml": TABLE_PACK, "decks/tablas.yaml": TABLES})


def bag_pack(project: Path) -> Path:
    return write_pack(project, {"pack.yaml": BAG_PACK, "decks/fichas.yaml": CHIPS, "decks/bolsa.yaml": BAG})
