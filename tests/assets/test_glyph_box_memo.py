"""Issue 38: the glyph boxes the print checks measure (assets/fonts.py `glyph_box`) are kept in the
build's memo by font file, so the next build (a save laying one card out) reads them instead of
loading fontTools and the font's outlines; the same boxes; another font file is measured again; and
a whole build keeps them, so a save's print checks find the same as a cold build's."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from mazmorra.assets import fonts
from mazmorra.layout.printcheck import facecheck, ink


@pytest.fixture
def memo_of(next_build):  # type: ignore[no-untyped-def]
    def forget() -> None:
        fonts.glyph_box.cache_clear()
        fonts._outlines.cache_clear()

    yield lambda: next_build(forget, fonts.use_memo)
    fonts.glyph_box.cache_clear()


def _no_outlines(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> None:
        raise AssertionError(f"the outlines of {name} were loaded")

    monkeypatch.setattr(fonts, "_outlines", refuse)


def test_boxes_measured_once_are_read_from_the_memo(memo_of, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    first = memo_of()
    measured = {c: fonts.glyph_box(c, "sans") for c in "Ag ñ,"}
    assert measured[" "] is None and measured["A"] is not None and measured["g"][1] < 0  # type: ignore[index]
    fonts.keep_measured()
    assert first.written == 1

    second = memo_of()
    _no_outlines(monkeypatch)
    assert {c: fonts.glyph_box(c, "sans") for c in "Ag ñ,"} == measured
    assert (second.read, second.written) == (1, 0)
    fonts.keep_measured()  # nothing new measured: nothing stored
    assert second.written == 0


def test_another_font_file_is_measured_again(memo_of, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    memo_of()
    fonts.glyph_box("A", "sans")
    fonts.keep_measured()
    copy = tmp_path / "sans-copy.ttf"
    copy.write_bytes(fonts.FONTS["sans"].read_bytes())
    monkeypatch.setitem(fonts.FONTS, "sans", copy)  # the same name, another file
    third = memo_of()
    assert fonts.glyph_box("A", "sans") is not None
    assert third.missed == ["glyph boxes"]


def _as_a_new_process() -> None:
    """What a process measured and judged of glyphs, forgotten."""
    fonts.glyph_box.cache_clear()
    ink._glyph_boxes.cache_clear()  # type: ignore[attr-defined]
    facecheck._verdict.cache_clear()


def test_a_save_lays_its_card_out_without_the_outlines_and_prints_the_same(pack_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("expedicion")
    root = pack.parents[1]
    _as_a_new_process()
    fonts._outlines.cache_clear()
    assert run_cli("build", "expedicion", "-j", "1", "--lang", "es", cwd=root).returncode == 0
    _as_a_new_process()  # what the print checks need is in the memo
    with monkeypatch.context() as m:
        _no_outlines(m)
        deck = pack / "decks" / "artimanas.yaml"  # the trick whose value sits near its frame (a pair judged by glyphs)
        text = deck.read_text(encoding="utf-8").split("  centre_value: 5\n")
        deck.write_text("  centre_value: 5\n".join(text[:-1]) + "  centre_value: 6\n" + text[-1], encoding="utf-8")
        saved = run_cli("build", "expedicion", "--changed-only", "-j", "1", "--lang", "es", cwd=root)
        assert saved.returncode == 0, saved.stderr
    _as_a_new_process()
    cold = run_cli("build", "expedicion", "-j", "1", "--lang", "es", "--out", "cold", cwd=root)
    assert cold.returncode == 0

    def found(err: str) -> list[str]:  # what the print checks reported about the cards laid out
        return [line for line in err.splitlines() if "warning" in line or "error" in line]

    assert set(found(saved.stderr)) <= set(found(cold.stderr))
    pdf = Path("expedicion", "es", "artimanas.pdf")
    assert (root / "output" / pdf).read_bytes() == (root / "cold" / pdf).read_bytes()
