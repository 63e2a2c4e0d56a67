"""Stroke corners and ends (`join`, `cap`) as drawn: pixels of a rendered face where a mitred, round
and bevelled corner, and a butt, round and square end, differ; the defaults draw as before."""

from __future__ import annotations

import pytest

from mazmorra.assets.icons import IconSet
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.render.raster import Rasteriser, dpi_frame

BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def _png(xml: str):
    """A 40 × 40 mm white face with xml on it, at 10 px per mm."""
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")
    assert ctx.problems == []
    im = Rasteriser(IconSet.for_pack(None), "en").images([(face, dpi_frame(face, 254, False))])[0]
    return im.convert("RGB")


def _ink(im, x_mm: float, y_mm: float) -> bool:
    return sum(im.getpixel((round(x_mm * 10), round(y_mm * 10)))) < 384


# A 4 mm wide stroke turning at (20, 8): a mitre's tip reaches 3.5 mm above the corner, a round
# corner 2 mm, a bevel 1.1 mm.
@pytest.mark.parametrize("shape", ["path", "polygon"])
@pytest.mark.parametrize(
    ("join", "at_5", "at_6_5"), [("miter", True, True), ("round", False, True), ("bevel", False, False)]
)
def test_stroke_joins(shape: str, join: str, at_5: bool, at_6_5: bool) -> None:
    attr = "" if join == "miter" else f' join="{join}"'
    xml = {
        "path": f'<path d="M 5 30 L 20 8 L 35 30" fill="none" stroke="#000" stroke-width="4"{attr}/>',
        "polygon": f'<polygon points="5,30 20,8 35,30" stroke="#000" stroke-width="4"{attr}/>',
    }[shape]
    im = _png(xml)
    assert _ink(im, 20, 5.0) is at_5 and _ink(im, 20, 6.5) is at_6_5, join
    assert _ink(im, 20, 9)  # the stroke itself


# A 4 mm wide line from x = 10 to 30: a butt end stops at 10, a round one bulges 2 mm past it, a
# square one reaches 2 mm past it, corners and all.
@pytest.mark.parametrize(
    ("cap", "past_end", "corner"), [("butt", False, False), ("round", True, False), ("square", True, True)]
)
def test_line_caps(cap: str, past_end: bool, corner: bool) -> None:
    attr = "" if cap == "butt" else f' cap="{cap}"'
    im = _png(f'<line x1="10" y1="20" x2="30" y2="20" stroke="#000" stroke-width="4"{attr}/>')
    assert _ink(im, 8.6, 20) is past_end and _ink(im, 8.3, 18.3) is corner, cap
    assert _ink(im, 20, 20)


def test_round_caps_on_a_dashed_outline() -> None:
    """Caps end each dash: round ones fill part of the gaps of a dashed rectangle's side."""
    xml = '<rect x="5" y="10" w="30" h="20" stroke="#000" stroke-width="2" dash="2 2"{}/>'
    plain, round_ = _png(xml.format("")), _png(xml.format(' cap="round"'))
    row = [round(x / 10, 1) for x in range(60, 340)]
    gaps = sum(not _ink(plain, x, 10) for x in row)
    assert gaps > 100 and sum(not _ink(round_, x, 10) for x in row) < gaps * 0.5


def test_a_bad_join_or_cap_names_the_words() -> None:
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    with pytest.raises(ValueError, match=r"join='mitre'.*miter, round, bevel.*did you mean 'miter'"):
        parse_face(
            '<card><rect x="0" y="0" w="5" h="5" stroke="#000" join="mitre"/></card>', ctx, "front", 9, 9, 0, "rect"
        )
    with pytest.raises(ValueError, match=r"cap='flat'.*butt, round, square"):
        parse_face('<card><line x1="0" y1="0" x2="5" y2="5" cap="flat"/></card>', ctx, "front", 9, 9, 0, "rect")


def test_a_gradient_fades_through_its_translucent_colours() -> None:
    """`linear-gradient(90deg, red, #ff000000)` over black: solid red at the left, black showing
    through more and more to the right; a radial one fades from its centre out. Over white the same
    gradient turns pink, so it is the alpha that shades, not the colour."""
    im = _png(
        '<rect x="0" y="0" w="40" h="20" fill="#000000"/>'
        '<rect x="0" y="0" w="40" h="40" fill="linear-gradient(90deg, #ff0000, #ff000000)"/>'
        '<circle cx="20" cy="30" r="8" fill="radial-gradient(#0000ff, rgba(0, 0, 255, 0))"/>'
    )
    over_black = [im.getpixel((x * 10, 100)) for x in (1, 10, 20, 30, 39)]
    reds = [p[0] for p in over_black]
    assert reds == sorted(reds, reverse=True) and reds[0] > 240 and reds[-1] < 15, over_black
    assert abs(reds[2] - 128) < 10 and all(p[1] < 5 and p[2] < 5 for p in over_black), over_black
    over_white = im.getpixel((300, 250))  # 3/4 of the way: a quarter red over white
    assert over_white[0] > 250 and 175 < over_white[1] < 205, over_white
    centre, rim = im.getpixel((200, 300)), im.getpixel((200, 378))
    assert centre[2] > 250 and centre[0] < 10, centre  # solid blue
    assert rim[0] > 100 and rim[2] > 150, rim  # faded: the pink below shows through


def test_a_fading_gradient_is_transparency_in_the_pdf() -> None:
    """A soft mask: what a PDF/X-1a build refuses as transparency, like any translucent colour; a
    gradient of solid colours stays without one."""
    from mazmorra.render.draw import pdfx
    from mazmorra.render.raster import FacePages

    def pdf(fill: str) -> bytes:
        ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
        xml = f'<card><rect x="0" y="0" w="40" h="40" fill="{fill}"/></card>'
        pages = FacePages(IconSet.for_pack(None), "en")
        pages.face_page(parse_face(xml, ctx, "front", 40.0, 40.0, 0.0, "rect"), 40.0, 40.0, 0.0, 0.0)
        return pages.pdf()

    faded = pdf("linear-gradient(#000, #0000)")
    assert pdfx.transparent(faded) and b"/Luminosity" in faded
    assert not pdfx.transparent(pdf("linear-gradient(#000, #fff)"))
    assert faded == pdf("linear-gradient(#000, #0000)")  # deterministic, byte for byte


@pytest.mark.parametrize(
    "shape",
    [
        '<rect x="10" y="10" w="20" h="20" fill="{fill}" stroke="#000" stroke-width="4"{order}/>',
        '<path d="M 10 10 H 30 V 30 H 10 Z" fill="{fill}" stroke="#000" stroke-width="4"{order}/>',
        '<ellipse cx="20" cy="20" rx="10" ry="10" fill="{fill}" stroke="#000" stroke-width="4"{order}/>',
    ],
)
@pytest.mark.parametrize("fill", ["#ffffff", "linear-gradient(#ffffff, #ffffff)"])
def test_paint_order_stroke_draws_the_fill_over_the_strokes_inner_half(shape: str, fill: str) -> None:
    """Squib's stroke_first: the outer half of the stroke shows, the inner half lies under the fill."""
    normal = _png(shape.format(fill=fill, order=""))
    first = _png(shape.format(fill=fill, order=' paint-order="stroke"'))
    assert _ink(normal, 9, 20) and _ink(normal, 11, 20)
    assert _ink(first, 9, 20) and not _ink(first, 11, 20)


def test_a_text_frame_takes_join_and_cap() -> None:
    """A text box's frame is a rectangle like any: round corners on a square frame's stroke."""
    frame = '<text x="10" y="10" w="20" h="20" stroke="#000" stroke-width="4"{}>.</text>'
    assert _ink(_png(frame.format("")), 8.3, 8.3)  # a mitred corner reaches the corner of the stroke
    assert not _ink(_png(frame.format(' join="round"')), 8.3, 8.3)
