"""Issue 21, the preflight of a print-shop build (rule ids preflight.*): findings at the template
line that causes them, errors stop the build, what only the written file shows checked on it."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import line_of, run_cli
from reportlab.pdfgen.canvas import Canvas

from mazmorra.assets import fonts
from mazmorra.render.draw import pdfx
from mazmorra.support.paths import templates_dir

pytestmark = pytest.mark.slow  # not in the fast tier: print-shop builds of sample copies

PANEL = '<rect x="8" y="30" w="20" h="12" fill="#030000"/>'  # a rich black: C, M, Y and K all heavy


def _planted(pack: Path, icc: str) -> int:
    """The artimaña template with a rich-black panel, and a profile: DriveThruCards (240 % at most)
    with the given CMYK profile. Returns the panel's line."""
    (pack / "templates").mkdir()
    card = (templates_dir() / "artimana.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "artimana.xml.j2").write_text(
        card.replace("</card>", f"  {PANEL}\n</card>"), encoding="utf-8"
    )
    (pack / "printers").mkdir()
    (pack / "printers" / "dtc.yaml").write_text(
        f"name: DriveThruCards with {icc}\nextends: drivethrucards\ncolour:\n  icc: {icc}\n", encoding="utf-8"
    )
    return line_of(pack / "templates" / "artimana.xml.j2", PANEL)


def test_a_panel_over_the_ink_limit_fails_the_build_at_its_template_line(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    line = _planted(pack, "swop-tr005")  # SWOP's usual 300 %: the panel separates to about 290 %
    res = run_cli("build", "expedicion", "--printer", "dtc", "-d", "artimanas", "--lang", "en", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "Traceback" not in text, text
    findings = [ln for ln in text.splitlines() if "(preflight.ink)" in ln]
    finding = next(ln for ln in findings if f"templates/artimana.xml.j2:{line}:" in ln)
    assert "#030000" in finding and "over DriveThruCards with swop-tr005's limit of 240 %" in finding
    total = int(finding.split("separates to ")[1].split(" %")[0])
    assert 280 <= total <= 300
    back = line_of(templates_dir() / "artimana-back.xml.j2", "<card")  # its background, set on <card>
    assert any(f"artimana-back.xml.j2:{back}:" in ln and "background" in ln for ln in findings), findings
    written = [p for p in (pack.parents[1] / "output").rglob("*") if p.is_file() and ".cache" not in p.parts]
    assert written == []  # errors stop the build: nothing written


def test_the_same_panel_separated_within_the_limit_passes(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    _planted(pack, "swop-tr005-240")  # the shipped DriveThruCards profile keeps every colour within 240 %
    res = run_cli("build", "expedicion", "--printer", "dtc", "-d", "artimanas", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    assert "preflight.ink" not in res.stdout + res.stderr


def test_small_text_in_a_four_colour_dark_prints_in_black_ink_alone(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """7 pt text in a near-black slate (#17202a separates as a four-colour dark) prints on the K plate
    alone, at its lightness, and the build meets no rich-black finding: Ghostscript's separations of
    the shop's file show no cyan, magenta or yellow where the text is."""
    from conftest import need_tool, separations

    pack = pack_copy("expedicion")
    text_el = '<g overlap="ok"><rect x="8" y="26" w="40" h="6" fill="#ffffff"/><text x="8" y="26" w="40" h="5" size="7" color="#17202a">{{ card.name }}</text></g>'
    (pack / "templates").mkdir()
    card = (templates_dir() / "artimana.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "artimana.xml.j2").write_text(
        card.replace("</card>", f"  {text_el}\n</card>"), encoding="utf-8"
    )
    res = run_cli(
        "build",
        "expedicion",
        "--printer",
        "drivethrucards",
        "-d",
        "artimanas",
        "--lang",
        "en",
        "--strict",
        cwd=pack.parents[1],
    )
    text = res.stdout + res.stderr
    assert res.returncode == 0, text
    assert "rich-black" not in text
    need_tool("gs")
    pdf = next((pack.parents[1] / "output" / "expedicion" / "en" / "drivethrucards").glob("*.pdf"))
    dpi = 300
    (img,) = separations(pdf, dpi, tmp_path, first=2, last=2)
    bleed = 0.125 * 25.4
    px = lambda mm: round((mm + bleed) / 25.4 * dpi)  # noqa: E731
    box = img.crop((px(8.3), px(26.3), px(47.7), px(30.7)))  # inside the white panel
    data = box.tobytes()
    dark = [data[i : i + 4] for i in range(0, len(data), 4) if data[i + 3] >= 128]  # the glyphs
    assert len(dark) > 200, "the text is drawn"
    assert all(c == m == y == 0 for c, m, y, _ in dark), "small dark text on one plate"


def test_the_written_file_is_checked_for_rgb_and_unembedded_fonts() -> None:
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFillColorRGB(1, 0, 0)
    c.setFont("Helvetica", 9)
    c.drawString(10, 10, "RGB")
    c.save()
    assert pdfx.leftovers(buf.getvalue()) == (True, ["Helvetica"])
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, initialFontName=fonts.register(fonts.DEFAULT))  # an embedded font, as ours
    c.setFillColorCMYK(0, 0, 0, 1)
    c.rect(10, 10, 20, 20, fill=1, stroke=0)
    c.save()
    assert pdfx.leftovers(buf.getvalue()) == (False, [])
    assert not pdfx.transparent(buf.getvalue())
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, initialFontName=fonts.register(fonts.DEFAULT))
    c.setFillAlpha(0.5)
    c.rect(10, 10, 20, 20, fill=1, stroke=0)
    c.save()
    assert pdfx.transparent(buf.getvalue())


def test_a_broken_printer_profile_fails_like_bad_content(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "x.yaml").write_text("name: X\ncolour:\n  space: cmyk\n  icc: fogra99\n", encoding="utf-8")
    res = run_cli("build", "expedicion", "--printer", "x", cwd=pack.parents[1])
    assert res.returncode == 1
    assert "x.yaml:4" in res.stdout + res.stderr and "unknown profile 'fogra99'" in res.stdout + res.stderr


def test_a_printer_with_a_wider_safe_area_warns_at_the_template_lines(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "wide.yaml").write_text(
        "name: Wide margins\nextends: drivethrucards\nproducts:\n  poker: {size: 2.5x3.5in, safe: 6mm}\n",
        encoding="utf-8",
    )
    res = run_cli("build", "expedicion", "--printer", "wide", "-d", "artimanas", "--lang", "en", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 0, text  # a warning: the build goes on
    found = [ln for ln in text.splitlines() if "(preflight.safe-area)" in ln]
    assert found and all("templates/artimana" in ln and ".xml.j2:" in ln for ln in found), text
    assert "inside Wide margins's safe area" in found[0]
    assert (
        "(preflight.safe-area)"
        not in run_cli(
            "build", "expedicion", "--printer", "drivethrucards", "-d", "artimanas", "--lang", "en", cwd=pack.parents[1]
        ).stderr
    )


def test_a_raster_image_over_the_ink_limit_is_found_at_its_element(tmp_path: Path) -> None:
    from PIL import Image

    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Face, ImageOp
    from mazmorra.layout.elements.attrs import Owner
    from mazmorra.layout.printcheck.preflight import preflight_face
    from mazmorra.printers import load

    art = tmp_path / "art.png"
    Image.new("RGB", (300, 300), (3, 0, 0)).save(art)  # a rich black: about 290 % in SWOP's 300 % profile
    face = Face("c", "front", 63.5, 88.9, 3.175, (ImageOp(str(art), 10, 10, 20, 20),))
    owners = {0: Owner(1, "card.xml.j2:7:3", "image")}
    dtc = load("drivethrucards")
    icons = IconSet.for_pack(None)
    found = [f.rule for f in preflight_face(face, owners, dtc, icons, 3.0)]
    assert found == ["preflight.colour-profile"]  # separated within 240 % (its lack of a profile noted)
    wide = replace(dtc, icc="swop-tr005")
    (found,) = [f for f in preflight_face(face, owners, wide, icons, 3.0) if f.rule == "preflight.ink"]
    assert found.at == "card.xml.j2:7:3" and "image art.png" in found.message


def test_transparency_for_a_pdfx1a_printer_is_an_error_at_its_element(pack_copy) -> None:  # type: ignore[no-untyped-def]
    """PDF/X-1a forbids transparency: a translucent element is an error at its template line (for
    the cards that meet it), before anything is written; PDF/X-4 allows it."""
    pack = pack_copy("muestras")
    planted = '<rect x="8" y="30" w="20" h="12" fill="#c0392b80" overlap="ok"/>'
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {planted}\n</card>"), "utf-8")
    line = line_of(pack / "templates" / "card.xml.j2", planted)
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "es", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    found = [ln for ln in text.splitlines() if "(preflight.transparency)" in ln]
    assert found and all(f"card.xml.j2:{line}:" in ln and "<rect>" in ln for ln in found), found
    assert not list((pack.parents[1] / "output").glob("muestras/es/drivethrucards/*.pdf"))
    (pack / "printers").mkdir()
    (pack / "printers" / "x4.yaml").write_text("name: X-4 shop\nextends: drivethrucards\npdf: PDF/X-4\n", "utf-8")
    res = run_cli("build", "muestras", "--printer", "x4", "--lang", "es", cwd=pack.parents[1])
    assert res.returncode == 0 and "transparency" not in res.stdout + res.stderr, res.stdout + res.stderr


@pytest.mark.parametrize(
    "pack", ["cripta", "engranajes", "expedicion", "generada", "grimorio", "muestras", "profundidades"]
)
def test_every_sample_builds_for_drivethrucards_strictly(pack: str, tmp_path: Path) -> None:
    """Issue 40: a --strict print-shop build of every sample pack passes its own preflight (sizes
    the shop does not sell written apart, small dark text on the K plate, no transparency)."""
    res = run_cli("build", pack, "--printer", "drivethrucards", "--strict", "--lang", "en", "--out", str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "warning" not in res.stderr, res.stderr


def test_art_that_stops_at_the_trim_is_an_error_for_a_printer_with_a_bleed(pack_copy) -> None:  # type: ignore[no-untyped-def]
    """A band that reaches the trim but not into the bleed, on a card with no background of its own:
    a cut a little outside the trim leaves a white sliver (issue 40.3); the same band run into the
    bleed is fine."""
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    card = card.replace('<card background="{{ card.colour }}">', "<card>")
    stops = '<rect x="0" y="0" w="{{ w }}" h="9" fill="#1b4f72" overlap="ok"/>'
    target = pack / "templates" / "card.xml.j2"
    target.write_text(card.replace("</card>", f"  {stops}\n</card>"), "utf-8")
    line = line_of(target, stops)
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "es", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    found = [ln for ln in text.splitlines() if "(preflight.bleed)" in ln]
    assert found and all(f"card.xml.j2:{line}:" in ln for ln in found), found
    assert "left, top, right side(s)" in found[0] and "3.175 mm into the bleed" in found[0]  # the printer's bleed
    runs = '<rect x="-3.2" y="-3.2" w="{{ w + 6.4 }}" h="12.2" fill="#1b4f72" overlap="ok"/>'
    target.write_text(card.replace("</card>", f"  {runs}\n</card>"), "utf-8")
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "es", cwd=pack.parents[1])
    assert "preflight.bleed" not in res.stdout + res.stderr, res.stdout + res.stderr
