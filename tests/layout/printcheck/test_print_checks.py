"""The print checks of a laid-out face (layout/printcheck/): contrast, overlaps, the safe area; and
every sample, built in both languages, read back from its PDFs and rendered pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import edit, need_tool, pdf_read, render_png, run_cli

from mazmorra.assets.icons import IconSet
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.printcheck.contrast import contrast
from mazmorra.layout.printcheck.facecheck import check_face
from mazmorra.layout.printcheck.inkindex import Finding
from mazmorra.model.printspec import PrintSpec

LAUREL = '<circle cx="52.5" cy="11" r="6.6" fill="#fffdf6"/><icon name="laurel" x="46.7" y="5.2" size="11.6"/>'


def _check(
    xml: str, background: str = "#fdfbf6", printing: PrintSpec | None = None, shape: str = "rect"
) -> list[Finding]:
    icons = IconSet.for_pack(None)
    ctx = FaceContext("c", "en", icons, None, lambda f: None)
    face = parse_face(f'<card background="{background}">{xml}</card>', ctx, "front", 63.0, 88.0, 3.0, shape)
    return check_face(face, ctx.owners, printing or PrintSpec(), icons)


def _rules(found: list[Finding]) -> list[str]:
    return [f.rule for f in found]


# ---------------------------------------------------------------- contrast


def test_contrast_ratio_is_wcag() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast("#ffffff", "#b9770e") == pytest.approx(3.68, abs=0.01)


def test_text_is_checked_against_what_it_is_drawn_over() -> None:
    band = '<rect x="3" y="13" w="57" h="5" fill="{fill}"/><text role="label" x="5" y="13" w="53" h="5" size="7" color="#ffffff">Destino</text>'
    (found,) = _check(band.format(fill="#b9770e"))
    assert found.rule == "print.contrast" and "3.68:1" in found.message and "#b9770e" in found.message
    assert _check(band.format(fill="#9c640c")) == []
    assert _check(band.format(fill="#b9770e"), printing=PrintSpec.model_validate({"contrast": {"text": 3.5}})) == []
    # over nothing but the face's own background
    assert _rules(_check('<text x="5" y="40" w="50" h="6" size="8" color="#777777">Grey</text>', "#666666")) == [
        "print.contrast"
    ]


def test_outlined_text_is_read_against_its_outline() -> None:
    """White words with a dark outline (a title over a picture) read on the outline, not on the light
    ground under it; a hairline outline does not count, and a pale outline fails on its own."""
    title = '<text role="title" x="5" y="40" w="50" h="8" size="10" color="#ffffff"{}>Tesoro</text>'
    assert _rules(_check(title.format(""), "#f4f1e8")) == ["print.contrast"]
    assert _check(title.format(' outline="#000000" outline-width="0.3"'), "#f4f1e8") == []
    thin = _check(title.format(' outline="#000000" outline-width="0.05"'), "#f4f1e8")  # under a twentieth of the size
    assert _rules(thin) == ["print.contrast"] and "on #f4f1e8" in thin[0].message
    (pale,) = _check(title.format(' outline="#dddddd" outline-width="0.3"'), "#202020")
    assert "on outline #dddddd" in pale.message, pale.message


def test_a_dark_logo_on_the_navy_back_fails_and_passes_on_a_light_disc() -> None:
    logo = '<icon name="logo" x="18" y="22" size="26"/>'
    (found,) = _check(logo, "#2c3e50")
    assert found.rule == "print.contrast" and "'logo'" in found.message
    assert _check('<circle cx="31" cy="35" r="17" fill="#ecf0f1"/>' + logo, "#2c3e50") == []


def test_an_outlined_icon_passes_on_a_light_ground_and_a_light_one_on_a_dark_band() -> None:
    assert _check('<icon name="knowledge" x="7" y="70" size="6.4"/>', "#fbf6ea") == []  # dark outline, light fill
    assert (
        _check('<rect x="5" y="20" w="50" h="14" fill="#57504a"/><icon name="pillar" x="10" y="22" size="10"/>') == []
    )


def test_a_number_drawn_over_a_dark_part_of_its_icon_fails() -> None:
    found = _check(
        '<text role="label" x="4" y="4" w="11" h="11" size="16" align="center" valign="middle">{coin=3}</text>'
    )
    assert _rules(found) == ["print.contrast"] and "“3”" in found[0].message


# ---------------------------------------------------------------- overlaps


def test_a_number_crowding_the_laurel_is_found_and_one_clear_of_it_is_not() -> None:
    crowded = (
        LAUREL
        + '<text role="label" x="46.5" y="7.6" w="12" h="6" font="serif-bold" size="12.5" align="center" valign="middle">+2</text>'
    )
    (found,) = _check(crowded)
    assert found.rule == "print.overlap" and "“+2”" in found.message and "'laurel'" in found.message
    clear = (
        LAUREL
        + '<text role="label" x="46.5" y="7.2" w="12" h="6" font="serif-bold" size="10.5" align="center" valign="middle">+2</text>'
    )
    assert _check(clear) == []


def test_things_sitting_on_panels_are_layering_not_overlaps() -> None:
    xml = (
        '<rect x="3" y="3" w="57" h="82" r="2.5" fill="#fdfbf6" stroke="#1b1b1b" stroke-width="0.3"/>'
        '<rect x="3" y="3" w="57" h="11" r="2.5" fill="#2c3e50"/>'  # a band flush with the frame's top
        '<text role="title" x="6" y="4" w="51" h="9" size="12" color="#ffffff">Title</text>'
        '<circle cx="31" cy="40" r="10" fill="#d6e4f0"/><icon name="student" x="24.5" y="33.5" size="13"/>'
        '<text x="6" y="55" w="51" h="20" size="10">Body text on the parchment.</text>'
    )
    assert _check(xml) == []


def test_running_into_a_frame_crossing_an_edge_or_a_partial_overlap_is_found() -> None:
    frame = '<rect x="2.4" y="2.4" w="58.2" h="83.2" r="2" fill="#3a3530" stroke="#8a8273" stroke-width="0.35"/>'
    near = frame + '<rect x="10" y="70" w="40" h="15.3" fill="#57504a"/>'  # 0.1 mm short of the outline
    (found,) = _check(near)
    assert found.rule == "print.overlap" and "outline" in found.message
    straddle = '<rect x="3" y="3" w="57" h="14" fill="#1b4f72"/><rect x="18" y="16" w="26" h="4" fill="#f0c53a"/>'
    assert _rules(_check(straddle)) == ["print.overlap"]
    assert _check(straddle.replace('fill="#f0c53a"', 'fill="#f0c53a" overlap="ok"')) == []


def test_a_group_may_declare_its_layering() -> None:
    lines = "".join(
        f'<line x1="5" y1="{y}" x2="58" y2="{y}" stroke="#ddd3bc" stroke-width="0.3"/>' for y in range(20, 60, 7)
    )
    text = '<text x="6" y="30" w="51" h="12" size="9">Text over the flagstones.</text>'
    assert "print.overlap" in _rules(_check(lines + text))
    assert _check(f'<g overlap="ok">{lines}</g>' + text) == []
    with pytest.raises(ValueError, match="the only value"):
        _check('<rect x="5" y="5" w="5" h="5" fill="#000000" overlap="yes"/>')


def test_grid_contents_must_clear_the_pillars() -> None:
    def grid(scale: float) -> str:
        return (
            '<grid x="6.5" y="20" rows="1" cols="3" cell="10.5" gap="2.4">'
            '<cell-type name="floor" fill="#cbc2b1"/>'
            f'<cell-type name="ring" base="floor" ring="#c0392b" ring-width="1.1" ring-scale="{scale}" ring-fill="#e6dfd2"/>'
            '<edge-type name="pillar" draw="icon" icon="pillar" icon-scale="1"/>'
            '<cell r="0" c="0-2" type="floor"/><cell r="0" c="1" type="ring"/>'
            '<separator type="pillar" between="cols" outer="true"/></grid>'
        )

    found = _check(grid(0.92))
    assert found and set(_rules(found)) == {"print.overlap"} and "'pillar'" in found[0].message
    assert _check(grid(0.66)) == []  # cells, pillars and their floor may meet; a ring clear of them is fine


# ---------------------------------------------------------------- safe area


def test_text_and_icons_keep_inside_the_safe_margin() -> None:
    (found,) = _check('<text role="label" x="1" y="40" w="20" h="5" size="8">Edge</text>')
    assert found.rule == "print.safe-area" and "3 mm" in found.message
    assert (
        _check(
            '<text role="label" x="1" y="40" w="20" h="5" size="8">Edge</text>',
            printing=PrintSpec.model_validate({"safe_margin": "0.5mm"}),
        )
        == []
    )
    assert _check('<rect x="-3" y="-3" w="69" h="20" fill="#1b4f72"/>') == []  # art may run into the bleed
    (cut,) = _check('<text role="label" x="-2" y="40" w="20" h="5" size="8">Edge</text>')
    assert cut.rule == "print.safe-area" and "past the trim into the bleed" in cut.message  # not "0.0 mm from"
    depth = float(cut.message.split("runs ")[1].split(" mm")[0])
    assert 1.0 <= depth <= 2.0  # the "E" starts at the box's edge, 2 mm outside


def test_on_a_round_face_the_safe_area_is_a_circle() -> None:
    inside = '<icon name="stun" x="16.5" y="23" size="30"/>'  # its corners are outside, its ink is not
    assert _check(inside, shape="round") == []
    (found,) = _check('<icon name="stun" x="-2" y="20" size="20"/>', shape="round")
    assert found.rule == "print.safe-area"


# ---------------------------------------------------------------- the samples, as built


@pytest.mark.slow
def test_every_sample_validates_strictly_with_no_print_problem() -> None:
    res = run_cli("validate", "--strict")
    assert res.returncode == 0, res.stderr
    assert "print." not in res.stderr and "text.overflow" not in res.stderr


SAMPLES = ("expedicion", "profundidades", "muestras", "grimorio")


@pytest.fixture(scope="module")
def built_samples(built) -> dict[str, Path]:
    """pack -> its output folder (both languages, A4), built once per test run."""
    return {pack: built(pack) for pack in SAMPLES}


def _runs(pdf: Path) -> list[tuple[str, float]]:
    """Every run of text a PDF draws, with its size on paper (pt)."""
    return list(pdf_read(pdf)[1])


def _names(pack: str, lang: str) -> set[str]:
    from mazmorra.i18n.localise import localise
    from mazmorra.load import load_pack

    loaded = load_pack(Path("content") / pack)
    words: set[str] = set()
    for loc in localise(loaded, lang).components:
        if "name" in loc.texts:
            words |= set(re.findall(r"[^\W\d_]+", loc.texts["name"].text))
    return words


@pytest.mark.slow
def test_no_sample_pdf_draws_text_under_5_5_pt_or_hyphenates_a_title(built_samples: dict[str, Path]) -> None:
    lang_dirs = [p for pack in SAMPLES for p in sorted(built_samples[pack].glob("[!.]*")) if p.is_dir()]
    assert len(lang_dirs) == 2 * len(SAMPLES) + 1  # every sample in es and en, grimorio in French too
    for lang_dir in lang_dirs:
        pack, lang = lang_dir.parent.name, lang_dir.name
        names = _names(pack, lang)
        for pdf in sorted(lang_dir.glob("*.pdf")):
            runs = _runs(pdf)
            assert runs, pdf
            small = min(runs, key=lambda r: r[1])
            assert small[1] >= 5.5 - 1e-6, (pdf, small)
            for text, _ in runs:
                head = re.findall(r"([^\W\d_]+)-$", text.strip())
                broken = [w for w in names if head and w.startswith(head[0]) and len(w) > len(head[0])]
                assert not broken, (pdf, text, broken)  # a line ending inside a word of a component's name


@pytest.mark.slow
def test_the_generic_back_logo_stands_out_on_the_rendered_page(built_samples: dict[str, Path], tmp_path: Path) -> None:
    need_tool("pdftoppm")
    from mazmorra.render.impose import ImposeOptions, back_page, plan_fronts

    dpi = 150
    pdf = built_samples["muestras"] / "en" / "loose-cards.pdf"
    back = back_page(plan_fronts(ImposeOptions(), [(63.0, 88.0)] * 4, 3.0)[0], ImposeOptions()).slots[0]
    img = render_png(pdf, 2, dpi, tmp_path)
    k = dpi / 25.4

    def colour(x: float, y: float) -> str:
        r, g, b = img.getpixel((round((back.x + x) * k), round((back.y + y) * k)))
        return f"#{r:02x}{g:02x}{b:02x}"

    ring = colour(31.5, 44 - 20 + 13 - 11.2 * 26 / 24 + 0.5)  # on the logo's outer ring
    disc = colour(31.5, 44 - 7 - 16)  # the disc between the ring and the navy
    assert contrast(ring, disc) >= 3, (ring, disc)
    assert contrast(colour(31.5, 5), "#2c3e50") < 1.2  # the navy itself is still there


def test_print_settings_in_pack_yaml_change_the_verdict(pack_copy) -> None:
    pack = pack_copy("muestras")
    tpl = pack / "templates"
    tpl.mkdir()
    (tpl / "card-back.xml.j2").write_text(
        '<card background="#2c3e50"><icon name="logo" x="18" y="22" size="26"/></card>', encoding="utf-8"
    )
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1 and "print.contrast" in res.stderr and "card-back.xml.j2:1" in res.stderr
    edit(pack / "pack.yaml", "decks:", "print:\n  contrast: {marks: 1.1}\ndecks:")
    assert run_cli("validate", "muestras", cwd=pack.parents[1]).returncode == 0
