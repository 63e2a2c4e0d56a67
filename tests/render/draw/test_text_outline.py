"""Text as drawn (render/draw/pdftext.py): a dashed outline round the letters (`outline-dash`, Squib's
dash on text) breaks into many pieces of ink where a solid one is one piece per letter."""

from __future__ import annotations

import pytest

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.render.raster import Rasteriser, dpi_frame


def _face(xml: str):
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")
    assert ctx.problems == []
    return face


def _pieces(xml: str) -> int:
    """Connected pieces of dark ink on the rendered face (10 px a mm)."""
    face = _face(xml)
    im = Rasteriser(IconSet.for_pack(None), "en").images([(face, dpi_frame(face, 254, False))])[0].convert("L")
    dark = {(x, y) for x in range(im.width) for y in range(im.height) if im.getpixel((x, y)) < 128}
    count = 0
    while dark:
        count += 1
        todo = [dark.pop()]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in dark:
                    dark.remove(n)
                    todo.append(n)
    return count


TEXT = '<text x="2" y="10" w="36" h="20" size="40" font="sans-bold" color="#ffffff" outline="#000000" outline-width="0.3"{}>IO</text>'


@pytest.mark.slow
def test_a_dashed_outline_breaks_into_pieces() -> None:
    solid = _pieces(TEXT.format(""))
    dashed = _pieces(TEXT.format(' outline-dash="1 1"'))
    assert solid <= 3, solid  # I, O's outside, O's inside
    assert dashed >= 20, dashed


def test_the_dash_is_the_runs_own_and_only_with_an_outline() -> None:
    (op,) = [o for o in _face(TEXT.format(' outline-dash="1 0.5"')).ops if isinstance(o, TextOp)]
    assert op.outline_dash == (1.0, 0.5)
    (plain,) = [o for o in _face('<text x="2" y="10" w="36" h="20" size="20" outline-dash="1 1">IO</text>').ops]
    assert isinstance(plain, TextOp) and plain.outline_dash == () and plain.outline is None
