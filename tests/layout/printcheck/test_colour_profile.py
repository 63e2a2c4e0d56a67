"""Issue 40.1: a print-shop build says once per picture file that has no embedded colour profile
that its colours are taken as sRGB: a note at the file, which never fails a build, not even --strict."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from PIL import Image, ImageCms

pytestmark = pytest.mark.slow  # builds a deck for a print shop


def _picture(pack: Path, name: str, profile: bytes | None) -> None:
    (pack / "images").mkdir(exist_ok=True)
    extra = {"icc_profile": profile} if profile else {}
    Image.new("RGB", (640, 427), (120, 90, 60)).save(pack / "images" / name, **extra)


def test_pictures_without_a_profile_are_said_once_per_file_and_pass_strict(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    _picture(pack, "plain.png", None)
    _picture(pack, "tagged.png", srgb)
    deck = pack / "decks" / "cartas.yaml"
    text = deck.read_text(encoding="utf-8")
    for card, name in (("cofre-olvidado", "plain"), ("fogata-del-claustro", "plain"), ("ojo-del-vigia", "tagged")):
        text = text.replace(f"- id: {card}\n", f"- id: {card}\n  image: images/{name}.png\n")
    deck.write_text(text, encoding="utf-8")
    res = run_cli("build", "muestras", "--printer", "drivethrucards", "--strict", cwd=pack.parents[1])
    out = res.stdout + res.stderr
    assert res.returncode == 0, out  # a note is not a warning: --strict passes
    said = [line for line in out.splitlines() if "(preflight.colour-profile)" in line]
    assert len(said) == 1, said  # two cards, two languages, one file: said once
    assert said[0].startswith("content/muestras/images/plain.png: note ")
    assert "no embedded colour profile" in said[0] and "sRGB" in said[0]
    assert "tagged.png" not in out
    again = run_cli("build", "muestras", "--printer", "drivethrucards", "--strict", cwd=pack.parents[1])
    assert again.returncode == 0 and (again.stdout + again.stderr).count("(preflight.colour-profile)") == 1
    # a screen build (no printer) has no preflight: nothing said (the faces above came from the cache)
    res = run_cli("build", "muestras", "--lang", "es", cwd=pack.parents[1])
    assert res.returncode == 0 and "colour-profile" not in res.stdout + res.stderr
