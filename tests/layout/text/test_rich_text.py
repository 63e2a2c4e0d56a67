"""Rich text as designers write it (italic, paragraphs with their own alignment, a number inside an
icon, each text hyphenated in its own language), templates that rotate, round and recolour, and a
pack's own fonts: checked glyph by glyph, embedded and subset."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_fonts_embedded, edit, need_tool, pdf_fonts, run_cli

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import IconOp, RectOp, RotateOp, TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.text.fit import Style, fit
from mazmorra.model.cardtext import IconPart, TextPart, icon_tokens, split_blocks, token_signature
from mazmorra.model.units import PT_PER_MM


def _face(xml: str, root: Path | None = None, text_lang=None):
    ctx = FaceContext("c", "en", IconSet.for_pack(root), root, lambda f: None, text_lang=text_lang)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")
    assert ctx.problems == []
    return face


def _pixels(face):
    from mazmorra.render.raster import Rasteriser, dpi_frame

    return Rasteriser(IconSet.for_pack(None), "en").images([(face, dpi_frame(face, 254, False))])[0]  # 10 px/mm


def test_italic_bold_paragraphs_and_alignment_parse() -> None:
    blocks = split_blocks("Roba *una* **carta**.\nOtra línea\n\n{center}*Fin* del texto")
    assert len(blocks) == 2 and blocks[0].align is None and blocks[1].align == "center"
    assert blocks[0].lines[0][1] == [TextPart("una", False, True)]
    assert blocks[0].lines[0][2] == [TextPart("carta", True, False), TextPart(".", False, False)]
    assert len(blocks[0].lines) == 2  # a single line break stays a line break
    assert blocks[1].lines[0][0] == [TextPart("Fin", False, True)]
    assert split_blocks("7 * 7 = 49")[0].lines[0][1] == [TextPart("*", False, False)]  # a lone star is a star


def test_a_number_inside_an_icon_has_its_own_token() -> None:
    assert icon_tokens("Paga {coin=3} o {draw:2}; {center}") == [
        IconPart("coin", "3", inside=True),
        IconPart("draw", "2"),
    ]
    assert token_signature("Paga {coin=3}, *rápido*") == sorted(["{coin=3}", "*", "*"])


def test_paragraphs_are_spaced_and_keep_their_alignment() -> None:
    style = Style()
    one = fit("Uno\nDos", 200, 200, style, 10, 10, "es")
    two = fit("Uno\n\nDos", 200, 200, style, 10, 10, "es")
    assert len(one.lines) == len(two.lines) == 2
    assert two.height == pytest.approx(one.height + 10 * style.leading * style.paragraph_spacing)
    face = _face('<text x="0" y="0" w="40" h="20" size="9">Izquierda\n\n{right}Derecha</text>')
    texts = [op for op in face.ops if isinstance(op, TextOp)]
    assert texts[0].x == pytest.approx(0.0)
    right_end = (
        texts[1].x + __import__("mazmorra.assets.fonts", fromlist=["width"]).width("Derecha", "sans", 9) / PT_PER_MM
    )
    assert right_end == pytest.approx(40.0, abs=0.01)
    assert texts[1].y - texts[0].y == pytest.approx(9 * 1.18 * 1.5 / PT_PER_MM)


def test_italic_runs_use_the_italic_face_and_a_number_sits_inside_its_icon() -> None:
    face = _face('<text x="0" y="0" w="40" h="20" size="10">Paga {coin=3} *ya*</text>')
    fonts_used = {op.text: op.font for op in face.ops if isinstance(op, TextOp)}
    assert fonts_used["ya"] == "sans-italic" and fonts_used["3"] == "sans-bold"
    icon = next(op for op in face.ops if isinstance(op, IconOp))
    three = next(op for op in face.ops if isinstance(op, TextOp) and op.text == "3")
    assert icon.size == pytest.approx(10 * 1.3 / PT_PER_MM)
    assert icon.x < three.x < icon.x + icon.size / 2 and icon.y < three.y < icon.y + icon.size


def test_a_text_that_falls_back_is_hyphenated_in_its_own_language() -> None:
    text = "extraordinariamente extraordinariamente"
    narrow = '<text x="0" y="0" w="16" h="30" size="9" field="text">' + text + "</text>"
    as_es = [op.text for op in _face(narrow, text_lang=lambda f: "es").ops if isinstance(op, TextOp)]
    as_en = [op.text for op in _face(narrow, text_lang=lambda f: "en").ops if isinstance(op, TextOp)]
    lines = fit(text, 16 * PT_PER_MM, 30 * PT_PER_MM, Style(), 9, 9, "es").lines
    expected = [" ".join(p.part.text for p in line.items if isinstance(p.part, TextPart)) for line in lines]
    assert as_es == expected and as_es != as_en


def test_the_fallback_language_is_known_per_field(pack_copy) -> None:
    from mazmorra.i18n.localise import localise
    from mazmorra.load import load_pack

    pack = pack_copy("muestras")
    import polib

    po = polib.pofile(str(pack / "locale" / "en.po"))
    next(e for e in po if e.msgctxt == "ojo-del-vigia.text").msgstr = ""
    po.save()
    loc = next(c for c in localise(load_pack(pack), "en").components if c.component.id == "ojo-del-vigia")
    assert loc.text_lang("text") == "es" and loc.text_lang("name") == "en"


def test_rotate_turns_an_element_about_its_centre() -> None:
    face = _face('<rect x="18" y="5" w="4" h="30" fill="#000000" rotate="90"/>')
    assert isinstance(face.ops[0], RotateOp) and (face.ops[0].cx, face.ops[0].cy) == (20.0, 20.0)
    img = _pixels(face)
    assert img.getpixel((80, 200)) == (0, 0, 0)  # the bar now lies across the face
    assert img.getpixel((200, 80)) == (255, 255, 255)
    turned = _face('<text x="0" y="0" w="20" h="5" size="9" rotate="-90" origin="0,0">Hola</text>')
    assert isinstance(turned.ops[0], RotateOp) and turned.ops[0].angle == -90


def test_icons_are_recoloured_and_images_get_rounded_corners(tmp_path: Path) -> None:
    from PIL import Image

    plain = _pixels(_face('<icon name="coin" x="0" y="0" size="40"/>')).getpixel((200, 40))
    red = _pixels(_face('<icon name="coin" x="0" y="0" size="40" color="#ff0000"/>')).getpixel((200, 40))
    assert red[0] > 200 and red[1] < 60 and red[2] < 60 and plain != red
    Image.new("RGB", (200, 200), (0, 0, 0)).save(tmp_path / "black.png")
    img = _pixels(_face('<image src="black.png" x="0" y="0" w="40" h="40" r="10"/>', root=tmp_path))
    assert img.getpixel((200, 200)) == (0, 0, 0) and img.getpixel((5, 5)) == (255, 255, 255)
    tinted = _pixels(_face('<image src="black.png" x="0" y="0" w="40" h="40" color="#0000ff"/>', root=tmp_path))
    assert tinted.getpixel((200, 200))[2] > 200 and tinted.getpixel((200, 200))[0] < 60


def test_a_text_box_draws_its_own_rounded_frame() -> None:
    face = _face('<text x="2" y="2" w="30" h="10" fill="#eeeeee" r="2" padding="1">Hola</text>')
    frame = face.ops[0]
    assert isinstance(frame, RectOp) and (frame.x, frame.w, frame.radius, frame.fill) == (2.0, 30.0, 2.0, "#eeeeee")
    assert next(op for op in face.ops if isinstance(op, TextOp)).x == pytest.approx(3.0)


@pytest.mark.slow
def test_a_glyph_the_pack_font_lacks_is_a_located_problem(pack_copy) -> None:
    pack = pack_copy("grimorio")
    edit(pack / "decks" / "criaturas.csv", "**Vuela.**", "**Vuela** 中.")
    res = run_cli("build", "grimorio", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "content/grimorio/decks/criaturas.csv:8:7" in text
    assert (
        "font 'Caladea' (Caladea-Regular.ttf) has no glyph for 中 (U+4E2D)" in text and "(text.missing-glyph)" in text
    )


@pytest.mark.slow
def test_the_pack_font_is_embedded_and_subset(tmp_path: Path) -> None:
    need_tool("pdffonts")
    res = run_cli("build", "grimorio", "--lang", "en", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    pdf = tmp_path / "grimorio" / "en" / "spells.pdf"
    assert_fonts_embedded(pdf)
    names = {cols[0].split("+")[1] for cols in pdf_fonts(pdf)}
    assert names >= {"Caladea-Regular", "Caladea-Bold", "Caladea-Italic"}


@pytest.mark.slow
def test_an_unknown_font_names_the_pack_fonts(pack_copy) -> None:
    pack = pack_copy("grimorio")
    edit(
        pack / "templates" / "criatura.xml.j2",
        'font="Caladea-bold" size="13" min-size="8"',
        'font="Caladia-bold" size="13" min-size="8"',
    )
    res = run_cli("build", "grimorio", cwd=pack.parents[1])
    assert res.returncode == 1 and "unknown font; did you mean 'Caladea-bold'?" in res.stderr, res.stderr


@pytest.mark.slow
def test_an_opentype_font_with_postscript_outlines_is_embedded(pack_copy, tmp_path: Path) -> None:
    """ReportLab embeds TrueType outlines only: a CFF-outline .otf is converted on loading (the
    family here is URW's C059, installed with Ghostscript)."""
    import shutil

    need_tool("pdffonts")
    otf = Path("/usr/share/fonts/opentype/urw-base35")
    if not (otf / "C059-Roman.otf").is_file():
        pytest.skip("URW base35 fonts not installed (they come with Ghostscript)")
    pack = pack_copy("grimorio")
    for old in (pack / "fonts").glob("*.ttf"):
        old.unlink()
    for name in ("C059-Roman.otf", "C059-Bold.otf", "C059-Italic.otf", "C059-BdIta.otf"):
        shutil.copy(otf / name, pack / "fonts" / name)
    for tpl in (pack / "templates").glob("*.j2"):
        tpl.write_text(tpl.read_text(encoding="utf-8").replace("Caladea", "C059"), encoding="utf-8")
    res = run_cli("build", "grimorio", "--lang", "es", "--deck", "hechizos", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    pdf = pack.parents[1] / "output" / "grimorio" / "es" / "hechizos.pdf"
    assert_fonts_embedded(pdf)
    names = {cols[0].split("+")[1] for cols in pdf_fonts(pdf)}
    assert {"C059-Roman", "C059-Italic"} <= names


def test_a_broken_font_file_is_located_and_said_in_our_words(pack_copy) -> None:
    """A font library's bare error ("'name'") never reaches the designer: the file, the rule and
    what is wrong with it, in a sentence."""
    from fontTools.ttLib import TTFont

    pack = pack_copy("grimorio")
    first = sorted((pack / "fonts").glob("*.ttf"))[0]
    font = TTFont(first)
    del font["name"]
    font.save(pack / "fonts" / "Sinnombre.ttf")
    (pack / "fonts" / "Cortada.ttf").write_bytes(first.read_bytes()[:2000])
    res = run_cli("validate", "grimorio", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert (
        "content/grimorio/fonts/Sinnombre.ttf: error [fonts]: cannot use font file 'Sinnombre.ttf': it has no "
        "'name' table: not a complete TrueType or OpenType font (font.unreadable)" in text
    ), text
    assert "content/grimorio/fonts/Cortada.ttf: error [fonts]: cannot use font file 'Cortada.ttf': not a usable" in text
