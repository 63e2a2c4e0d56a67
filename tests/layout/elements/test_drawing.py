"""The drawing language's shapes and paints, read back from rendered pixels (10 px a mm): ellipses,
stars, SVG paths, dashes, gradients, opacity, per-corner radii, justified and spaced and outlined
text, SVG pictures drawn as vectors; every mistake located in words; every element and attribute
documented (the twin of Squib's options-documented spec)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import line_of, run_cli

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import EllipseOp, ImageOp, PathOp, PolyOp, TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.paint import PAINT
from mazmorra.layout.elements.registry import ELEMENTS, ROOT_ATTRS, parse_face
from mazmorra.render.raster import Rasteriser, dpi_frame
from mazmorra.support.paths import templates_dir

HERE = Path(__file__).resolve().parent
DOCS = HERE.parents[2] / "docs" / "templates.md"
WHITE, BLACK = (255, 255, 255), (0, 0, 0)


def _face(xml: str, root: Path | None = None):
    ctx = FaceContext("c", "en", IconSet.for_pack(root), root, lambda f: None)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")
    assert ctx.problems == []
    return face


def _png(xml: str, root: Path | None = None):
    face = _face(xml, root)
    return Rasteriser(IconSet.for_pack(root), "en").images([(face, dpi_frame(face, 254, False))])[0].convert("RGB")


def px(im, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return im.getpixel((round(x_mm * 10), round(y_mm * 10)))


def near(a, b, tol: int = 8) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def test_ellipse_fills_its_own_oval() -> None:
    im = _png('<ellipse cx="20" cy="20" rx="15" ry="5" fill="#ff0000"/>')
    assert near(px(im, 33, 20), (255, 0, 0)) and near(px(im, 20, 24), (255, 0, 0))
    assert near(px(im, 20, 27), WHITE) and near(px(im, 33, 23.5), WHITE)  # outside: above and at the corner


def test_star_has_tips_and_notches() -> None:
    face = _face('<star cx="20" cy="20" r="10" fill="#000000"/>')
    (op,) = face.ops
    assert isinstance(op, PolyOp) and len(op.points) == 10
    im = _png('<star cx="20" cy="20" r="10" fill="#000000"/>')
    assert near(px(im, 20, 11), BLACK)  # the first tip points straight up
    assert near(px(im, 20 + 8 * 0.588, 20 - 8 * 0.809), WHITE)  # 36° round: a notch, not a tip
    assert near(px(im, 20, 20), BLACK)


def test_path_data_draws_lines_curves_and_arcs() -> None:
    im = _png('<path d="M 5 5 h 10 v 10 H 5 Z M 20 5 l 10 0 l -5 10 z" fill="#0000ff"/>')
    assert near(px(im, 10, 10), (0, 0, 255)) and near(px(im, 25, 7), (0, 0, 255))
    assert near(px(im, 17.5, 10), WHITE) and near(px(im, 21, 14), WHITE)
    arc = _png('<path d="M 10 20 A 10 10 0 0 1 30 20 Z" fill="#000000"/>')  # the upper half of a circle
    assert near(px(arc, 20, 12), BLACK) and near(px(arc, 20, 25), WHITE)
    holes = _png('<path d="M 5 5 H 35 V 35 H 5 Z M 15 15 H 25 V 25 H 15 Z" fill="#000000" fill-rule="evenodd"/>')
    assert near(px(holes, 10, 10), BLACK) and near(px(holes, 20, 20), WHITE)


@pytest.mark.parametrize(
    "d, words",
    [
        ("L 1 2", "starts with a move"),
        ("M 1", "'M' takes 2 numbers (x y); found 1"),
        ("M 1 2 X 3", "cannot read 'X 3'"),
        ("M 0 0 A 5 5 0 2 1 10 0", "are 0 or 1"),
    ],
)
def test_bad_path_data_is_said_in_words(d: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        _face(f'<path d="{d}" fill="#000"/>')


@pytest.mark.slow
@pytest.mark.parametrize(
    "shape",
    [
        '<rect x="5" y="5" w="30" h="30" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<circle cx="20" cy="20" r="15" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<ellipse cx="20" cy="20" rx="15" ry="15" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<polygon points="5,5 35,5 35,35 5,35" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<star cx="20" cy="20" r="15" inner="14.9" points="40" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<path d="M 5 5 H 35" stroke="#000" stroke-width="0.6" dash="2 2"/>',
        '<text x="5" y="5" w="30" h="30" stroke="#000" stroke-width="0.6" dash="2 2">x</text>',
    ],
)
def test_every_stroked_shape_dashes(shape: str) -> None:
    """A dashed outline breaks into many pieces of ink; a solid one is one piece (a text box's frame
    plus its letter: two)."""
    assert _pieces(_png(shape)) >= 8, shape
    assert _pieces(_png(shape.replace(' dash="2 2"', ""))) <= 2, shape


def _pieces(im) -> int:
    """Connected pieces of dark ink."""
    dark = {(x, y) for x in range(im.width) for y in range(im.height) if sum(im.getpixel((x, y))) < 384}
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


def test_linear_and_radial_gradients() -> None:
    im = _png('<rect x="0" y="0" w="40" h="40" fill="linear-gradient(90deg, #000000, #ffffff)"/>')
    left, mid, right = px(im, 0.5, 20), px(im, 20, 20), px(im, 39.5, 20)
    assert sum(left) < 30 and sum(right) > 735 and 300 < sum(mid) < 460
    assert near(px(im, 20, 2), mid)  # constant down a column
    down = _png('<rect x="0" y="0" w="40" h="40" fill="linear-gradient(red, blue 50%)"/>')  # to bottom, by default
    assert near(px(down, 20, 0.3), (255, 0, 0), 12) and near(px(down, 20, 30), (0, 0, 255))
    radial = _png('<circle cx="20" cy="20" r="20" fill="radial-gradient(#ffffff, #000000)"/>')
    assert sum(px(radial, 20, 20)) > 735 and sum(px(radial, 20, 1)) < sum(px(radial, 20, 10)) < sum(px(radial, 20, 19))


@pytest.mark.parametrize(
    "fill, words",
    [
        ("linear-gradient(red)", "at least two colours"),
        ("linear-gradient(to middle, red, blue)", "use to top, to right"),
        ("radial-gradient(red, bleu)", "did you mean 'blue'?"),
        ("linear-gradient(red, blue", "close the bracket"),
    ],
)
def test_bad_gradients_are_said_in_words(fill: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        _face(f'<rect x="0" y="0" w="10" h="10" fill="{fill}"/>')


def test_opacity_on_shapes_text_and_pictures(tmp_path: Path) -> None:
    from PIL import Image

    (tmp_path / "images").mkdir()
    Image.new("RGB", (50, 50), (0, 0, 0)).save(tmp_path / "images" / "black.png")
    im = _png(
        '<rect x="0" y="0" w="10" h="10" fill="#000000" opacity="0.5"/>'
        '<image src="images/black.png" x="10" y="0" w="10" h="10" opacity="50%"/>'
        '<icon name="d6" x="20" y="0" size="10" color="#000000" opacity="0.5"/>'
        '<text x="0" y="12" w="40" h="28" size="50" color="#000000" opacity="0.5">■</text>',
        tmp_path,
    )
    grey = (128, 128, 128)
    assert near(px(im, 5, 5), grey) and near(px(im, 15, 5), grey)

    def darkest(x0: int, x1: int, y0: int, y1: int) -> int:
        return min(sum(im.getpixel((x, y))) for x in range(x0, x1) for y in range(y0, y1))

    assert 3 * 115 <= darkest(200, 300, 0, 100) <= 3 * 140  # the icon's ink: half black at most
    assert 3 * 115 <= darkest(0, 400, 130, 400) <= 3 * 140  # the text's
    with pytest.raises(ValueError, match=r"from 0 \(invisible\) to 1"):
        _face('<rect x="0" y="0" w="10" h="10" fill="#000" opacity="2"/>')


def test_each_corner_has_its_own_radius() -> None:
    im = _png('<rect x="0" y="0" w="40" h="40" fill="#000000" r="10 0 10 0"/>')
    assert near(px(im, 0.5, 0.5), WHITE) and near(px(im, 39.5, 39.5), WHITE)  # rounded: top-left, bottom-right
    assert near(px(im, 39.5, 0.5), BLACK) and near(px(im, 0.5, 39.5), BLACK)  # square: top-right, bottom-left
    with pytest.raises(ValueError, match="one radius, or four"):
        _face('<rect x="0" y="0" w="10" h="10" r="1 2"/>')


TEXT = "Justified text spreads every line but the last across the whole box, so the right edge is straight."


def test_justified_lines_reach_both_edges_but_the_last() -> None:
    from mazmorra.assets import fonts

    face = _face(f'<text x="2" y="2" w="36" h="36" size="8" align="justify">{TEXT}</text>')
    lines: dict[float, list[TextOp]] = {}
    for op in face.ops:
        assert isinstance(op, TextOp)
        lines.setdefault(op.y, []).append(op)
    ends = [max(o.x + fonts.width(o.text, o.font, o.size) / 2.8346457 for o in ln) for ln in lines.values()]
    assert len(ends) >= 3
    assert all(abs(e - 38) < 0.05 for e in ends[:-1]), ends
    assert ends[-1] < 37


def test_letter_spacing_widens_and_outline_rings_the_glyphs() -> None:
    plain = _face('<text x="0" y="0" w="40" h="10" size="12">WIDE</text>').ops[0]
    spaced = _face('<text x="0" y="0" w="40" h="10" size="12" letter-spacing="0.2">WIDE</text>').ops[0]
    assert isinstance(spaced, TextOp) and spaced.spacing == pytest.approx(2.4)
    a = _png('<text x="0" y="0" w="40" h="10" size="12">WIDE</text>')
    b = _png('<text x="0" y="0" w="40" h="10" size="12" letter-spacing="0.2">WIDE</text>')
    assert (b.getbbox() if False else _ink_width(b)) > _ink_width(a) + 20  # 3 gaps × 2.4 pt ≈ 2.5 mm
    del plain
    ringed = _png(
        '<rect x="0" y="0" w="40" h="40" fill="#000000"/>'
        '<text x="0" y="0" w="40" h="40" size="60" color="#000000" outline="#ff0000" outline-width="0.5">O</text>'
    )
    assert any(near(ringed.getpixel((x, y)), (255, 0, 0), 20) for x in range(400) for y in range(0, 400, 4))


def _ink_width(im) -> int:
    xs = [x for x in range(im.width) for y in range(0, 100, 3) if sum(im.getpixel((x, y))) < 300]
    return max(xs) - min(xs)


def test_an_svg_picture_is_drawn_as_vectors(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    shutil.copy(HERE / "drawing" / "badge.svg", tmp_path / "images" / "badge.svg")
    face = _face('<image src="images/badge.svg" x="0" y="0" w="40" h="40"/>', tmp_path)
    (op,) = face.ops
    assert isinstance(op, ImageOp) and op.vector
    im = _png('<image src="images/badge.svg" x="0" y="0" w="40" h="40"/>', tmp_path)
    assert near(px(im, 20, 20), (0xFF, 0xD1, 0x66)) and near(px(im, 2, 2), (0x2A, 0x6F, 0x97))
    from mazmorra.render.raster import FacePages

    pages = FacePages(IconSet.for_pack(tmp_path), "en")
    pages.face_page(face, 40, 40, 0, 0)
    data = pages.pdf()
    assert b"/Subtype /Image" not in data and b"/Subtype /Form" in data  # vectors, no bitmap


@pytest.mark.parametrize(
    "svg, words",
    [
        ('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>', "DOCTYPE"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
            '<image xlink:href="file:///etc/passwd" width="5" height="5"/></svg>',
            "refers to another file or address",
        ),
    ],
)
def test_an_unsafe_svg_picture_is_refused_where_it_is_named(pack_copy, svg: str, words: str) -> None:
    pack = pack_copy("muestras")
    (pack / "images").mkdir()
    (pack / "images" / "bad.svg").write_text(svg, encoding="utf-8")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    element = '<image src="images/bad.svg" x="1" y="1" w="5" h="5"/>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {element}\n</card>"), encoding="utf-8")
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and words in text and "image.invalid" in text, text
    assert "Traceback" not in text


def test_a_pack_drawing_with_every_new_element_builds_and_passes_its_print_checks(pack_copy) -> None:
    """A real build: layout, the print checks (bounds, masks, colours under text) and the PDF."""
    pack = pack_copy("muestras")
    (pack / "images").mkdir()
    shutil.copy(HERE / "drawing" / "badge.svg", pack / "images" / "badge.svg")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    extra = (
        '<g overlap="ok"><ellipse cx="10" cy="10" rx="4" ry="2" fill="linear-gradient(red, blue)" dash="1 1" stroke="#000"/>'
        '<star cx="20" cy="10" r="3" fill="gold" opacity="0.7"/>'
        '<path d="M 30 8 q 2 -4 4 0 t 4 0" stroke="#000" fill="none"/>'
        '<image src="images/badge.svg" x="40" y="6" w="6" h="6" opacity="0.8"/></g>'
    )
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {extra}\n</card>"), encoding="utf-8")
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    pdfs = list((pack.parents[1] / "output").rglob("*.pdf"))
    assert pdfs


def test_a_bad_new_attribute_value_is_located_at_its_template_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    element = '<star cx="5" cy="5" r="3" points="many"/>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {element}\n</card>"), encoding="utf-8")
    line = line_of(pack / "templates" / "card.xml.j2", element)
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and f"card.xml.j2:{line}:3" in text and "a whole number of tips" in text, text


def test_every_element_and_attribute_is_documented() -> None:
    """Squib's options-documented spec: each element of ELEMENTS has a row in docs/templates.md
    naming every attribute it takes."""
    doc = DOCS.read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `<([a-z-]+)>` \| (.*)$", doc, re.MULTILINE)}
    missing = []
    for tag, spec in ELEMENTS.items():
        if tag not in rows and f"\n## {tag}\n" not in doc:
            missing.append(f"<{tag}>")
            continue
        if spec.checks_own:
            continue  # <grid> documents its attributes in its own section
        words = set(re.findall(r"[a-z][a-z0-9-]*", rows[tag]))
        if "paint" in words:  # the paint every shape takes, documented once under the table
            words |= PAINT
        missing += [f"<{tag} {a}>" for a in sorted(spec.attrs) if a not in words]
    paint = doc[doc.index("**Paint**") :]
    missing += [f"paint {a}" for a in sorted(PAINT) if f"`{a}`" not in paint[:800]]
    for attr in ROOT_ATTRS:
        if f"`{attr}`" not in doc:
            missing.append(f"<card {attr}>")
    assert missing == []


def test_new_ops_keep_old_layouts_stable() -> None:
    """The new fields of old ops are optional: a rect without them lays out exactly as before."""
    (rect,) = _face('<rect x="1" y="1" w="5" h="5" fill="#000"/>').ops
    from dataclasses import fields

    new = {"dash", "gradient", "radii"}
    assert all(f.metadata.get("optional") for f in fields(rect) if f.name in new)
    assert isinstance(_face('<ellipse cx="5" cy="5" rx="2" ry="1" fill="#000"/>').ops[0], EllipseOp)
    assert isinstance(_face('<path d="M0 0 L 1 1" stroke="#000"/>').ops[0], PathOp)


def test_a_face_drawn_as_a_reused_form_keeps_its_alpha_and_gradients() -> None:
    """Copies and shared backs are drawn once as a form: its translucency and gradients must come
    with it (ReportLab's own forms drop them from their resources)."""
    import io

    import pypdfium2 as pdfium

    from mazmorra.render.draw.pdfpages import DocMeta, PdfPages

    face = _face(
        '<rect x="0" y="0" w="20" h="40" fill="#ff000080"/>'
        '<rect x="20" y="0" w="20" h="40" fill="linear-gradient(90deg, #000000, #ffffff)"/>'
    )
    buf = io.BytesIO()
    pages = PdfPages(buf, (40.0, 40.0), DocMeta("", "", "", "en"), IconSet.for_pack(None))
    pages.draw_face(face, 0.0, 0.0, reused=True)
    pages.c.showPage()
    pages.save()
    im = pdfium.PdfDocument(buf.getvalue())[0].render(scale=254 / 72).to_pil().convert("RGB")
    assert near(px(im, 10, 20), (255, 127, 127))  # half red over white, not solid red
    assert sum(px(im, 20.5, 20)) < 60 and sum(px(im, 39.5, 20)) > 700  # the gradient drawn, not skipped


def test_the_contrast_check_sees_a_gradient_fade() -> None:
    """gradient_at, what the contrast check composes over the background: colour and opacity each
    shade on their own, and the shape's opacity multiplies both ends."""
    from mazmorra.layout.elements.paint import gradient_at
    from mazmorra.model.colour import rgba

    (op,) = _face('<rect x="0" y="0" w="10" h="10" fill="linear-gradient(90deg, #ff0000, #0000ff00)"/>').ops
    left, middle, right = (rgba(gradient_at(op.gradient, x, 5)) for x in (0, 5, 10))
    assert left == (1.0, 0.0, 0.0, 1.0) and right[3] == 0.0
    assert abs(middle[0] - 0.5) < 0.01 and abs(middle[2] - 0.5) < 0.01 and abs(middle[3] - 0.5) < 0.01, middle
    (faded,) = _face('<rect x="0" y="0" w="10" h="10" opacity="0.5" fill="linear-gradient(#f00, #f008)"/>').ops
    assert abs(rgba(gradient_at(faded.gradient, 5, 10))[3] - 0.5 * 0x88 / 255) < 0.01
