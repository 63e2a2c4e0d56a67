"""Styled spans inside a text ([color=…], [size=…%], [font=…], [u], [s], [sup], [sub]): parsed,
drawn (read back from pixels and ops), their mistakes located, and kept by translations like icon
tokens and bold markers."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest
from conftest import edit, line_of, run_cli

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.model.cardtext import Span, TextPart, split_blocks, token_signature
from mazmorra.render.raster import Rasteriser, dpi_frame


def _face(text: str):
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    xml = f'<card background="#ffffff"><text x="0" y="0" w="60" h="30" size="12">{text}</text></card>'
    face = parse_face(xml, ctx, "front", 60.0, 30.0, 0.0, "rect")
    return face, ctx.problems


def _ops(text: str) -> dict[str, TextOp]:
    face, problems = _face(text)
    assert problems == []
    return {op.text: op for op in face.ops if isinstance(op, TextOp)}


def test_spans_parse_nested_and_across_words() -> None:
    (block,) = split_blocks("a [color=red][u]b c[/u] d[/color] [x]")
    words = [p for chunk in block.lines[0] for p in chunk]
    assert words[1] == TextPart("b", False, False, Span(color="red", underline=True))
    assert words[3] == TextPart("d", False, False, Span(color="red"))
    assert words[4] == TextPart("[x]", False)  # any other bracket is text
    assert token_signature("a [u]b[/u] {coin}") == ["[/u]", "[u]", "{coin}"]


def test_each_span_draws_as_its_op_says() -> None:
    ops = _ops(
        "plain [color=#ff0000]red[/color] [size=150%]big[/size] H[sub]2[/sub] x[sup]n[/sup] [u]under[/u] [s]gone[/s] [font=serif-bold]serif[/font]"
    )
    plain = ops["plain"]
    assert ops["red"].color == "#ff0000" and plain.color == "#222222"
    assert ops["big"].size == pytest.approx(plain.size * 1.5)
    assert ops["2"].rise < 0 < ops["n"].rise and ops["2"].size < plain.size
    assert ops["under"].underline and ops["gone"].strike and not plain.underline
    assert ops["serif"].font == "serif-bold"


def test_spans_read_back_from_pixels() -> None:
    face, _ = _face("[color=#ff0000]■■■[/color] [u]___[/u]")
    im = Rasteriser(IconSet.for_pack(None), "en").images([(face, dpi_frame(face, 254, False))])[0].convert("RGB")
    colours = {c for _, c in im.getcolors(1 << 20) or []}
    assert any(r > 230 and g < 40 and b < 40 for r, g, b in colours)  # the red span is red
    plain, _ = _face("■■■ ___")
    a = Rasteriser(IconSet.for_pack(None), "en").images([(plain, dpi_frame(plain, 254, False))])[0].convert("L")
    b = im.convert("L")
    assert sum(b.histogram()[:128]) > sum(a.histogram()[:128])  # the underline adds ink


@pytest.mark.parametrize(
    "text, words",
    [
        ("[u]open", "'[u…]' is never closed: end it with [/u]"),
        ("[u]a [s]b[/u][/s]", "'[/u]' closes a [u] that is not the last one open ([/s] first)"),
        ("[color=rde]a[/color]", "'rde' is not a colour name; did you mean 'red'?"),
        ("[size=12]a[/size]", "a size relative to the text, 30% to 300%"),
        ("[font=comic]a[/font]", "unknown font"),
        ("[color]a[/color]", "write [color=…]"),
    ],
)
def test_a_span_mistake_is_a_problem_in_words(text: str, words: str) -> None:
    _, problems = _face(text)
    assert problems and {p.rule for p in problems} == {"text.span"}, problems
    assert words in problems[0].message, problems


def test_a_translation_that_drops_a_span_is_reported_at_its_po_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    edit(pack / "decks" / "cartas.yaml", "**Recupera** el aliento", "**Recupera** [u]el aliento[/u]")
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = po.find("fogata-del-claustro.text", by="msgctxt")
    entry.msgid = entry.msgid.replace("**Recupera** el aliento", "**Recupera** [u]el aliento[/u]")
    entry.msgstr = entry.msgstr.replace("[u]", "").replace("[/u]", "")
    po.save()
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    out = res.stdout + res.stderr
    assert res.returncode == 1 and "i18n.tokens" in out and "[/u]" in out, out
    line = line_of(po_path, entry.msgstr[:20])
    assert f"locale/en.po:{line}" in out, out


def test_a_span_value_may_hold_spaces() -> None:
    """[font=Some Family], [color=rgb(1, 2, 3)]: the tag stays whole (no line breaks inside it), the
    value is read without the spaces around it, the words it styles are split as usual."""
    (block,) = split_blocks("a [color= rgb(192, 0, 0) ]b c[/color] d")
    words = [p for chunk in block.lines[0] for p in chunk]
    assert [w.text for w in words if isinstance(w, TextPart)] == ["a", "b", "c", "d"]
    assert words[1].span == words[2].span == Span(color="rgb(192, 0, 0)") and words[3].span is None
    ops = _ops("x [color=rgb(192, 0, 0)]red words[/color]")
    assert ops["red words"].color == "#c00000", ops


def test_a_font_family_with_a_space_in_a_span(tmp_path) -> None:
    """A pack font whose family has a space ("Old Caladea") named inside a span: the build draws
    those words in it (the PDF embeds it) and the rest in the box's font."""
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    pack = tmp_path / "intro"
    shutil.copytree(Path(__file__).resolve().parents[1] / "squib" / "intro", pack)
    font = TTFont(pack / "fonts" / "Caladea-Regular.ttf")
    for rec in font["name"].names:
        if rec.nameID in (1, 4, 16):
            rec.string = "Old Caladea"
        if rec.nameID == 6:
            rec.string = "OldCaladea-Regular"
    font.save(pack / "fonts" / "Caladea-Regular.ttf")
    edit(pack / "templates" / "persona.xml.j2", 'font="Caladea"', 'font="sans"')
    edit(pack / "templates" / "persona.xml.j2", "{{ card.power }}", "[font=Old Caladea]{{ card.power }}[/font]")
    res = run_cli("build", str(pack), "--lang", "en", "-o", str(tmp_path / "out"), "-j", "1")
    assert res.returncode == 0, res.stdout + res.stderr
    (pdf,) = (tmp_path / "out").rglob("*.pdf")
    page = PdfReader(pdf).pages[0]
    assert "Use the power of another player" in page.extract_text()
    fonts = {str(f["/BaseFont"]) for f in page["/Resources"]["/Font"].get_object().values()}
    assert any("OldCaladea" in f for f in fonts) and any("DejaVu" in f for f in fonts), fonts
