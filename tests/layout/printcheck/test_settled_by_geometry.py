"""Pairs of inks settled from geometry before any mask is drawn (facecheck._apart): a title beside
a badge, an icon near an outline, a turned text near a line, swept across the distances where the
masks' verdict changes, give exactly the verdict the masks alone give."""

from __future__ import annotations

import pytest

from mazmorra.assets.icons import IconSet
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.printcheck import facecheck
from mazmorra.layout.printcheck.ink import inks
from mazmorra.layout.printcheck.inkindex import near

LAUREL = "laurel"  # an icon every pack has (the tool's own set)
CASES = {
    "title beside an outlined badge": (
        '<circle cx="15" cy="15" r="5" fill="#336699" stroke="#000000" stroke-width="0.5"/>'
        '<text role="label" x="{x}" y="10" w="30" h="10" size="11" valign="middle">Wyjq Ál</text>',
        20.0,
        True,
    ),
    "icon beside a frame's outline": (
        '<rect x="8" y="30" w="40" h="20" stroke="#aa0000" stroke-width="0.4"/>'
        f'<icon name="{LAUREL}" x="{{x}}" y="35" size="6"/>',
        47.8,
        True,
    ),
    "text beside a panel": (
        '<rect x="5" y="60" w="20" h="10" r="2" fill="#eeeeee" stroke="#333333" stroke-width="0.3"/>'
        '<text role="label" x="{x}" y="60" w="25" h="10" size="9" valign="middle">quill</text>',
        24.8,
        True,
    ),
    "turned icon beside an ellipse": (
        '<ellipse cx="50" cy="20" rx="4" ry="3" fill="#aaccee" stroke="#000000" stroke-width="0.3"/>'
        f'<icon name="{LAUREL}" x="{{x}}" y="17" size="5" rotate="20"/>',
        53.6,
        False,  # a turned icon keeps the widest margin: its bounds settle it first (exactness checked all the same)
    ),
}


def _face(xml: str) -> tuple[list[facecheck.Ink], IconSet]:
    icons = IconSet.for_pack(None)
    ctx = FaceContext("c", "en", icons, None, lambda f: None)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 63.0, 88.0, 0.0, "rect")
    return inks(face.ops, ctx.owners), icons


def _pairs(xml: str) -> tuple[list[tuple[str, str, str]], int]:
    """(verdict with geometry, verdict from the masks alone, what) of every pair of the face that comes
    near, and how many of them geometry settled."""
    drawn, icons = _face(xml)
    raw = facecheck._verdict.__wrapped__  # not the cache: both answers computed here
    real, settled = facecheck._apart, [0]

    def counted(*args: object) -> bool:
        found = real(*args)  # type: ignore[arg-type]
        settled[0] += found
        return found

    out = []
    for a in drawn:
        for b in drawn[a.index + 1 :]:
            if near(a.box, b.box, 1.5):
                with pytest.MonkeyPatch.context() as mp:
                    mp.setattr(facecheck, "_apart", counted)
                    with_geometry = raw(a.op, a.m, b.op, b.m, icons)
                    mp.setattr(facecheck, "_apart", lambda *args: False)
                    masks_only = raw(a.op, a.m, b.op, b.m, icons)
                out.append((with_geometry, masks_only, f"{type(a.op).__name__}/{type(b.op).__name__}"))
    return out, settled[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_geometry_gives_the_masks_verdict_at_every_distance(case: str) -> None:
    xml, start, shortcut = CASES[case]
    verdicts: set[str] = set()
    settled = 0
    for step in range(0, 300, 4):  # 0.04 mm steps across 3 mm: touching, crowding, clear
        x = start + step / 100
        pairs, by_geometry = _pairs(xml.format(x=f"{x:.2f}"))
        settled += by_geometry
        for with_geometry, masks_only, what in pairs:
            assert with_geometry == masks_only, f"{case} at x={x:.2f} ({what})"
            verdicts.add(masks_only)
    assert "" in verdicts and len(verdicts) > 1, f"{case}: the sweep must cross a verdict change ({verdicts})"
    assert bool(settled) == shortcut, f"{case}: geometry settled {settled} pairs"


def test_a_title_clear_of_its_badge_draws_no_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """The common case the shortcut is for: no mask is drawn for it."""
    drawn: list[object] = []
    real = facecheck.mask
    monkeypatch.setattr(facecheck, "mask", lambda *args, **kw: drawn.append(args) or real(*args, **kw))
    xml, _, _ = CASES["title beside an outlined badge"]
    (badge, title), icons = _face(xml.format(x="21.50"))
    assert facecheck._verdict.__wrapped__(badge.op, badge.m, title.op, title.m, icons) == ""
    assert drawn == []
