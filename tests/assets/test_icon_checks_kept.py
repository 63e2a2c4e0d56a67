"""Icon checks kept for the process (assets/icons.py `IconSet.problems`): an SVG that draws nothing
outside itself is read once while it stays the same file (the live preview checks every icon at each
save); any change to it is checked again, and an icon that draws a file is checked every time."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from mazmorra.assets import icons
from mazmorra.assets.icons import IconSet

CLEAN = '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="11"/></svg>\n'


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    real = icons.check_svg
    monkeypatch.setattr(icons, "check_svg", lambda path: read.append(path.name) or real(path))
    return read


def test_a_self_contained_icon_is_read_once_and_again_when_it_changes(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "icons").mkdir()
    icon = tmp_path / "icons" / "lamp.svg"
    icon.write_text(CLEAN, encoding="utf-8")
    read = _reads(monkeypatch)
    assert IconSet.for_pack(tmp_path).problems() == []
    assert "lamp.svg" in read
    read.clear()
    assert IconSet.for_pack(tmp_path).problems() == []
    assert "lamp.svg" not in read  # the same file: its verdict kept

    icon.write_text('<!DOCTYPE svg [<!ENTITY a "b">]>\n' + CLEAN, encoding="utf-8")  # another file now
    problems = IconSet.for_pack(tmp_path).problems()
    assert [p.rule for p in problems] == ["icon.unsafe"] and "lamp.svg" in read
    assert problems[0].loc is not None and problems[0].loc.line == 1


def test_an_icon_that_draws_a_file_is_checked_every_time(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "icons").mkdir()
    picture = tmp_path / "art" / "red.png"
    picture.parent.mkdir()
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 0, 0)).save(buf, "PNG")
    picture.write_bytes(buf.getvalue())
    (tmp_path / "icons" / "seal.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\n'
        '  <image href="../art/red.png" width="24" height="24"/>\n</svg>\n',
        encoding="utf-8",
    )
    read = _reads(monkeypatch)
    assert IconSet.for_pack(tmp_path).problems() == []
    picture.unlink()  # the icon is the same file; what it draws is gone
    read.clear()
    problems = IconSet.for_pack(tmp_path).problems()
    assert read.count("seal.svg") == 1
    assert [p.rule for p in problems] == ["icon.image"] and "does not exist" in problems[0].message
