"""Issue 21, CMYK and PDF/X: a CMYK printer profile's files hold DeviceCMYK only (checked by parsing
every content stream and image), declare PDF/X with an OutputIntent, keep black text in K alone and
stay within the printer's total ink limit (Ghostscript as the external judge when present)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from conftest import need_tool, run_cli, separations
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mazmorra.printers.cmyk import ink

pytestmark = pytest.mark.slow  # not in the fast tier: CMYK builds, Ghostscript's ink measure

RGB_OPS = {b"rg", b"RG"}
DECKS = ("-d", "artimanas", "-d", "fichas", "-d", "losetas", "--lang", "en")


@pytest.fixture(scope="module")
def dtc(built) -> Path:  # type: ignore[no-untyped-def]
    return built("expedicion", "--printer", "drivethrucards", *DECKS) / "en" / "drivethrucards"


def _streams(reader: PdfReader) -> list[tuple[ContentStream, str]]:
    """Every content stream of the document (pages and the form XObjects they draw), once each."""
    out: list[tuple[ContentStream, str]] = []
    seen: set[int] = set()

    def walk(contents: object, resources: object, where: str) -> None:
        out.append((ContentStream(contents, reader), where))
        xobjects = resources.get("/XObject") if resources else None  # type: ignore[attr-defined]
        for name, ref in xobjects.get_object().items() if xobjects else []:
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            x = ref.get_object()
            if x["/Subtype"] == "/Form":
                walk(x, x.get("/Resources"), f"{where} {name}")
            else:
                assert x.get("/ColorSpace") == "/DeviceCMYK", f"{where} {name}: image in {x.get('/ColorSpace')}"
                assert "/SMask" not in x, f"{where} {name}: transparency in PDF/X-1a"

    for n, page in enumerate(reader.pages):
        walk(page.get_contents(), page.get("/Resources"), f"page {n + 1}")
    return out


def test_no_rgb_anywhere_and_pdfx_declared(dtc: Path) -> None:
    pdfs = sorted(dtc.rglob("*.pdf"))
    assert len(pdfs) == 3
    for pdf in pdfs:
        reader = PdfReader(str(pdf))
        ops = {op for cs, _ in _streams(reader) for _, op in cs.operations}
        assert not ops & RGB_OPS, f"{pdf.name}: RGB operators {ops & RGB_OPS}"
        assert {b"k", b"K"} <= ops
        assert reader.metadata is not None and reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1:2003"
        assert reader.metadata["/Trapped"] == "/False"
        (intent,) = reader.trailer["/Root"]["/OutputIntents"]
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 005"
        profile = intent["/DestOutputProfile"].get_object()
        assert profile["/N"] == 4 and profile.get_data() == ink("swop-tr005-240").icc
        for page in reader.pages:
            assert "/TrimBox" in page and "/BleedBox" in page


def test_black_text_is_k_only_and_no_text_colour_passes_the_ink_limit(dtc: Path) -> None:
    reader = PdfReader(str(dtc / "tricks.pdf"))
    text_colours = set()
    for cs, _ in _streams(reader):
        inside = False
        for operands, op in cs.operations:
            inside = (inside or op == b"BT") and op != b"ET"
            if inside and op == b"k":
                text_colours.add(tuple(round(float(v), 3) for v in operands))
    assert (0.0, 0.0, 0.0, 1.0) in text_colours  # black text: K alone
    for c, m, y, k in text_colours:
        assert c + m + y + k <= 2.4 + 1e-6
        assert not (k >= 0.9 and c + m + y > 0), f"four-colour black text {c, m, y, k}"


def test_the_conversion_is_the_icc_transform_with_neutrals_in_k() -> None:
    profile = ink("swop-tr005-240")
    black = profile.colour("#000000")
    assert (black.cyan, black.magenta, black.yellow, black.black) == (0, 0, 0, 1)
    grey = profile.colour("#808080")
    assert (grey.cyan, grey.magenta, grey.yellow) == (0, 0, 0) and 0.4 < grey.black < 0.8
    red = profile.colour("#c0392b")  # not the naive 1 - rgb: the profile's separation, within 240 %
    assert red.cyan < 0.05 and red.magenta > 0.8 and red.yellow > 0.8
    assert red.cyan + red.magenta + red.yellow + red.black <= 2.4
    dark = profile.colour("#1e1e28")  # the darkest colour of the samples: rich, yet within the limit
    assert 2.0 < dark.cyan + dark.magenta + dark.yellow + dark.black <= 2.4


def test_raster_art_is_converted_once_to_cmyk_flattened_on_paper() -> None:
    profile = ink("swop-tr005-240")
    buf = io.BytesIO()
    img = Image.new("RGBA", (8, 8), (200, 30, 30, 255))
    img.putpixel((0, 0), (0, 0, 0, 0))
    img.save(buf, "PNG")
    held = len(profile._images)  # the profile is shared: other tests' builds may have converted art already
    first = profile.image(buf.getvalue())
    assert first.mode == "CMYK" and first.getpixel((0, 0)) == (0, 0, 0, 0)  # transparent: paper
    c, m, y, _k = first.getpixel((4, 4))  # type: ignore[misc]
    assert m > 200 and y > 200 and c < 20
    assert len(profile._images) == held + 1 and profile.image(buf.getvalue()).tobytes() == first.tobytes()
    assert len(profile._images) == held + 1  # the second time from the cache


def test_ghostscript_measures_total_ink_within_240_percent(dtc: Path, tmp_path: Path) -> None:
    need_tool("gs")
    for pdf in sorted(dtc.glob("*.pdf")):
        # one CMYK separation per pixel; the darkest pixel's total is the file's maximum ink
        pages = separations(pdf, 40, tmp_path, last=6)
        # ink_cov (inkcov's sibling that weighs each pixel's ink, not only whether there is any): each
        # page's mean ink per plate in %; their sum is the page's mean total ink, which the per-pixel
        # maximum below bounds from above
        inkcov = subprocess.run(
            ["gs", "-q", "-o", "-", "-sDEVICE=ink_cov", "-r40", "-dLastPage=6", str(pdf)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        covers = [[float(v) for v in line.split()[:4]] for line in inkcov.splitlines() if line.strip().endswith("OK")]
        assert covers and all(sum(c) <= 240 and c[3] > 0 for c in covers), inkcov
        assert pages
        for img in pages:
            assert img.mode == "CMYK"
            data = img.tobytes()
            totals = [sum(data[i : i + 4]) for i in range(0, len(data), 4)]
            assert max(totals) <= round(2.4 * 255) + 4, f"{pdf.name} page: {max(totals) / 2.55:.0f} % ink"
            assert max(totals) > 255  # something printed, richer than one ink


def test_a_sheets_profile_in_cmyk_prints_the_sheets_in_cmyk(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "sheets-cmyk.yaml").write_text(
        "name: Sheets in CMYK\nextends: home-a4\npdf: PDF/X-1a:2003\ncolour:\n  space: cmyk\n  icc: swop-tr005-240\n",
        encoding="utf-8",
    )
    res = run_cli(
        "build", "expedicion", "--printer", "sheets-cmyk", "-d", "fichas", "--lang", "en", cwd=pack.parents[1]
    )
    assert res.returncode == 0, res.stdout + res.stderr
    reader = PdfReader(str(pack.parents[1] / "output" / "expedicion" / "en" / "tokens.pdf"))
    ops = {op for cs, _ in _streams(reader) for _, op in cs.operations}
    assert not ops & RGB_OPS and b"k" in ops
    assert reader.metadata is not None and reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1:2003"


def test_cmyk_files_are_byte_identical_whatever_the_workers(dtc: Path, tmp_path: Path) -> None:
    res = run_cli("build", "expedicion", "--printer", "drivethrucards", *DECKS, "-j", "2", "--out", str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 PDF(s)" not in res.stderr and "drivethrucards/ (" in res.stdout  # the printer's files, not "0 PDFs"
    again = tmp_path / "expedicion" / "en" / "drivethrucards"
    for pdf in sorted(dtc.rglob("*.pdf")):
        assert (again / pdf.relative_to(dtc)).read_bytes() == pdf.read_bytes(), pdf.name


def test_a_pdfx4_profile_writes_pdf_16_with_matching_xmp(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "x4.yaml").write_text(
        "name: X-4 shop\nextends: drivethrucards\npdf: PDF/X-4\n", encoding="utf-8"
    )
    res = run_cli("build", "expedicion", "--printer", "x4", "-d", "fichas", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    pdf = (
        pack.parents[1] / "output" / "expedicion" / "en" / "x4" / "not-sold" / "tokens.pdf"
    )  # chits DriveThruCards does not sell
    assert pdf.read_bytes().startswith(b"%PDF-1.6")
    reader = PdfReader(str(pdf))
    assert reader.metadata is not None and reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
    assert f"<pdf:Producer>{reader.metadata['/Producer']}</pdf:Producer>" in xmp
    assert reader.metadata["/Title"] in xmp


def test_the_drawing_language_prints_in_cmyk_too(pack_copy) -> None:  # type: ignore[no-untyped-def]
    """Gradients (one fading out), stars, paths and a faded SVG picture, in a PDF/X-4 profile (which allows
    transparency): every colour through the printer's ICC transform, no RGB operator left."""
    from mazmorra.support.paths import templates_dir

    pack = pack_copy("muestras")
    (pack / "printers").mkdir()
    (pack / "printers" / "x4.yaml").write_text("name: X-4 shop\nextends: drivethrucards\npdf: PDF/X-4\n", "utf-8")
    (pack / "images").mkdir()
    (pack / "images" / "badge.svg").write_bytes(
        (Path(__file__).parents[2] / "layout" / "elements" / "drawing" / "badge.svg").read_bytes()
    )
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    extra = (
        '<g overlap="ok"><ellipse cx="10" cy="10" rx="4" ry="2" fill="linear-gradient(red, blue)" stroke="#000"/>'
        '<star cx="20" cy="10" r="3" fill="gold" opacity="0.7"/><path d="M 30 8 q 2 -4 4 0" stroke="#0a0"/>'
        '<image src="images/badge.svg" x="40" y="6" w="6" h="6" opacity="0.8"/>'
        '<rect x="48" y="6" w="8" h="6" fill="linear-gradient(90deg, #c00000, #0000c000)"/></g>'
    )
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {extra}\n</card>"), encoding="utf-8")
    res = run_cli("build", "muestras", "--printer", "x4", "--lang", "en", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    reader = PdfReader(str(pack.parents[1] / "output" / "muestras" / "en" / "x4" / "loose-cards.pdf"))
    ops: set[bytes] = set()
    for page in reader.pages:
        seen = [page.get_contents()]
        xobjects = page["/Resources"].get("/XObject")
        seen += [x.get_object() for x in (xobjects.get_object().values() if xobjects else [])]
        for contents in seen:
            if contents is not None and contents.get("/Subtype", "/Form") == "/Form":
                ops |= {op for _, op in ContentStream(contents, reader).operations}
    assert not ops & RGB_OPS and {b"k", b"sh"} <= ops  # CMYK fills, and the gradient as a shading
    shadings = [
        sh.get_object()
        for page in reader.pages
        for x in [
            page["/Resources"],
            *(v.get_object().get("/Resources", {}) for v in page["/Resources"].get("/XObject", {}).values()),
        ]
        for sh in x.get("/Shading", {}).values()
    ]
    assert shadings and {str(sh["/ColorSpace"]) for sh in shadings} == {"/DeviceCMYK"}, shadings
    pdf = (pack.parents[1] / "output" / "muestras" / "en" / "x4" / "loose-cards.pdf").read_bytes()
    assert b"/Luminosity" in pdf  # the fading gradient's soft mask (a grey gradient, not a colour)
