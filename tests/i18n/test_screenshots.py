"""`mazmorra i18n screenshots`: a picture of every face with texts to translate, named by each
entry of the template and catalogues (`#. picture: screenshots/<file>.png`)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, run_cli

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())
PICTURE = re.compile(r"^picture: (screenshots/[A-Za-z0-9._-]+\.png)$", re.MULTILINE)


def _pictures(catalogue: Path) -> dict[str, str]:
    """msgctxt -> the picture its entry names (every entry must name exactly one)."""
    out = {}
    for e in polib.pofile(str(catalogue)):
        named = PICTURE.findall(e.comment)
        assert len(named) == 1, f"{catalogue.name} {e.msgctxt}: {e.comment!r}"
        out[e.msgctxt] = named[0]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_every_entry_of_every_sample_catalogue_names_a_safe_unique_picture(name: str) -> None:
    from mazmorra.i18n.catalogues.potemplate import template_messages
    from mazmorra.load import load_pack
    from mazmorra.support.filenames import MAX_NAME, safe_name

    pack = load_pack(CONTENT / name)
    locale = pack.root / "locale"
    named = _pictures(locale / f"{name}.pot")
    for po in locale.glob("*.po"):
        assert _pictures(po).items() <= named.items()  # a catalogue names its template entry's picture
    subjects = {m.ctx: m.component for m in template_messages(pack)}
    assert set(named) == set(subjects)
    picture_of: dict[str, str] = {}
    for ctx, picture in named.items():  # one picture per component or deck (the pack's name: its first deck's)
        subject = f"deck:{pack.decks[0].id}" if subjects[ctx] == "pack" else subjects[ctx]
        assert picture_of.setdefault(subject, picture) == picture
    files = [Path(p).name for p in picture_of.values()]
    assert all(safe_name(f) == f and len(f) <= MAX_NAME for f in files)
    assert len({f.casefold() for f in files}) == len(files)  # unique, even where case does not count


@pytest.mark.slow
def test_screenshots_draw_the_picture_every_entry_names(pack_copy) -> None:
    from PIL import Image

    pack = pack_copy("muestras")
    shots = pack / "locale" / "screenshots"
    shots.mkdir(parents=True)
    (shots / "removed-card.png").write_bytes(b"an earlier picture no entry names any more")
    res = run_cli("i18n", "screenshots", "muestras", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert "4 pictures in content/muestras/locale/screenshots" in res.stderr
    named = _pictures(pack / "locale" / "en.po")
    assert sorted(p.name for p in shots.iterdir()) == sorted({Path(p).name for p in named.values()})
    for picture in set(named.values()):
        with Image.open(pack / "locale" / picture) as img:
            assert img.format == "PNG" and img.size == (372, 520)  # 63 × 88 mm at 150 dpi, no bleed
            colours = img.convert("RGB").getcolors(maxcolors=1 << 16)
            assert colours is None or len(colours) > 50, picture  # a face drawn, not a blank page
    # the card's picture is the card: its title's red band differs from the deck back's dark blue
    with Image.open(shots / "ojo-del-vigia.png") as card, Image.open(shots / "_deck-cartas.png") as back:
        assert card.convert("RGB").getpixel((186, 40)) != back.convert("RGB").getpixel((186, 40))


@pytest.mark.slow
def test_a_component_with_its_own_back_is_pictured_front_and_back_into_another_folder(
    pack_copy, tmp_path: Path
) -> None:
    from PIL import Image

    pack = pack_copy("profundidades")
    res = run_cli("i18n", "screenshots", "profundidades", "--out", str(tmp_path / "shots"), cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert not (pack / "locale" / "screenshots").exists()
    folder = tmp_path / "shots" / "profundidades" / "screenshots"
    with Image.open(folder / "atrio-derrumbado.png") as room, Image.open(folder / "_deck-bolsas.png") as card:
        assert room.width > 2 * room.height  # a room tile's front and its own back, side by side
        assert card.size == (372, 520)
    with Image.open(folder / "_deck-fichas.png") as token:
        assert min(token.size) >= 300  # a small token drawn larger, its words readable


def test_a_language_the_pack_lacks_is_refused_without_a_traceback() -> None:
    res = run_cli("i18n", "screenshots", "muestras", "--lang", "de")
    assert res.returncode != 0 and "no language 'de'" in res.stderr and "Traceback" not in res.stderr
