"""Colours as designers write them: every form draws its own red, green, blue and alpha on a rendered
page (alpha composed over what lies under it), every mistake is a located problem in a designer's
words, and the contrast check sees translucent ink as it prints."""

from __future__ import annotations

import pytest
from conftest import edit, line_of, run_cli

from mazmorra.assets.icons import IconSet
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.model import colour
from mazmorra.render.raster import Rasteriser, dpi_frame
from mazmorra.support.paths import templates_dir


def _png(xml: str, background: str = "#ffffff"):
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    face = parse_face(f'<card background="{background}">{xml}</card>', ctx, "front", 20.0, 20.0, 0.0, "rect")
    assert ctx.problems == []
    return Rasteriser(IconSet.for_pack(None), "en").images([(face, dpi_frame(face, 254, False))])[0].convert("RGB")


def _close(got: tuple[int, ...], want: tuple[int, ...], tol: int = 3) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(got, want, strict=True))


FORMS = [
    ("#f00", (255, 0, 0), 1.0),
    ("#00ff00", (0, 255, 0), 1.0),
    ("#f008", (255, 0, 0), 0x88 / 255),
    ("#ff000080", (255, 0, 0), 0x80 / 255),
    ("navy", (0, 0, 128), 1.0),
    ("RebeccaPurple", (102, 51, 153), 1.0),
    ("transparent", (0, 0, 0), 0.0),
    ("rgb(10, 200, 30)", (10, 200, 30), 1.0),
    ("rgba(255, 0, 0, 0.5)", (255, 0, 0), 0.5),
    ("rgb(0 0 255 / 25%)", (0, 0, 255), 0.25),
    ("hsl(120, 100%, 25%)", (0, 128, 0), 1.0),
    ("hsla(240, 100%, 50%, 0.5)", (0, 0, 255), 0.5),
]


@pytest.mark.parametrize("value, rgb, alpha", FORMS)
def test_every_form_draws_its_colour_and_alpha(value: str, rgb: tuple[int, int, int], alpha: float) -> None:
    """Drawn as a fill over white and over black: each ground shows the colour composed by its alpha."""
    im = _png(f'<rect x="0" y="0" w="10" h="20" fill="#000000"/><rect x="0" y="0" w="20" h="20" fill="{value}"/>')
    on_black, on_white = im.getpixel((50, 100)), im.getpixel((150, 100))
    assert _close(on_white, tuple(round(c * alpha + 255 * (1 - alpha)) for c in rgb)), (value, on_white)
    assert _close(on_black, tuple(round(c * alpha) for c in rgb)), (value, on_black)


@pytest.mark.parametrize("value, rgb, alpha", [f for f in FORMS if f[2] > 0])
def test_strokes_and_text_draw_alpha_too(value: str, rgb: tuple[int, int, int], alpha: float) -> None:
    im = _png(f'<line x1="0" y1="10" x2="20" y2="10" stroke="{value}" stroke-width="4"/>')
    want = tuple(round(c * alpha + 255 * (1 - alpha)) for c in rgb)
    assert _close(im.getpixel((100, 100)), want), (value, im.getpixel((100, 100)))
    text = _png(f'<text x="0" y="0" w="20" h="20" size="40" color="{value}" align="center" valign="middle">■</text>')
    darkest = min((p for _, p in text.getcolors(1 << 20) or []), key=sum)
    assert _close(darkest, want, 6), (value, darkest)


@pytest.mark.parametrize(
    "value, words",
    [
        ("#12345", "has 5 digits after #"),
        ("#ggg", "only the digits 0-9 and a-f"),
        ("rde", "did you mean 'red'?"),
        ("ff0000", "did you mean '#ff0000'?"),
        ("rgb(300, 0, 0)", "go from 0 to 255"),
        ("rgba(255, 0, 0, 2)", "from 0 (invisible) to 1 (solid)"),
        ("hsl(0, 1, 1)", "as a percentage"),
        ("rgb(1, 2)", "takes three values"),
        ("cmyk(0, 0, 0, 1)", "unknown colour function cmyk()"),
        ("rgb(1, 2, 3", "close the bracket"),
    ],
)
def test_a_bad_colour_is_refused_in_a_designers_words(value: str, words: str) -> None:
    with pytest.raises(colour.ColourError) as err:
        colour.parse(value)
    assert words in str(err.value)
    assert "^" not in str(err.value) and "[0-9" not in str(err.value)  # never a regular expression


def test_only_canonical_colours_reach_the_renderer() -> None:
    assert colour.rgba("#ff000080") == (1.0, 0.0, 0.0, 128 / 255)
    for raw in ("red", "#f00", "rgb(1,2,3)", "#ff00000"):
        with pytest.raises(colour.ColourError):
            colour.rgba(raw)


def test_a_bad_template_colour_is_located_with_a_suggestion(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    element = '<rect x="1" y="1" w="5" h="5" fill="rde"/>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {element}\n</card>"), encoding="utf-8")
    line = line_of(pack / "templates" / "card.xml.j2", element)
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert (
        f"card.xml.j2:{line}:3" in text
        and "<rect fill=\"rde\">: 'rde' is not a colour name; did you mean 'red'?" in text
    )
    assert "Traceback" not in text


def test_a_bad_content_colour_is_located_in_its_deck(pack_copy) -> None:
    pack = pack_copy("muestras")
    decks = sorted((pack / "decks").glob("*.yaml"))
    target = next(d for d in decks if "colour:" in d.read_text(encoding="utf-8"))
    text = target.read_text(encoding="utf-8")
    start = text.index("colour:")
    old = text[start : text.index("\n", start)]
    edit(target, old, "colour: '#12345'")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert f"{target.name}:{line_of(target, 'colour: ')}" in out, out
    assert "'#12345' has 5 digits after #" in out and "pattern" not in out and "[0-9" not in out


def test_contrast_sees_translucent_ink_as_it_prints(pack_copy) -> None:
    """Black at 20% on white prints light grey: too faint, reported; opaque black passes."""
    from mazmorra.layout.printcheck.contrast import contrast

    assert colour.over("#00000033", "#ffffff") == "#cccccc"
    assert contrast(colour.over("#00000033", "#ffffff"), "#ffffff") < 1.7
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    faint = '<text x="3" y="30" w="40" h="8" size="9" color="rgba(0, 0, 0, 0.2)">Faint words</text>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {faint}\n</card>"), encoding="utf-8")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    out = res.stdout + res.stderr
    assert "“Faint words” in #00000033" in out and "print.contrast" in out, out
