"""Issue 40.3: a raster picture's resolution judged against the printer's: none under 95 % of its
dpi is said; under half of it (visibly blurry) is an error, the rest a warning; reported at the
component field the picture comes from (the deck file's line), the template element named."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import line_of, run_cli
from PIL import Image

pytestmark = pytest.mark.slow  # builds a deck for a print shop


def _pictures(pack: Path, widths: dict[str, int]) -> None:
    """Each card of `widths` shows a picture that many pixels wide (the template places it 51 mm wide)."""
    (pack / "images").mkdir()
    deck = pack / "decks" / "cartas.yaml"
    text = deck.read_text(encoding="utf-8")
    for card, px in widths.items():
        Image.new("RGB", (px, round(px * 34 / 51)), (120, 90, 60)).save(pack / "images" / f"{card}.png")
        head = f"- id: {card}\n"
        assert head in text
        text = text.replace(head, f"{head}  image: images/{card}.png\n")
    deck.write_text(text, encoding="utf-8")


def test_a_picture_too_coarse_for_the_printer_is_reported_at_its_field(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    _pictures(pack, {"cofre-olvidado": 100, "fogata-del-claustro": 400})
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "es", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text  # the 50 dpi one is an error
    found = [ln for ln in text.splitlines() if "(preflight.image-dpi)" in ln]
    assert len(found) == 2, found
    deck = pack / "decks" / "cartas.yaml"
    coarse = next(ln for ln in found if "cofre-olvidado.png" in ln)
    assert f"cartas.yaml:{line_of(deck, 'image: images/cofre-olvidado.png')}:" in coarse and "error" in coarse
    assert "visibly blurry" in coarse and "px across" in coarse and "drawn by " in coarse and "card.xml.j2:8" in coarse
    low = next(ln for ln in found if "fogata-del-claustro.png" in ln)
    assert f"cartas.yaml:{line_of(deck, 'image: images/fogata-del-claustro.png')}:" in low and "warning" in low
    assert "below the 300 dpi DriveThruCards asks for" in low


def test_a_picture_just_under_the_printers_dpi_is_no_finding(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    _pictures(pack, {"cofre-olvidado": 590})  # 294 dpi for a 300 dpi printer
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--lang", "es", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    assert "image-dpi" not in res.stdout + res.stderr
