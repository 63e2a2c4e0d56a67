"""Issue 40, colour of raster art: a picture is converted through its own embedded ICC profile
(Display P3 art is not read as sRGB), CMYK art stays in CMYK (a K-only black stays K-only) when it
is in the printer's profile or in none, and the RGB outputs get every picture in sRGB. The judge is
littleCMS itself (Pillow's ImageCms), converting the same pixels straight from the art's profile.

The corpus: Display P3 and Adobe RGB (wide-gamut) art, greyscale art with an embedded Gray Gamma 1.8
profile, CMYK art with a K-only black (in the printer's profile, in none, in another); every profile
built here (render/icc.py), none downloaded. Ghostscript's separations of a shop's file judge the
K-only black end to end."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageCms

from mazmorra.assets import images
from mazmorra.printers.cmyk import ICC_DIR, ink
from mazmorra.render.icc import grey_v2, rgb_v2

# Display P3's primaries, Bradford-adapted to D50 (as Apple's "Display P3" profile gives them)
P3 = rgb_v2(((0.5151, 0.2412, -0.0011), (0.2920, 0.6922, 0.0419), (0.1571, 0.0666, 0.7841)), "Display P3 (test)")
# Adobe RGB (1998): its primaries Bradford-adapted to D50 and its 563/256 (≈ 2.2) gamma
ADOBE_RGB = rgb_v2(
    ((0.6097, 0.3111, 0.0195), (0.2053, 0.6257, 0.0609), (0.1492, 0.0632, 0.7446)), "Adobe RGB (test)", 563 / 256
)
GREY_18 = grey_v2(1.8, "Gray Gamma 1.8 (test)")  # what image editors embed in greyscale art
PRINTER = "swop-tr005-240"
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC
LAB = ImageCms.createProfile("LAB", 5000)


def _profile(data: bytes) -> ImageCms.ImageCmsProfile:
    return ImageCms.ImageCmsProfile(io.BytesIO(data))


def _save(tmp_path: Path, name: str, img: Image.Image, fmt: str, **kw: object) -> Path:
    path = tmp_path / name
    img.save(path, fmt, **kw)
    return path


def _lab(img: Image.Image, profile: ImageCms.ImageCmsProfile | str, mode: str) -> tuple[float, float, float]:
    """The centre pixel of `img` in CIELAB (L 0-100, a and b signed), through `profile`."""
    src = ImageCms.createProfile("sRGB") if profile == "sRGB" else profile
    lab = ImageCms.applyTransform(img, ImageCms.buildTransform(src, LAB, mode, "LAB", INTENT))
    assert lab is not None
    L, a, b = lab.getpixel((img.width // 2, img.height // 2))  # type: ignore[misc]
    return L * 100 / 255, a - 128, b - 128  # Pillow's LAB: a and b offset by 128


def _delta_e(x: tuple[float, float, float], y: tuple[float, float, float]) -> float:
    return sum((p - q) ** 2 for p, q in zip(x, y)) ** 0.5


def test_p3_art_is_converted_to_srgb_through_its_own_profile(tmp_path: Path) -> None:
    teal = Image.new("RGB", (40, 40), (0, 160, 140))  # inside both gamuts: no clipping hides the error
    tagged = _save(tmp_path, "p3.png", teal, "PNG", icc_profile=P3)
    plain = _save(tmp_path, "plain.png", teal, "PNG")
    out = Image.open(io.BytesIO(images.prepared(tagged, 3, 3)))
    assert "icc_profile" not in out.info  # sRGB, said by having none
    expected = ImageCms.applyTransform(
        teal, ImageCms.buildTransform(_profile(P3), ImageCms.createProfile("sRGB"), "RGB", "RGB", INTENT)
    )
    assert expected is not None
    assert _delta_e(_lab(out.convert("RGB"), "sRGB", "RGB"), _lab(expected, "sRGB", "RGB")) < 2
    # and not read as if it were sRGB (the untagged copy)
    assert images.prepared(plain, 3, 3) != images.prepared(tagged, 3, 3)


def test_p3_art_separates_as_littlecms_separates_it_from_p3(tmp_path: Path) -> None:
    teal = Image.new("RGB", (40, 40), (0, 160, 140))  # a teal inside the press gamut
    tagged = _save(tmp_path, "p3.png", teal, "PNG", icc_profile=P3)
    plain = _save(tmp_path, "plain.png", teal, "PNG")
    printer = ink(PRINTER)
    got = printer.image(images.prepared(tagged, 3, 3, own_colour=True))
    out_profile = _profile(printer.icc)
    direct = ImageCms.applyTransform(teal, ImageCms.buildTransform(_profile(P3), out_profile, "RGB", "CMYK", INTENT))
    assert direct is not None and got.mode == "CMYK"
    assert _delta_e(_lab(got, out_profile, "CMYK"), _lab(direct, out_profile, "CMYK")) < 2
    as_srgb = printer.image(images.prepared(plain, 3, 3, own_colour=True))
    assert _delta_e(_lab(as_srgb, out_profile, "CMYK"), _lab(direct, out_profile, "CMYK")) > 5  # the old error


def _k_only_art(tmp_path: Path, name: str, **kw: object) -> Path:
    """CMYK art: a K-only black square on a cyan-magenta panel."""
    img = Image.new("CMYK", (60, 60), (150, 120, 0, 0))
    img.paste((0, 0, 0, 255), (15, 15, 45, 45))
    return _save(tmp_path, name, img, "JPEG" if name.endswith(".jpg") else "TIFF", **kw)


@pytest.mark.parametrize("tag", ["none", "printer's"])
def test_cmyk_art_in_the_printers_profile_or_none_keeps_its_separations(tmp_path: Path, tag: str) -> None:
    icc = (ICC_DIR / f"{PRINTER}.icc").read_bytes()
    art = _k_only_art(tmp_path, "k.tif", **({"icc_profile": icc} if tag != "none" else {}))
    got = ink(PRINTER).image(images.prepared(art, 6, 6, own_colour=True))
    assert got.mode == "CMYK"
    assert got.getpixel((got.width // 2, got.height // 2)) == (0, 0, 0, 255)  # K only, not C52 M40 Y43 K95
    assert got.getpixel((2, 2)) == (150, 120, 0, 0)


def test_cmyk_art_in_another_profile_is_converted_to_the_printers(tmp_path: Path) -> None:
    other = (ICC_DIR / "swop-tr005.icc").read_bytes()  # the 300 % SWOP profile, not the 240 % one
    art = _k_only_art(tmp_path, "k.tif", icc_profile=other)
    got = ink(PRINTER).image(images.prepared(art, 6, 6, own_colour=True))
    direct = ImageCms.applyTransform(
        Image.open(art), ImageCms.buildTransform(_profile(other), _profile(ink(PRINTER).icc), "CMYK", "CMYK", INTENT)
    )
    assert direct is not None
    assert got.tobytes() == direct.tobytes()


def test_cmyk_art_in_an_rgb_build_goes_through_its_profile_not_a_naive_formula(tmp_path: Path) -> None:
    art = _k_only_art(tmp_path, "k.tif")  # no profile: the shipped SWOP coated profile is assumed
    out = Image.open(io.BytesIO(images.prepared(art, 6, 6))).convert("RGB")
    swop = _profile((ICC_DIR / "swop-tr005.icc").read_bytes())
    panel = Image.new("CMYK", (4, 4), (150, 120, 0, 0))
    assert _delta_e(_lab(out.crop((0, 0, 4, 4)), "sRGB", "RGB"), _lab(panel, swop, "CMYK")) < 3
    naive = panel.convert("RGB")  # Pillow's formula: what the art used to become
    assert _delta_e(_lab(naive, "sRGB", "RGB"), _lab(panel, swop, "CMYK")) > 5


def test_untagged_rgb_art_is_unchanged_in_both_builds(tmp_path: Path) -> None:
    img = Image.new("RGB", (30, 30), (200, 30, 30))
    plain = _save(tmp_path, "plain.png", img, "PNG")
    data = images.prepared(plain, 3, 3)
    assert images.prepared(plain, 3, 3, own_colour=True) == data  # what it was before art had profiles
    assert Image.open(io.BytesIO(data)).mode == "RGB"


def test_a_cmyk_jpeg_without_a_profile_keeps_its_black_in_k(tmp_path: Path) -> None:
    art = _k_only_art(tmp_path, "k.jpg", quality=95)
    got = ink(PRINTER).image(images.prepared(art, 6, 6, own_colour=True))
    c, m, y, k = got.getpixel((30, 30))  # type: ignore[misc]
    assert max(c, m, y) <= 2 and k >= 250  # was C52 M40 Y43 K95, through RGB


def _art_pack(pack_copy, img: Image.Image, name: str = "k.tif", **kw: object) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the `muestras` pack whose cards print `img` (as `name`: TIFF or JPEG) at 4 mm, 4 mm, 6 mm wide."""
    from mazmorra.support.paths import templates_dir

    pack: Path = pack_copy("muestras")
    (pack / "images").mkdir()
    img.save(pack / "images" / name, "JPEG" if name.endswith(".jpg") else "TIFF", **kw)
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    extra = f'<image src="images/{name}" x="4" y="4" w="6" h="6" overlap="ok"/>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {extra}\n</card>"), encoding="utf-8")
    return pack


@pytest.mark.slow
def test_a_print_shop_pdf_carries_cmyk_art_as_it_was_separated(pack_copy) -> None:  # type: ignore[no-untyped-def]
    """End to end: K-only CMYK art in a DriveThruCards build is a DeviceCMYK image whose black is
    K alone and whose panel is the art's own C and M, in the file the shop receives."""
    import zlib

    from conftest import run_cli
    from pypdf import PdfReader

    img = Image.new("CMYK", (60, 60), (150, 120, 0, 0))
    img.paste((0, 0, 0, 255), (15, 15, 45, 45))
    pack = _art_pack(pack_copy, img, icc_profile=(ICC_DIR / f"{PRINTER}.icc").read_bytes())
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    pdf = sorted((pack.parents[1] / "output" / "muestras" / "en" / "drivethrucards").glob("*.pdf"))[0]
    found = []
    for page in PdfReader(str(pdf)).pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        stack = [x.get_object() for x in xobjects.values()]
        while stack:
            x = stack.pop()
            if x["/Subtype"] == "/Form":
                stack += [v.get_object() for v in (x.get("/Resources", {}).get("/XObject") or {}).values()]
            elif x["/Width"] == 60 and x["/Height"] == 60:
                assert x["/ColorSpace"] == "/DeviceCMYK"
                found.append(zlib.decompress(x._data) if x.get("/Filter") == "/FlateDecode" else x.get_data())
    assert found, "the art is in the file"
    data = found[0]
    px = [tuple(data[i : i + 4]) for i in range(0, len(data), 4)]
    assert px[30 * 60 + 30] == (0, 0, 0, 255) and px[2 * 60 + 2] == (150, 120, 0, 0)


@pytest.mark.slow
def test_cmyk_art_over_the_ink_limit_is_refused_at_its_element(pack_copy) -> None:  # type: ignore[no-untyped-def]
    """CMYK art is not silently pulled under the printer's limit: a 400 % area is an error at the
    template's <image> line, and nothing is written."""
    from conftest import run_cli

    img = Image.new("CMYK", (60, 60), (255, 255, 255, 255))
    pack = _art_pack(pack_copy, img)
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode != 0
    assert "preflight.ink" in res.stderr and "k.tif" in res.stderr and "400 %" in res.stderr, res.stderr
    assert "card.xml.j2:" in res.stderr
    assert not list((pack.parents[1] / "output").glob("muestras/en/drivethrucards/*.pdf"))


# The corpus of pictures in their own colour spaces: each as patches side by side, 20 px each.
CORPUS = {
    "display-p3": ("RGB", [(0, 160, 140), (230, 40, 30), (40, 200, 60), (60, 70, 210)], P3),
    "adobe-rgb": ("RGB", [(0, 160, 140), (230, 40, 30), (40, 200, 60), (60, 70, 210)], ADOBE_RGB),
    "grey-gamma-1.8": ("L", [30, 90, 128, 200], GREY_18),
}


def _patches(mode: str, colours: list) -> Image.Image:  # type: ignore[type-arg]
    img = Image.new(mode, (20 * len(colours), 20))
    for i, c in enumerate(colours):
        img.paste(c, (20 * i, 0, 20 * i + 20, 20))
    return img


def _lab_at(img: Image.Image, profile: ImageCms.ImageCmsProfile | str, mode: str, i: int, n: int) -> tuple:  # type: ignore[type-arg]
    """Patch i of n (its centre) in CIELAB through `profile`."""
    w = img.width // n
    return _lab(img.crop((w * i + w // 4, img.height // 4, w * i + 3 * w // 4, 3 * img.height // 4)), profile, mode)


@pytest.mark.slow  # littleCMS builds a transform per profile: about 0.5 s
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_art_in_rgb_outputs_is_littlecms_s_conversion_to_srgb(tmp_path: Path, name: str) -> None:
    mode, colours, icc = CORPUS[name]
    art = _patches(mode, colours)
    tagged = _save(tmp_path, f"{name}.png", art, "PNG", icc_profile=icc)
    out = Image.open(io.BytesIO(images.prepared(tagged, 4 * len(colours), 4))).convert("RGB")
    expected = ImageCms.applyTransform(
        art, ImageCms.buildTransform(_profile(icc), ImageCms.createProfile("sRGB"), mode, "RGB", INTENT)
    )
    assert expected is not None
    n = len(colours)
    worst = max(_delta_e(_lab_at(out, "sRGB", "RGB", i, n), _lab_at(expected, "sRGB", "RGB", i, n)) for i in range(n))
    assert worst < 2, worst
    plain = Image.open(io.BytesIO(images.prepared(_save(tmp_path, "plain.png", art, "PNG"), 4 * n, 4))).convert("RGB")
    read_as_srgb = max(
        _delta_e(_lab_at(plain, "sRGB", "RGB", i, n), _lab_at(expected, "sRGB", "RGB", i, n)) for i in range(n)
    )
    assert read_as_srgb > 5  # the profile matters: ignoring it would be seen


@pytest.mark.slow  # littleCMS builds a transform per profile: about 0.5 s
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_art_separates_as_littlecms_separates_it_through_its_profile(tmp_path: Path, name: str) -> None:
    mode, colours, icc = CORPUS[name]
    art = _patches(mode, colours)
    tagged = _save(tmp_path, f"{name}.png", art, "PNG", icc_profile=icc)
    printer = ink(PRINTER)
    got = printer.image(images.prepared(tagged, 4 * len(colours), 4, own_colour=True))
    out_profile = _profile(printer.icc)
    direct = ImageCms.applyTransform(art, ImageCms.buildTransform(_profile(icc), out_profile, mode, "CMYK", INTENT))
    assert direct is not None and got.mode == "CMYK"
    n = len(colours)
    worst = max(
        _delta_e(_lab_at(got, out_profile, "CMYK", i, n), _lab_at(direct, out_profile, "CMYK", i, n)) for i in range(n)
    )
    assert worst < 2, worst


@pytest.mark.slow  # littleCMS builds a transform per profile: about 0.5 s
def test_cmyk_art_in_its_profile_reaches_rgb_outputs_as_littlecms_converts_it(tmp_path: Path) -> None:
    icc = (ICC_DIR / f"{PRINTER}.icc").read_bytes()
    art = _k_only_art(tmp_path, "k.tif", icc_profile=icc)
    out = Image.open(io.BytesIO(images.prepared(art, 6, 6))).convert("RGB")
    src = Image.open(art)
    expected = ImageCms.applyTransform(
        src, ImageCms.buildTransform(_profile(icc), ImageCms.createProfile("sRGB"), "CMYK", "RGB", INTENT)
    )
    assert expected is not None
    for box in ((2, 2, 10, 10), (25, 25, 35, 35)):  # the panel and the black
        assert _delta_e(_lab(out.crop(box), "sRGB", "RGB"), _lab(expected.crop(box), "sRGB", "RGB")) < 2


@pytest.mark.slow
@pytest.mark.parametrize("art", ["k.jpg", "k.tif"])
def test_k_only_black_stays_k_only_in_ghostscripts_separations(pack_copy, tmp_path: Path, art: str) -> None:  # type: ignore[no-untyped-def]
    """End to end, judged by Ghostscript: a K-only black in CMYK art (a JPEG with no profile, a TIFF
    in the printer's profile) prints on the black plate alone in the file the shop receives."""
    from conftest import need_tool, run_cli, separations

    need_tool("gs")
    img = Image.new("CMYK", (60, 60), (150, 120, 0, 0))
    img.paste((0, 0, 0, 255), (15, 15, 45, 45))
    icc = (ICC_DIR / f"{PRINTER}.icc").read_bytes()
    kw: dict[str, object] = {"quality": 95} if art.endswith(".jpg") else {"icc_profile": icc}
    pack = _art_pack(pack_copy, img, name=art, **kw)
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    pdf = sorted((pack.parents[1] / "output" / "muestras" / "en" / "drivethrucards").glob("*.pdf"))[0]
    # the shop's order is back, then front: the art is on page 2; its panel (C 150, M 120) is found
    # there, and the black square is the panel's middle half
    page = separations(pdf, 300, tmp_path, 2, 2)[0]
    assert page.mode == "CMYK"
    px = page.load()
    panel = [
        (x, y)
        for y in range(page.height // 3)
        for x in range(page.width // 3)
        if all(abs(a - b) <= 4 for a, b in zip(px[x, y], (150, 120, 0, 0)))
    ]
    assert panel, "the art is on the page"
    x0, x1 = min(x for x, _ in panel), max(x for x, _ in panel)
    y0, y1 = min(y for _, y in panel), max(y for _, y in panel)
    qx, qy = (x1 - x0) / 4, (y1 - y0) / 4
    black = [
        px[x, y]
        for y in range(round(y0 + qy) + 2, round(y1 - qy) - 1)
        for x in range(round(x0 + qx) + 2, round(x1 - qx) - 1)
    ]
    assert len(black) > 400
    k_only = sum(1 for c, m, y, k in black if max(c, m, y) <= 3 and k >= 242)
    assert k_only / len(black) >= 0.99, (k_only, len(black))
