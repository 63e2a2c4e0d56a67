"""Squib's own samples (shapes, the intro spreadsheet sample, text options) re-created as packs in
mazmorra's drawing language, their renders compared with Squib's expected images by a coarse pixel
metric: the mean difference of the two pictures averaged over 25 px squares. What still differs,
and why, is in tests/layout/squib/README.md and docs/templates.md (“Coming from Squib”)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem, Severity
from mazmorra.render.raster import Rasteriser, dpi_frame

SQUIB = Path(__file__).resolve().parent / "squib"
COARSE = (33, 45)  # 825 × 1125 px in 25 px squares


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two pictures over coarse squares, 0 (same) to 1 (opposite)."""
    small = [im.convert("RGB").resize(COARSE, Image.Resampling.BOX) for im in (a, b)]
    return sum(ImageStat.Stat(ImageChops.difference(*small)).mean) / 3 / 255


def rendered(pack: Path, deck: str, warned: list[Problem] | None = None) -> list[Image.Image]:
    """Each component's front of a deck, rasterised at Squib's 300 dpi; laid out without errors,
    and without warnings unless `warned` collects them."""
    from golden import context

    from mazmorra.layout import lay_out
    from mazmorra.load import load_pack

    loaded = load_pack(pack)
    fronts, problems = [], []
    for item in lay_out(loaded.deck(deck), context(loaded, "en")).items():
        problems += item.problems
        fronts.append(item.front)
    if warned is None:
        assert not problems, problems
    else:
        assert all(p.severity is Severity.WARNING for p in problems), problems
        warned += problems
    return Rasteriser(IconSet.for_pack(pack), "en").images([(f, dpi_frame(f, 300, False)) for f in fronts])


def test_squibs_shapes_sample_renders_as_squib_draws_it() -> None:
    pack = SQUIB / "shapes"
    ours = rendered(pack, "shapes")[0]
    expected = Image.open(pack / "expected.png")
    assert ours.size == expected.size == (825, 1125)
    blank = Image.new("RGB", expected.size, "white")
    assert difference(blank, expected) > 0.15  # the metric tells a blank card from the sample
    assert difference(ours, expected) < 0.01, difference(ours, expected)  # measured: 0.003


@pytest.fixture(scope="module")
def intro() -> list[Image.Image]:
    """Squib's intro sample (part 5: the workbook as Squib ships it, no id column) as we draw it."""
    return rendered(SQUIB / "intro", "characters")


@pytest.mark.parametrize("n", range(4))
def test_squibs_intro_sample_renders_as_squib_draws_it(intro: list[Image.Image], n: int) -> None:
    expected = [Image.open(SQUIB / "intro" / "expected" / f"part5_0{i}.png") for i in range(4)]
    assert len(intro) == 4 and intro[n].size == expected[n].size == (825, 1125)
    # Measured: 0.003 to 0.006 (the title sits 15 px higher than Pango's line box puts it, and our
    # fonts are DejaVu Sans Condensed and Caladea, not Squib's system Sans and Serif). A blank card
    # in the sample's background colour is ≥ 0.13 away and another card of the deck ≥ 0.09 (the
    # picture differs), so 0.015 tells the right card from a wrong picture, a lost title or power.
    assert difference(intro[n], expected[n]) < 0.015, difference(intro[n], expected[n])
    for other in (i for i in range(4) if i != n):
        assert difference(intro[n], expected[other]) > 0.05  # the metric tells the cards apart
    blank = Image.new("RGB", expected[n].size, "#252322")
    assert difference(blank, expected[n]) > 0.1


def test_squibs_text_options_sample_renders_as_squib_draws_it() -> None:
    """What of the text-options sample mazmorra can say (all but ink extents returned to the
    script), its first card against Squib's."""
    pack = SQUIB / "text-options"
    warned: list[Problem] = []
    ours = rendered(pack, "options", warned)[0]
    expected = Image.open(pack / "expected.png")
    assert ours.size == expected.size == (825, 1125)
    # Measured: 0.038, most of it the fonts (Impact and Arial there, DejaVu Sans Condensed here: the
    # lines of the justified paragraph break elsewhere) and Pango's lines sitting lower in their
    # boxes. A blank card is 0.106 away: the text, frames and icons make up the rest.
    assert difference(Image.new("RGB", expected.size, "white"), expected) > 0.09
    assert difference(ours, expected) < 0.05, difference(ours, expected)
    # the ellipsized box, as Squib's: "everything to life an…"
    cut = {(p.component, p.rule) for p in warned}
    assert cut == {(c, "text.ellipsized") for c in ("thief", "grifter", "mastermind")}, warned
    assert all("everything is 42' is not printed" in p.message for p in warned), warned
