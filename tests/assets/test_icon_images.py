"""A raster `<image>` inside an SVG icon (assets/icons.py check_references): a PNG or JPEG in the
pack, as a file or embedded, is drawn; anything else (outside the pack, an address, an absolute path,
another format, a missing file, a `<use>` of another file) is an error at the icon's line
(`icon.image`), in `validate` as in `build`, never an internal error."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from conftest import need_tool, render_png, run_cli
from PIL import Image

RED = (200, 0, 0)


def _png(size: int = 20) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), RED).save(buf, "PNG")
    return buf.getvalue()


def _icon(pack: Path, element: str) -> Path:
    """The pack's own `coin` icon (the sample's first card draws it): a dark disc, then `element` on line 3."""
    (pack / "icons").mkdir(exist_ok=True)
    icon = pack / "icons" / "coin.svg"
    icon.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24">\n'
        '  <circle cx="12" cy="12" r="11" fill="#222"/>\n'
        f"  {element}\n"
        "</svg>\n",
        encoding="utf-8",
    )
    return icon


def _red_pixels(pdf: Path, tmp: Path) -> int:
    need_tool("pdftoppm")
    page = render_png(pdf, 1, 40, tmp)
    data = page.tobytes()  # RGB
    return sum(1 for i in range(0, len(data), 3) if data[i] > 150 and data[i + 1] < 60 and data[i + 2] < 60)


@pytest.mark.parametrize(
    "href",
    ["../art/red.png", "data:image/png;base64," + base64.b64encode(_png()).decode()],
    ids=["file", "embedded"],
)
def test_a_png_in_the_pack_is_drawn_inside_the_icon(pack_copy, tmp_path: Path, href: str) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    (pack / "art").mkdir()
    (pack / "art" / "red.png").write_bytes(_png())
    project = pack.parents[1]
    res = run_cli("build", "muestras", "--lang", "es", "--draft", cwd=project)
    plain = _red_pixels(project / "output/muestras/es/cartas.pdf", tmp_path)
    _icon(pack, f'<image href="{href}" x="2" y="2" width="20" height="20"/>')
    res = run_cli("build", "muestras", "--lang", "es", "--draft", cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    assert _red_pixels(project / "output/muestras/es/cartas.pdf", tmp_path) > plain + 50  # the red square, twice


BAD = [
    ('<image href="../../outside.png" width="20" height="20"/>', "is outside the pack folder"),
    ('<image xlink:href="/etc/passwd.png" width="20" height="20"/>', "an address or an absolute path"),
    ('<image href="https://example.com/x.png" width="20" height="20"/>', "an address or an absolute path"),
    ('<image href="file:///etc/hostname" width="20" height="20"/>', "an address or an absolute path"),
    ('<image href="../art/red.gif" width="20" height="20"/>', "is not a PNG or JPEG"),
    ('<image href="../art/fake.png" width="20" height="20"/>', "is a GIF file, not a PNG or JPEG"),
    ('<image href="../art/broken.png" width="20" height="20"/>', "is not a readable PNG or JPEG"),
    ('<image href="../art/none.png" width="20" height="20"/>', "does not exist"),
    ('<image href="data:image/gif;base64,R0lGOD" width="20" height="20"/>', "must be a base64 PNG or JPEG"),
    ('<use href="other.svg#disc"/>', "points outside the drawing"),
    ('<image href="#ok" xlink:href="/etc/x.png" width="20" height="20"/>', "an address or an absolute path"),
]


@pytest.mark.parametrize("command", ["validate", "build"])
@pytest.mark.parametrize("element, phrase", BAD)
def test_any_other_image_is_refused_at_the_icon_line(pack_copy, command: str, element: str, phrase: str) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    project = pack.parents[1]
    (project / "outside.png").write_bytes(_png())
    (pack / "art").mkdir()
    Image.new("RGB", (4, 4), RED).save(pack / "art" / "red.gif", "GIF")
    Image.new("RGB", (4, 4), RED).save(pack / "art" / "fake.png", "GIF")
    (pack / "art" / "broken.png").write_bytes(_png()[:40])
    _icon(pack, element)
    res = run_cli(command, "muestras", cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert "content/muestras/icons/coin.svg:3:3" in text and "(icon.image)" in text and phrase in text, text
    assert not list(project.glob("output/**/*.pdf"))
