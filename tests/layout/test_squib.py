"""Squib's own shapes sample (samples/shapes/_draw_shapes.rb) re-created as a pack in mazmorra's
drawing language, its render compared with Squib's expected image by a coarse pixel metric: the
mean difference of the two pictures averaged over 25 px squares. What still differs, and why, is in
docs/templates.md (“Coming from Squib”)."""

from __future__ import annotations

from pathlib import Path

from conftest import laid_out
from PIL import Image, ImageChops, ImageStat

from mazmorra.icons import IconSet
from mazmorra.render.raster import Rasteriser, dpi_frame

SQUIB = Path(__file__).resolve().parent / "squib"
COARSE = (33, 45)  # 825 × 1125 px in 25 px squares


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two pictures over coarse squares, 0 (same) to 1 (opposite)."""
    small = [im.convert("RGB").resize(COARSE, Image.Resampling.BOX) for im in (a, b)]
    return sum(ImageStat.Stat(ImageChops.difference(*small)).mean) / 3 / 255


def test_squibs_shapes_sample_renders_as_squib_draws_it() -> None:
    pack = SQUIB / "shapes"
    (face,) = laid_out(pack, "shapes", "en")["shapes"][:1]
    ours = Rasteriser(IconSet.for_pack(pack), "en").images([(face, dpi_frame(face, 300, False))])[0]
    expected = Image.open(pack / "expected.png")
    assert ours.size == expected.size == (825, 1125)
    blank = Image.new("RGB", expected.size, "white")
    assert difference(blank, expected) > 0.15  # the metric tells a blank card from the sample
    assert difference(ours, expected) < 0.01, difference(ours, expected)  # measured: 0.003
