"""A pack font whose glyph table is garbage (assets/fontcheck.py): refused when the pack's fonts are
loaded, by `validate` as by `build` (`font.unreadable` at the file), never the PDF writer's traceback
from its subsetter; every font the samples and the tool ship passes the same check."""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, run_cli

from mazmorra.assets.fontcheck import check_glyphs


def garbled(font: bytes, table: bytes = b"glyf") -> bytes:
    """The font with one table's bytes replaced by noise (its directory, sizes and checksums kept)."""
    data = bytearray(font)
    (count,) = struct.unpack(">H", data[4:6])
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == table:
            noise = random.Random(37)
            data[offset : offset + length] = bytes(noise.randrange(256) for _ in range(length))
            return bytes(data)
    raise AssertionError(f"no {table!r} table")


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_font_with_a_garbage_glyph_table_is_unreadable_at_its_file(pack_copy, command: str) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("grimorio")
    first = sorted((pack / "fonts").glob("*.ttf"))[0]
    (pack / "fonts" / "Ruido.ttf").write_bytes(garbled(first.read_bytes()))
    res = run_cli(command, "grimorio", "--lang", "es", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert "content/grimorio/fonts/Ruido.ttf: error [fonts]: cannot use font file 'Ruido.ttf'" in text, text
    assert "glyph tables are damaged" in text and "(font.unreadable)" in text, text
    assert not list(pack.parents[1].glob("output/**/*.pdf"))


def test_every_font_shipped_or_in_a_sample_passes_the_check() -> None:
    fonts = [p for root in (REPO / "cli" / "mazmorra" / "fonts", CONTENT) for p in root.rglob("*.[to]tf")]
    assert len(fonts) >= 5
    for path in fonts:
        check_glyphs(path)


def test_a_damaged_glyph_table_raises_a_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttf"
    bad.write_bytes(garbled((REPO / "cli" / "mazmorra" / "fonts" / "DejaVuSansCondensed.ttf").read_bytes()))
    with pytest.raises(ValueError, match="glyph tables are damaged"):
        check_glyphs(bad)


def test_a_pack_font_read_from_one_folder_serves_a_build_run_from_another(tmp_path: Path) -> None:
    """A font is kept for the process once read (by name): a later build run from another working
    folder, of another pack with the same font file, found it under the first folder's relative path
    and called it unreadable (the live preview and a test runner run commands from several folders in
    one process)."""
    first = tmp_path / "first"
    shutil.copytree(CONTENT / "grimorio", first / "content" / "grimorio")
    res = run_cli("validate", "grimorio", "--lang", "es", cwd=first)
    assert res.returncode == 0, res.stderr
    second = tmp_path / "second" / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", second)
    (second / "fonts").mkdir(exist_ok=True)
    shutil.copy(CONTENT / "grimorio" / "fonts" / "Caladea-Regular.ttf", second / "fonts")
    yaml = (second / "pack.yaml").read_text("utf-8")
    (second / "pack.yaml").write_text(
        yaml.replace("languages: [es, en]", "languages: [es, en]\nfonts: {en: Caladea}"), "utf-8"
    )
    res = run_cli("validate", "muestras", "--lang", "en", cwd=second.parents[1])
    assert "font.unreadable" not in res.stderr and "font.unknown-family" not in res.stderr, res.stderr
