"""Issue 21, print shops: real page boxes on every page, per-card PDFs, printer profiles as data
(`mazmorra printers`, `build --printer NAME`): each profile's files checked against its published spec."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import need_tool, pdf_text, render_png, run_cli
from PIL import Image
from pypdf import PdfReader

from mazmorra import printers

pytestmark = pytest.mark.slow  # not in the fast tier: a build per printer profile

MM = 72 / 25.4  # pt per mm
IN = 25.4  # mm per inch
DECKS = ("-d", "artimanas", "-d", "fichas", "--lang", "en")


def _mm(box: object) -> tuple[float, ...]:
    return tuple(float(v) / MM for v in box)  # type: ignore[attr-defined]


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return all(inner[i] >= outer[i] - 1e-3 for i in (0, 1)) and all(inner[i] <= outer[i] + 1e-3 for i in (2, 3))


def test_every_sheet_page_has_its_trim_and_bleed_boxes_around_the_imposed_pieces(built_expedicion: Path) -> None:
    pdfs = sorted(built_expedicion.rglob("*.pdf"))
    assert len(pdfs) >= 20
    for pdf in pdfs:
        for n, page in enumerate(PdfReader(str(pdf)).pages):
            media, trim, bleed = _mm(page.mediabox), _mm(page.trimbox), _mm(page.bleedbox)
            where = f"{pdf.name} page {n + 1}"
            assert trim != media, f"{where}: TrimBox is the page"
            assert _inside(trim, bleed) and _inside(bleed, media), where
            # the pack's 3 mm bleed on every side of the imposed area (a poster tile may cut it at the page)
            if "posters" not in pdf.parts:
                assert [round(t - b, 2) for t, b in zip(trim[:2], bleed[:2])] == [3.0, 3.0], where
                assert [round(b - t, 2) for t, b in zip(trim[2:], bleed[2:])] == [3.0, 3.0], where


def test_the_boxes_are_where_the_pieces_are_on_the_rendered_page(built_expedicion: Path, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    pdf = built_expedicion / "en" / "tricks.pdf"
    page = PdfReader(str(pdf)).pages[0]
    x0, y0, x1, y1 = _mm(page.bleedbox)
    ph = _mm(page.mediabox)[3]
    img = render_png(pdf, 1, 100, tmp_path).convert("L")
    px = 100 / IN  # px per mm

    def ink(box: tuple[float, float, float, float]) -> float:
        a, b, c, d = (round(v * px) for v in box)
        crop = img.crop((a, b, c, d))
        return crop.point(lambda v: 255 if v < 200 else 0).histogram()[255] / max(1, crop.width * crop.height)

    top, bottom = ph - y1, ph - y0  # the boxes in mm from the page's top
    assert ink((x0 + 0.5, top + 0.5, x1 - 0.5, bottom - 0.5)) > 0.3  # the pieces fill the bleed box
    # outside the bleed box only thin crop marks: a strip along each side, mostly white
    assert ink((0, 0, x0 - 0.5, ph)) < 0.05
    assert ink((x1 + 0.5, 0, img.width / px, ph)) < 0.05


@pytest.fixture(scope="module")
def card_pdfs(built) -> Path:  # type: ignore[no-untyped-def]
    return built("expedicion", "--card-pdfs", "--no-pdf", *DECKS) / "en" / "cards"


def test_card_pdfs_one_per_component_trimmed_to_the_bleed(card_pdfs: Path) -> None:
    rows = list(csv.DictReader((card_pdfs / "tricks-cards.csv").open(encoding="utf-8-sig")))
    files = sorted((card_pdfs / "tricks").glob("*.pdf"))
    assert len(files) == len(rows) > 10
    assert (card_pdfs / "tricks" / f"{rows[0]['component']}.pdf").is_file()
    for pdf in files + sorted((card_pdfs / "tokens").glob("*.pdf")):
        pages = PdfReader(str(pdf)).pages
        assert len(pages) in (1, 2), pdf
        for page in pages:
            media, trim, bleed = _mm(page.mediabox), _mm(page.trimbox), _mm(page.bleedbox)
            assert bleed == pytest.approx(media, abs=0.01)
            for box in (page.trimbox, page.bleedbox):  # exactly inside, as written (a token's was 0.00009 pt out)
                m = page.mediabox
                assert (m.left, m.bottom) <= (box.left, box.bottom) and (box.right, box.top) <= (m.right, m.top), pdf
            assert [round(v, 2) for v in (trim[0], trim[1], media[2] - trim[2], media[3] - trim[3])] == [3.0] * 4
    first = PdfReader(str(card_pdfs / "tricks" / f"{rows[0]['component']}.pdf"))
    assert rows[0]["name"] in (first.pages[0].extract_text() or "")  # the front first, then the back
    assert _mm(first.pages[0].mediabox)[2:] == pytest.approx((69.0, 94.0), abs=0.01)  # 63 × 88 mm + 2 × 3 mm


def test_printers_shows_each_profile_s_values() -> None:
    res = run_cli("printers")  # (that it lists every shipped one: test_printer_profiles.py)
    assert res.returncode == 0, res.stderr
    assert "ink ≤ 240 %" in res.stdout


def test_drivethrucards_one_pdf_per_deck_back_then_front_at_the_poker_size(built) -> None:  # type: ignore[no-untyped-def]
    folder = built("expedicion", "--printer", "drivethrucards", *DECKS) / "en" / "drivethrucards"
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["tricks.pdf"]  # the cards DriveThruCards sells
    apart = PdfReader(str(folder / "not-sold" / "tokens.pdf"))  # the chits it does not: apart, at their own size
    assert {tuple(round(v) for v in _mm(p.mediabox)[2:]) for p in apart.pages} <= {(26, 26), (30, 30)}
    assert (folder / "tokens-cards.csv").is_file()
    rows = list(csv.DictReader((folder / "tricks-cards.csv").open(encoding="utf-8-sig")))
    reader = PdfReader(str(folder / "tricks.pdf"))
    assert len(reader.pages) == 2 * sum(int(r["copies"]) for r in rows)
    back, front = (p.extract_text() or "" for p in reader.pages[:2])
    assert rows[0]["name"] in front and rows[0]["name"] not in back
    for page in reader.pages[:4]:  # 2.5 × 3.5 in + 1/8 in bleed: 2.75 × 3.75 in, TrimBox at the cut
        media, trim = _mm(page.mediabox), _mm(page.trimbox)
        assert media[2:] == pytest.approx((2.75 * IN, 3.75 * IN), abs=0.01)
        assert trim == pytest.approx((0.125 * IN, 0.125 * IN, 2.625 * IN, 3.625 * IN), abs=0.01)
    assert not any(folder.parent.glob("*.pdf"))  # only the printer's files: no print-and-play sheets


@pytest.mark.parametrize(
    ("name", "size"),
    [("thegamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122)), ("printerstudio", (822, 1122))],
)
def test_image_printers_get_one_png_per_face_at_the_template_size(built, name: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    folder = built("expedicion", "--printer", name, "-d", "artimanas", "--lang", "en") / "en" / name / "tricks"
    pngs = sorted(folder.glob("*.png"))
    assert len(pngs) > 10 and (folder / "back.png").is_file() and (folder / "cards.csv").is_file()
    for png in pngs[:5]:
        assert Image.open(png).size == size


@pytest.mark.parametrize(("name", "page"), [("home-a4", (210.0, 297.0)), ("home-letter", (215.9, 279.4))])
def test_home_printers_get_the_print_and_play_sheets_on_their_paper(
    built, name: str, page: tuple[float, float]
) -> None:  # type: ignore[no-untyped-def]
    pdf = built("expedicion", "--printer", name, "-d", "artimanas", "--lang", "en") / "en" / "tricks.pdf"
    first = PdfReader(str(pdf)).pages[0]
    assert sorted(_mm(first.mediabox)[2:]) == pytest.approx(page, abs=0.05)  # turned as fits best
    assert "Lucky Star" in pdf_text(pdf)


def test_a_pack_extends_a_shipped_profile_and_its_own_wins(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "my-dtc.yaml").write_text(
        "name: My DriveThruCards\nextends: drivethrucards\nfiles:\n  layout: fronts-backs\n", encoding="utf-8"
    )
    mine = printers.load("my-dtc", pack)
    assert (mine.layout, mine.ink_limit, mine.bleed) == ("fronts-backs", 240, pytest.approx(3.175))
    assert "my-dtc" in run_cli("printers", str(pack)).stdout
    out = tmp_path / "out"
    res = run_cli("build", str(pack), "--printer", "my-dtc", *DECKS, "--out", str(out))
    assert res.returncode == 0, res.stdout + res.stderr
    folder = out / "expedicion" / "en" / "my-dtc"
    assert sorted(p.name for p in folder.glob("tricks-*.pdf")) == ["tricks-backs.pdf", "tricks-fronts.pdf"]
    fronts = PdfReader(str(folder / "tricks-fronts.pdf"))
    assert len(fronts.pages) == len(PdfReader(str(folder / "tricks-backs.pdf")).pages)


def test_a_broken_profile_is_reported_at_its_line(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "bad.yaml").write_text(
        "name: Bad\nbleed: 3mm\nfiles:\n  layout: per-sheet\ncolour:\n  inklimit: 240\n", encoding="utf-8"
    )
    res = run_cli("build", str(pack), "--printer", "bad", *DECKS, "--out", str(pack.parent / "out"))
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "Traceback" not in text
    assert "bad.yaml:6" in text and "inklimit" in text and "unknown field" in text
    assert not (pack.parent / "out").exists()


def test_an_unknown_printer_is_a_usage_error() -> None:
    res = run_cli("build", "expedicion", "--printer", "drivethrucard")
    assert res.returncode == 2
    assert "unknown printer 'drivethrucard'" in res.stdout + res.stderr and "drivethrucards" in res.stdout + res.stderr


def test_png_profiles_are_views_of_the_printer_profiles_with_every_raster_product() -> None:
    from mazmorra.contracts import Face
    from mazmorra.render.raster import fits_profile, png_profiles, profile_frame

    tgc = png_profiles("tgc")
    assert [(p.width, p.height) for p in tgc] == [(825, 1125), (600, 825)]  # poker, mini
    mini = Face("m", "front", 1.75 * IN, 2.5 * IN, 3.175, ())
    fitted = next(f for p in tgc if (f := fits_profile(mini, p)) is not None)
    frame = profile_frame(mini, fitted)
    assert (frame.width, frame.height) == (600, 825)
    assert [(p.width, p.height) for p in png_profiles("mpc")] == [(822, 1122)]


def test_sheet_images_are_the_print_sheets_as_pictures_at_the_profile_dpi(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "si.yaml").write_text(
        "name: Sheets as images\nextends: home-a4\nfiles:\n  layout: sheet-images\n", encoding="utf-8"
    )
    res = run_cli("build", "expedicion", "--printer", "si", "-d", "fichas", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    images = sorted((pack.parents[1] / "output" / "expedicion" / "en" / "si").glob("*.png"))
    sheets = run_cli(
        "build", "expedicion", "--printer", "home-a4", "-d", "fichas", "--lang", "en", "--out", str(tmp_path)
    )
    assert sheets.returncode == 0
    pdf = PdfReader(str(tmp_path / "expedicion" / "en" / "tokens.pdf"))
    assert [p.name for p in images] == [f"tokens-{n:03d}.png" for n in range(1, len(pdf.pages) + 1)]
    first = Image.open(images[0])
    assert first.size == (2480, 3508)  # A4 at 300 dpi
    assert first.convert("L").getextrema()[0] < 100  # the chits are on it
