"""A <text> element's attributes read once per distinct set (layout/text/textattrs.py): the same ops as
reading them every time, and a mistake reported on every card, never kept."""

from __future__ import annotations

import pytest
from conftest import calls_of

from mazmorra.assets.icons import IconSet
from mazmorra.layout.elements.attrs import ElementError, FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.text import textattrs
from mazmorra.model.printspec import MinSizes, PrintSpec

BOX = (
    '<text x="2" y="3" w="30" h="12" size="9" color="#1a1a1a" fill="#f0e0c0" stroke="#604020" r="1.5" '
    'padding="1" outline="#ffffff" outline-width="0.2" opacity="0.8" align="justify">{}</text>'
)


def _face(xml: str, printing: PrintSpec | None = None):  # type: ignore[no-untyped-def]
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None, printing=printing or PrintSpec())
    return parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")


def test_kept_attributes_lay_out_as_read_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    textattrs._READ.clear()
    reads = calls_of(monkeypatch, textattrs, "read_look", lambda el, at: el.text)
    first = _face(BOX.format("Roba dos cartas y descarta una."))
    second = _face(BOX.format("Gain two coins, then move."))
    assert reads == ["Roba dos cartas y descarta una."]  # the second card's box: from what the first read
    textattrs._READ.clear()
    again = _face(BOX.format("Gain two coins, then move."))
    assert len(reads) == 2 and again.ops == second.ops  # read again: the same ops
    assert first.ops[0] == second.ops[0] and first.ops[0].fill == "#f0e0c0cc"  # the frame, at 80 % opacity
    assert " ".join(op.text for op in second.ops[1:]) == "Gain two coins, then move."


def test_a_mistake_is_reported_on_every_card() -> None:
    textattrs._READ.clear()
    bad = '<text x="2" y="3" w="30" h="12" color="#12">{}</text>'
    for text in ("one", "two"):
        with pytest.raises(ElementError, match="color"):
            _face(bad.format(text))
    assert textattrs._READ == {}


def test_each_packs_legibility_floors_keep_their_own_reading() -> None:
    textattrs._READ.clear()
    box = '<text x="2" y="3" w="30" h="12" size="6">{}</text>'
    strict = PrintSpec(min_size=MinSizes(body=6.5))
    lenient = PrintSpec(min_size=MinSizes(body=5.5))
    assert _face(box.format("small print"), lenient).ops
    with pytest.raises(ElementError, match="smallest legible size"):
        _face(box.format("small print"), strict)
