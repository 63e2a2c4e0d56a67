"""Samples that look published: no two components of a sample deck share their illustration (copies
are one component), the art taken from game-icons.net is credited and used, and no deck's back
prints how many cards it holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CONTENT

from mazmorra.contracts import Face, IconOp, ImageOp, Op, RotateOp, TextOp

ART_MM = 12.0  # an icon or picture this large on a front is its illustration, not a symbol in the text
# Rule symbols drawn large on purpose: the same on every component that has them, like a suit.
SYMBOLS = {"turn-cw", "turn-ccw", "jump"}
# Decks whose components still share one illustration (issue 24 left them for later): each must
# still do so, so that whoever illustrates one removes it from here and the test guards it.
PENDING: dict[tuple[str, str], str] = {}


def _ops(ops: tuple[Op, ...]) -> list[Op]:
    out: list[Op] = []
    for op in ops:
        out += _ops(op.ops) if isinstance(op, RotateOp) else [op]
    return out


def art(face: Face) -> frozenset[str]:
    """The illustrations of a face: its large icons (symbols aside) and pictures."""
    found = set()
    for op in _ops(face.ops):
        if isinstance(op, IconOp) and op.size >= ART_MM and op.name not in SYMBOLS:
            found.add(f"icon:{op.name}")
        elif isinstance(op, ImageOp) and min(op.w, op.h) >= ART_MM:
            found.add(f"image:{op.path}")
    return frozenset(found)


def _decks() -> list[tuple[str, str]]:
    from mazmorra.load import load_pack

    return [
        (p.name, d.id) for p in sorted(CONTENT.iterdir()) if (p / "pack.yaml").is_file() for d in load_pack(p).decks
    ]


def _items(pack: str, deck: str) -> list:
    from golden import context

    from mazmorra.layout import lay_out
    from mazmorra.load import load_pack

    loaded = load_pack(CONTENT / pack)
    return list(lay_out(loaded.deck(deck), context(loaded, "en")).items())


@pytest.mark.parametrize(("pack", "deck"), _decks())
def test_no_two_components_of_a_deck_share_their_art(pack: str, deck: str) -> None:
    items = _items(pack, deck)
    by_art: dict[frozenset[str], list[str]] = {}
    for item in items:
        found = art(item.front)
        if found:
            by_art.setdefault(found, []).append(item.front.component)
    shared = {" + ".join(sorted(a)): ids for a, ids in by_art.items() if len(ids) > 1}
    if (pack, deck) in PENDING:
        assert shared, f"{pack}/{deck} is illustrated now: remove it from PENDING"
        return
    assert not shared, f"{pack}/{deck}: components sharing one illustration: {shared}"
    backs = [i.back for i in items if i.back is not None and i.shared_back]
    for back in backs[:1]:  # one shared back per deck (and kind)
        texts = " ".join(op.text for op in _ops(back.ops) if isinstance(op, TextOp))
        assert not re.search(r"\d+\s*(cards?|cartas?)\b", texts, re.I), f"{pack}/{deck}: the back counts: {texts}"


def test_the_samples_illustrated_decks_have_art_on_every_card() -> None:
    """The decks this issue illustrated: every component has an illustration of its own."""
    for pack, deck in [
        ("grimorio", "hechizos"),
        ("grimorio", "criaturas"),
        ("cripta", "equipo"),
        ("cripta", "enemigos"),
        ("cripta", "objetos"),
    ]:
        arts = [art(i.front) for i in _items(pack, deck)]
        assert all(arts) and len(set(arts)) == len(arts), (pack, deck)


def test_borrowed_art_is_credited_and_used() -> None:
    """Every game-icons.net SVG a pack keeps is listed in its icons/CREDITS.md, which a credits card
    prints, and some component of the pack draws it (only the icons used are kept)."""
    borrowed = 0
    for icons in sorted(CONTENT.glob("*/icons")):
        pack = icons.parent
        svgs = [p for p in sorted(icons.glob("*.svg")) if "game-icons.net" in p.read_text(encoding="utf-8")[:200]]
        if not svgs:
            continue
        credits = (icons / "CREDITS.md").read_text(encoding="utf-8")
        assert "CC BY 3.0" in credits and "creativecommons.org/licenses/by/3.0" in credits
        drawn = {
            op.name
            for deck in (d for p, d in _decks() if p == pack.name)
            for item in _items(pack.name, deck)
            for op in _ops(item.front.ops)
            if isinstance(op, IconOp)
        }
        for svg in svgs:
            borrowed += 1
            assert f"| {svg.name} |" in credits, f"{svg} is not credited"
            assert svg.stem in drawn, f"{svg} is drawn by no component: remove it"
        card = (pack / "decks" / "creditos.yaml").read_text(encoding="utf-8")
        assert "game-icons.net" in card and "CC BY 3.0" in card
    assert borrowed >= 30


def test_the_scan_sees_shared_art() -> None:
    """The art test is a real check: two faces drawing one large icon share art; a small one is text."""
    big = Face("a", "front", 63, 88, 3, (IconOp("sword", 20, 20, 20),))
    other = Face("b", "front", 63, 88, 3, (RotateOp(10, 0, 0, (IconOp("sword", 20, 20, 20),)),))
    small = Face("c", "front", 63, 88, 3, (IconOp("sword", 20, 20, 4),))
    assert art(big) == art(other) == {"icon:sword"} and art(small) == frozenset()
    assert Path(CONTENT).is_dir()
