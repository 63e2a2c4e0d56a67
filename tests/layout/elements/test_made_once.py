"""Issue 38: what a template draws the same on every face (its frame, fixed marks and icons, a label
in its place) is made once and shared by the faces that draw it, while each face still claims it as
its own element (the print checks judge each face) and checks it against its own pack's icons."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import IconOp, RectOp, TextOp
from mazmorra.layout.elements.attrs import ElementError, FaceContext
from mazmorra.layout.elements.registry import parse_face

TEMPLATE = (
    '<card background="#ffffff" mz-at="0:1:1">'
    '<rect x="3" y="3" w="57" h="82" r="2" fill="#fbf6ea" stroke="#1b1b1b" mz-at="0:2:3"/>'
    '<icon name="{icon}" x="5" y="5" size="6" mz-at="0:3:3"/>'
    '<text role="label" x="5" y="20" w="50" h="6" size="9" mz-at="0:4:3">Every card</text>'
    '<text x="5" y="30" w="50" h="20" size="9" field="name" mz-at="0:5:3">{name}</text>'
    "</card>"
)


def _face(icons: IconSet, name: str, icon: str = "instant"):
    ctx = FaceContext(name, "en", icons, None, lambda f: None)
    face = parse_face(TEMPLATE.format(name=name, icon=icon), ctx, "front", 63.0, 88.0, 3.0, "rect")
    assert ctx.problems == []
    return face, ctx.owners


def test_constant_elements_are_the_same_ops_on_every_face() -> None:
    icons = IconSet.for_pack(None)
    (a, owners_a), (b, owners_b) = _face(icons, "Brave Rat"), _face(icons, "Cold Owl")
    rect_a, rect_b = ([op for op in f.ops if isinstance(op, RectOp)] for f in (a, b))
    assert rect_a[0] is rect_b[0]
    icon_a, icon_b = ([op for op in f.ops if isinstance(op, IconOp)] for f in (a, b))
    assert icon_a[0] is icon_b[0]
    label_a, label_b = ([op for op in f.ops if isinstance(op, TextOp) and op.text == "Every card"] for f in (a, b))
    assert label_a[0] is label_b[0]  # a label in its place: laid out once
    names = [[op for op in f.ops if isinstance(op, TextOp) and op.text not in ("Every card",)] for f in (a, b)]
    assert [op.text for op in names[0]] == ["Brave Rat"] and [op.text for op in names[1]] == ["Cold Owl"]
    # each face claims its ops (the print checks' owners), numbered as on a face laid out alone
    assert sorted(owners_a) == sorted(owners_b) == list(range(len(a.ops)))
    assert [(o.at, o.tag) for _, o in sorted(owners_a.items())] == [(o.at, o.tag) for _, o in sorted(owners_b.items())]


def test_an_element_moved_or_changed_is_made_again() -> None:
    icons = IconSet.for_pack(None)
    one, _ = _face(icons, "A", icon="instant")
    other, _ = _face(icons, "A", icon="reaction")
    assert [op.name for op in one.ops if isinstance(op, IconOp)] == ["instant"]
    assert [op.name for op in other.ops if isinstance(op, IconOp)] == ["reaction"]


def test_an_icon_is_checked_against_each_packs_icons(tmp_path: Path) -> None:
    """An icon one pack has and another lacks: the second pack's face is refused, though the first
    made the element already."""
    pack = tmp_path / "pack"
    (pack / "icons").mkdir(parents=True)
    (pack / "icons" / "lantern.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
        encoding="utf-8",
    )
    _face(IconSet.for_pack(pack), "A", icon="lantern")
    with pytest.raises(ElementError, match="unknown icon"):
        _face(IconSet.for_pack(None), "A", icon="lantern")
