"""Exports besides the PDF: PNG per face (print-shop profiles), Tabletop Simulator decks, the gallery."""

from __future__ import annotations

import io
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from conftest import edit, mix_muestras, need_tool, run_cli, tree_snapshot
from PIL import Image, ImageCms

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face, RectOp
from mazmorra.render.raster import PROFILES, Rasteriser, dpi_frame, fits_profile, profile_frame
from mazmorra.render.sinks.tts import MAX_CARDS, grid

pytestmark = pytest.mark.slow  # not in the fast tier: PNG, TTS and gallery exports of whole packs

CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0  # muestras: poker cards, 3 mm bleed


def _build(*args: str, cwd: Path | None = None) -> str:
    res = run_cli("build", *args, cwd=cwd)
    assert res.returncode == 0, res.stderr
    return res.stdout + res.stderr


def _px(mm: float, dpi: float) -> int:
    return round(mm / 25.4 * dpi)


# ---------------------------------------------------------------- PNG


def test_png_per_face_at_default_dpi_with_bleed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build("muestras", "--lang", "es", "--no-pdf", "--png", "--out", str(out))
    folder = out / "muestras" / "es" / "png" / "cartas"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "back.png",
        "cards.csv",
        "cofre-olvidado-front.png",
        "fogata-del-claustro-front.png",
        "ojo-del-vigia-front.png",
    ]  # one file per component (not per copy) and one shared back
    assert not (out / "muestras" / "es" / "cartas.pdf").exists()  # --no-pdf
    for p in folder.glob("*.png"):
        img = Image.open(p)
        assert img.size == (_px(CARD_W + 2 * BLEED, 300), _px(CARD_H + 2 * BLEED, 300)) == (815, 1110)
        assert img.mode == "RGB"
        profile = ImageCms.ImageCmsProfile(io.BytesIO(img.info["icc_profile"]))
        assert "sRGB" in ImageCms.getProfileDescription(profile)
        assert profile.profile.version == 2.1  # ICC v2: what print shops' software reads everywhere
        assert round(img.info["dpi"][0]) == 300
    assert "cofre-olvidado,Cofre olvidado,2,cofre-olvidado-front.png,back.png" in (folder / "cards.csv").read_text()
    # Deterministic: the same content gives the same pixels and bytes.
    again = tmp_path / "again"
    _build("muestras", "--lang", "es", "--no-pdf", "--png", "--out", str(again))
    assert tree_snapshot(again / "muestras") == tree_snapshot(out / "muestras")


def test_png_trim_only_at_another_dpi(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(
        "muestras",
        "--lang",
        "en",
        "--no-pdf",
        "--png",
        "--dpi",
        "150",
        "--no-png-bleed",
        "--out",
        str(out),
    )
    img = Image.open(out / "muestras" / "en" / "png" / "loose-cards" / "ojo-del-vigia-front.png")
    assert img.size == (_px(CARD_W, 150), _px(CARD_H, 150)) == (372, 520)


@pytest.mark.parametrize("name, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_print_shop_profiles_to_the_pixel(tmp_path: Path, name: str, size: tuple[int, int]) -> None:
    out = tmp_path / "out"
    _build("muestras", "--lang", "es", "--no-pdf", "--png-profile", name, "--strict", "--out", str(out))
    files = list((out / "muestras" / "es" / "png" / "cartas").glob("*.png"))
    assert len(files) == 4
    for p in files:
        img = Image.open(p)
        assert img.size == size and img.mode == "RGB"
        assert img.getpixel((0, 0)) == img.getpixel((10, 10))  # edges extended from the bleed, not white


def test_profile_centres_the_trim_on_the_shops_trim() -> None:
    """A 63 × 88 mm face whose trim is red and bleed blue: the red box is centred in the image, and
    the shop's own trim (37.5 px or 36 px in) falls inside the blue bleed, within a few pixels."""
    face = Face(
        "probe",
        "front",
        CARD_W,
        CARD_H,
        BLEED,
        (RectOp(0, 0, CARD_W, CARD_H, fill="#ff0000"),),
        background="#0000ff",
    )
    for profile in PROFILES.values():
        fitted = fits_profile(face, profile)
        assert fitted is profile
        frame = profile_frame(face, profile)
        assert frame.trim_x + CARD_W * frame.scale / 2 == pytest.approx(profile.width / 2)
        assert frame.trim_y + CARD_H * frame.scale / 2 == pytest.approx(profile.height / 2)
        img = Rasteriser(IconSet.for_pack(None), "en").images([(face, frame)])[0]
        assert img.size == (profile.width, profile.height)
        row, col = img.height // 2, img.width // 2
        reds = [x for x in range(img.width) if img.getpixel((x, row))[0] > 200 and img.getpixel((x, row))[2] < 60]
        left, right = reds[0], img.width - 1 - reds[-1]
        assert abs(left - right) <= 1, (profile.name, left, right)
        assert abs((left + reds[-1] + 1) - _px(CARD_W, 300) - 2 * left) <= 1
        shop_bleed = (profile.width - profile.trim_w) / 2
        assert 0 < left - shop_bleed < 6  # 63 mm is 744 px against the shop's 750: ~3 px each side
        reds = [y for y in range(img.height) if img.getpixel((col, y))[0] > 200 and img.getpixel((col, y))[2] < 60]
        top, bottom = reds[0], img.height - 1 - reds[-1]
        assert abs(top - bottom) <= 1, (profile.name, top, bottom)
        assert img.getpixel((0, 0)) == img.getpixel((img.width - 1, img.height - 1)) == (0, 0, 255)
    # A 24 mm token does not fit a poker profile; a landscape card gets the profile turned.
    assert fits_profile(Face("t", "front", 24, 24, 3, ()), PROFILES["tgc"]) is None
    turned = fits_profile(Face("l", "front", CARD_H, CARD_W, BLEED, ()), PROFILES["tgc"])
    assert turned is not None and (turned.width, turned.height) == (1125, 825)


def test_profile_misfit_is_a_warning_and_falls_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    text = _build(
        "profundidades",
        "--lang",
        "es",
        "--deck",
        "fichas",
        "--no-pdf",
        "--png-profile",
        "mpc",
        "--out",
        str(out),
    )
    assert "do not fit the mpc profile" in text and "(export.profile)" in text
    summary = next(line for line in text.splitlines() if "png/fichas/" in line)
    assert summary.endswith("(16 PNG, 300 dpi, not fitting the mpc profile)")
    face = Face("x", "front", 25, 25, 3, ())
    expected = dpi_frame(face, 300, True)
    for p in (out / "profundidades" / "es" / "png" / "fichas").glob("*.png"):
        assert Image.open(p).size == (expected.width, expected.height)


def test_bad_export_options_are_usage_errors() -> None:
    for args in (
        ["--no-pdf"],
        ["--png-profile", "tgc", "--dpi", "200"],
        ["--png", "--dpi", "5"],
        ["--png-profile", "mpc", "--no-png-bleed"],
        ["--tts", "--tts-url", "not a url"],
        ["--tts", "--tts-url", "english=https://example.org"],
        ["--changed-only", "--gallery"],
    ):
        res = run_cli("build", "muestras", *args)
        assert res.returncode == 2, (args, res.stderr)
        assert "Traceback" not in res.stderr


# ---------------------------------------------------------------- Tabletop Simulator


def _big_pack(root: Path, n: int) -> Path:
    pack = root / "content" / "grande"
    (pack / "decks").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: grande\nname: Grande\nsource_language: es\nlanguages: [es]\n"
        "decks:\n  - id: mazo\n    kind: card\n    name: Mazo grande\n    file: decks/mazo.yaml\n",
        encoding="utf-8",
    )
    cards = [
        f"- id: c{i:03d}\n  name: Carta {i}\n  text: Texto {i}.\n" + ("  copies: 3\n" if i == 0 else "")
        for i in range(n)
    ]
    (pack / "decks" / "mazo.yaml").write_text("\n".join(cards), encoding="utf-8")
    return pack


def test_tts_deck_of_more_than_69_cards(tmp_path: Path) -> None:
    n = 75
    _big_pack(tmp_path, n)
    _build("grande", "--no-pdf", "--tts", cwd=tmp_path)
    tts = tmp_path / "output" / "grande" / "es" / "tts"
    save = json.loads((tts / "mazo.json").read_text(encoding="utf-8"))
    (deck,) = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Mazo grande"
    custom = deck["CustomDeck"]
    assert sorted(custom) == ["1", "2"]  # 69 + 6
    held = {}
    for key, entry in custom.items():
        assert entry["UniqueBack"] is False
        sheet = Path(unquote(urlparse(entry["FaceURL"]).path))
        assert sheet == tts / "mazo" / f"sheet-{key}.jpg"
        img = Image.open(sheet)
        assert img.mode == "RGB" and max(img.size) <= 4096
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert cols <= 10 and rows <= 7
        assert img.width % cols == 0 and img.height % rows == 0
        cell = (img.width // cols, img.height // rows)
        assert abs(cell[0] / cell[1] - CARD_W / CARD_H) < 0.01
        held[key] = cols * rows
        back = Image.open(Path(unquote(urlparse(entry["BackURL"]).path)))
        assert abs(back.width / back.height - CARD_W / CARD_H) < 0.01 and back.width >= cell[0]
    assert held["1"] == 70  # 10 × 7, the last cell left for TTS's hidden card
    ids = deck["DeckIDs"]
    assert len(ids) == len(deck["ContainedObjects"]) == n + 2  # c000 has 3 copies
    assert ids[:3] == [100, 100, 100] and ids[3] == 101 and 168 in ids and 200 in ids and 205 in ids
    assert all(i % 100 < MAX_CARDS for i in ids)
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert names[0] == names[2] == "Carta 0" and names[-1] == f"Carta {n - 1}"
    assert [c["CardID"] for c in deck["ContainedObjects"]] == ids
    assert (tts / "mazo.png").is_file()  # the Saved Objects thumbnail


def test_tts_descriptions_are_each_cards_text_in_the_build_language(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build("muestras", "--no-pdf", "--tts", "--out", str(out))
    cards = {}
    for lang, name in (("es", "cartas"), ("en", "loose-cards")):
        saved = json.loads((out / "muestras" / lang / "tts" / f"{name}.json").read_text(encoding="utf-8"))
        for card in saved["ObjectStates"][0]["ContainedObjects"]:
            cards[(lang, card["Nickname"])] = card["Description"]
    assert cards[("en", "Forgotten Chest")] == "Open the chest: gain 2 coin and draw draw 1."
    assert cards[("es", "Cofre olvidado")] == "Abre el cofre: ganas 2 coin y robas draw 1."
    assert cards[("en", "Cloister Bonfire")].startswith("Rest by the fire. Catch")  # **bold** markers dropped
    assert all(cards.values())  # every card of both languages


def test_tts_grid_limits() -> None:
    for n in range(1, MAX_CARDS + 1):
        cols, rows, (cw, ch) = grid(n, CARD_W, CARD_H, 300 / 25.4)
        assert cols <= 10 and rows <= 7 and cols * rows >= n
        assert cols * cw <= 4096 and rows * ch <= 4096
        assert cw <= _px(CARD_W, 300)
    assert grid(69, CARD_W, CARD_H, 300 / 25.4)[:2] == (10, 7)


def test_tts_two_sided_components_get_unique_back_sheets(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(
        "profundidades",
        "--lang",
        "en",
        "--deck",
        "entradas",
        "--no-pdf",
        "--tts",
        "--tts-url",
        "https://example.org/tts",
        "--out",
        str(out),
    )
    tts = out / "profundidades" / "en" / "tts"
    deck = json.loads((tts / "entrance-maps.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True
    assert entry["FaceURL"] == "https://example.org/tts/en/entrance-maps/sheet-1.jpg"  # each language its own folder
    assert entry["BackURL"] == "https://example.org/tts/en/entrance-maps/sheet-1-back.jpg"
    front, back = (
        Image.open(tts / "entrance-maps" / "sheet-1.jpg"),
        Image.open(tts / "entrance-maps" / "sheet-1-back.jpg"),
    )
    assert front.size == back.size
    assert front.width % entry["NumWidth"] == 0 and front.height % entry["NumHeight"] == 0
    assert all(c["Nickname"] for c in deck["ContainedObjects"])


# ---------------------------------------------------------------- gallery


def test_gallery_in_a_real_browser(pack_copy, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack = pack_copy("muestras")
    po = pack / "locale" / "en.po"
    edit(po, 'msgstr "Forgotten Chest"', 'msgstr "Forgotten Chest!"')  # no longer what the source says...
    edit(po, 'msgctxt "cofre-olvidado.name"', '#, fuzzy\nmsgctxt "cofre-olvidado.name"')  # ...marked fuzzy
    text = _build("muestras", "--draft", "--no-pdf", "--gallery", cwd=tmp_path)
    gallery = tmp_path / "output" / "muestras" / "gallery"
    assert "index.html" in text
    html = (gallery / "index.html").read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html  # offline: nothing fetched

    with Browser(tmp_path / "chromium-profile") as b:
        b.open((gallery / "index.html").as_uri())
        thumbs = "[...document.querySelectorAll('img.thumb')]"
        assert b.js(f"{thumbs}.length") == 6  # 3 components, front and back
        assert b.wait_for(f"{thumbs}.every(i => i.complete && i.naturalWidth > 0)")
        before = b.js(f"{thumbs}.map(i => i.getAttribute('src'))")
        assert all(s.startswith("img/es/") for s in before)
        assert b.js("document.querySelector('#c-ojo-del-vigia h3').textContent") == "Ojo del vigía"

        b.click("button.lang[data-lang=en]")
        after = b.js(f"{thumbs}.map(i => i.getAttribute('src'))")
        assert after == [s.replace("img/es/cartas/", "img/en/loose-cards/") for s in before]  # the deck's names
        assert b.wait_for(f"{thumbs}.every(i => i.complete && i.naturalWidth > 0)")
        assert (gallery / after[0]).read_bytes() != (gallery / before[0]).read_bytes()
        assert b.js("document.querySelector('#c-ojo-del-vigia h3').textContent") == "Watcher\u2019s Eye"
        assert b.js("document.querySelector('#c-ojo-del-vigia h3').lang") == "en"
        assert b.js("document.title") == "Samples"

        states = b.js(
            "Object.fromEntries([...document.querySelectorAll('.comp')].map(c => [c.id, "
            "[...c.querySelectorAll('.st')].map(s => s.className.replace(' current', '') + ':' + "
            "s.dataset.lang)]))"
        )
        assert states["c-cofre-olvidado"] == ["st st-source:es", "st st-fuzzy:en"]
        assert states["c-ojo-del-vigia"] == ["st st-source:es", "st st-translated:en"]
        warning = b.js("document.querySelector('#c-cofre-olvidado .pb-warning').textContent")
        assert "fuzzy" in warning

        b.click("#c-fogata-del-claustro img.thumb")
        assert b.js("document.getElementById('zoom').hidden") is False
        assert b.js("document.querySelector('#zoom img').getAttribute('src')").endswith(
            "img/en/loose-cards/fogata-del-claustro-front.jpg"
        )
        b.click("#zoom .close")
        assert b.js("document.getElementById('zoom').hidden") is True
        assert b.errors() == []


# ---------------------------------------------------------------- all or nothing


def test_exports_drop_files_a_previous_build_left(pack_copy, tmp_path: Path) -> None:
    pack = pack_copy("muestras")
    args = ("muestras", "--lang", "es", "--no-pdf", "--png", "--tts", "--gallery")
    _build(*args, cwd=tmp_path)
    out = tmp_path / "output" / "muestras"
    old = [
        out / "es" / "png" / "cartas" / "ojo-del-vigia-front.png",
        out / "gallery" / "img" / "es" / "cartas" / "ojo-del-vigia-front.jpg",
    ]
    assert all(p.is_file() for p in old)
    edit(pack / "decks" / "cartas.yaml", "id: ojo-del-vigia", "id: ojo-del-guardia")
    edit(pack / "locale" / "en.po", '"ojo-del-vigia.', '"ojo-del-guardia.', count=2)
    _build(*args, cwd=tmp_path)
    assert not any(p.exists() for p in old)
    assert (out / "es" / "png" / "cartas" / "ojo-del-guardia-front.png").is_file()
    assert "ojo-del-guardia" in (out / "gallery" / "index.html").read_text(encoding="utf-8")


def test_failed_build_writes_no_export(pack_copy, tmp_path: Path) -> None:
    """The English text of the last card overflows: Spanish exports are already staged by then, and
    still nothing reaches the output folder."""
    pack = pack_copy("muestras")
    out = tmp_path / "output"
    _build("muestras", "--no-pdf", "--png", "--tts", "--gallery", cwd=tmp_path)  # a good build first
    before = tree_snapshot(out)
    edit(
        pack / "locale" / "en.po",
        'msgstr "Look at the top 3',
        'msgstr "Look: ' + "0123456789" * 8 + " Look at the top 3",  # a word too wide for the box, at any size
    )
    res = run_cli("build", "muestras", "--lang", "es,en", "--png", "--tts", "--gallery", cwd=tmp_path)
    assert res.returncode == 1 and "text.overflow" in res.stderr, res.stderr
    assert "rendered muestras/es/cartas" in res.stderr  # the failure came after Spanish was drawn
    assert tree_snapshot(out) == before
    assert not list(tmp_path.rglob(".mazmorra-tmp-*"))


def test_a_deck_mixing_kinds_and_sizes_exports_each_back_once(pack_copy) -> None:
    pack = pack_copy("muestras")
    mix_muestras(pack)
    project = pack.parents[1]
    res = run_cli(
        "build",
        "muestras",
        "--lang",
        "es",
        "--draft",
        "--no-pdf",
        "--png",
        "--gallery",
        cwd=project,
    )
    assert res.returncode == 0, res.stderr
    want = {"back", "back-card-44x68", "back-curse-63x88"}
    pngs = project / "output/muestras/es/png/cartas"
    assert {p.stem for p in pngs.glob("back*.png")} == want
    jpgs = project / "output/muestras/gallery/img/es/cartas"
    assert {p.stem for p in jpgs.glob("back*.jpg")} == want
    from PIL import Image

    sizes = {p.stem: Image.open(p).size for p in pngs.glob("back*.png")}
    assert sizes["back-card-44x68"] == (
        round(50 / 25.4 * 300),
        round(74 / 25.4 * 300),
    )  # 44×68 + 2×3 mm bleed
    assert Image.open(pngs / "back.png").getpixel((40, 40)) != Image.open(pngs / "back-curse-63x88.png").getpixel(
        (40, 40)
    )


def test_the_srgb_profile_is_icc_v2_and_is_srgb() -> None:
    from mazmorra.render.icc import srgb_v2

    data = srgb_v2()
    assert data[8] == 2 and data[12:16] == b"mntr" and data[36:40] == b"acsp" and len(data) % 4 == 0
    ours = ImageCms.ImageCmsProfile(io.BytesIO(data))
    assert ours.profile.version == 2.1 and ours.profile.xcolor_space == "RGB "
    # Colour managed through it, every colour comes out as through littleCMS's own sRGB.
    img = Image.new("RGB", (64, 64))
    img.putdata([(r * 4, g * 4, (r * 3 + g * 5) % 256) for r in range(64) for g in range(64)])
    through = ImageCms.applyTransform(
        img, ImageCms.buildTransform(ours, ImageCms.createProfile("sRGB"), "RGB", "RGB", renderingIntent=1)
    )
    assert max(abs(a - b) for a, b in zip(img.tobytes(), through.tobytes())) <= 1


def test_tts_round_tokens_are_round_tiles_at_their_real_size_with_urls_per_language(tmp_path: Path) -> None:
    from mazmorra.render.sinks import ttsobjects

    out = tmp_path / "out"
    urls = ("--tts-url", "https://example.org/{lang}/tts", "--tts-url", "es=https://cdn.example.org/juego")
    _build("expedicion", "--deck", "fichas", "--deck", "becarios", "--no-pdf", "--tts", *urls, "--out", str(out))
    saved = {
        lang: json.loads((out / "expedicion" / lang / "tts" / f"{name}.json").read_text(encoding="utf-8"))[
            "ObjectStates"
        ]
        for lang, name in (("es", "fichas"), ("en", "tokens"))
    }
    squares, bag = saved["en"]
    assert squares["Name"] == "DeckCustom" and bag["Name"] == "Bag" and bag["Description"] == "The Expedition"
    tiles = bag["ContainedObjects"]
    assert len(tiles) == 24 and all(t["Name"] == "Custom_Tile" for t in tiles)  # 10 stun, 2+2+2 traps, 2, 4, 2
    stun = next(t for t in tiles if t["Nickname"] == "Stun token")
    image = stun["CustomImage"]
    assert image["CustomTile"]["Type"] == 2  # a circle
    assert image["ImageURL"] == "https://example.org/en/tts/tokens/ficha-aturdimiento-front.jpg"
    assert image["ImageSecondaryURL"] == "https://example.org/en/tts/tokens/ficha-aturdimiento-back.jpg"
    front = Image.open(out / "expedicion" / "en" / "tts" / "tokens" / "ficha-aturdimiento-front.jpg")
    assert front.size == (_px(24, 300), _px(24, 300))
    # Sizes in proportion: a 24 mm token is 24 mm across a 2-unit tile; a 20 mm square token and a
    # poker card on card meshes; a card is 2.5 units (63.5 mm) wide at scale 1.
    assert stun["Transform"]["scaleX"] == stun["Transform"]["scaleZ"] == round(24 / ttsobjects.TILE_MM, 4)
    assert (squares["Transform"]["scaleX"], squares["Transform"]["scaleZ"]) == ttsobjects.card_scale(20, 20)
    assert [c["Nickname"] for c in squares["ContainedObjects"]].count("Wall token") == 6
    becarios = json.loads((out / "expedicion" / "en" / "tts" / "apprentices.json").read_text(encoding="utf-8"))
    card = becarios["ObjectStates"][0]
    assert card["Transform"]["scaleX"] == round(63 / 63.5, 4) and card["Transform"]["scaleZ"] == round(88 / 88.9, 4)
    assert 24 / 63 == pytest.approx(
        stun["Transform"]["scaleX"] * ttsobjects.TILE_MM / (card["Transform"]["scaleX"] * ttsobjects.CARD_MM[0]),
        rel=1e-3,
    )
    # Spanish: its own address, its own names.
    es_tiles = saved["es"][1]["ContainedObjects"]
    assert es_tiles[0]["CustomImage"]["ImageURL"].startswith("https://cdn.example.org/juego/fichas/")
    assert "Ficha de aturdimiento" in {t["Nickname"] for t in es_tiles}
