"""Issue 38: an SVG picture (`<image src="….svg">`) an earlier build judged is judged again from the
build's memo, by its path and bytes: a save that lays one card out needs neither svglib nor ReportLab's
graphics (about 0.1 s of imports); the same size, the same refusal; new bytes are read again."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazmorra.assets import icons, images

GOOD = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="12" viewBox="0 0 30 12">'
    '<rect x="1" y="1" width="28" height="10" fill="#336"/></svg>'
)
BROKEN = "hello, not a drawing"


@pytest.fixture
def memo_of(next_build):  # type: ignore[no-untyped-def]
    def forget() -> None:
        images._check.cache_clear()
        icons._load_svg.cache_clear()

    yield lambda: next_build(forget, images.use_memo)
    images._check.cache_clear()


def _no_svglib(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path) -> None:
        raise AssertionError(f"svglib asked to read {path}")

    monkeypatch.setattr(icons, "load_svg", refuse)


def test_a_picture_judged_before_is_judged_without_svglib(tmp_path: Path, memo_of, monkeypatch) -> None:
    svg = tmp_path / "banner.svg"
    svg.write_text(GOOD, encoding="utf-8")
    first = memo_of()
    cold = images.check(svg)
    assert cold == (22, 9)  # pt, as svglib gives them: 30 × 12 px at 0.75 pt a px, rounded
    assert first.written == 1

    _no_svglib(monkeypatch)
    second = memo_of()
    assert images.check(svg) == cold
    assert (second.read, second.written) == (1, 0)


def test_a_refused_picture_is_refused_again_with_the_same_words(tmp_path: Path, memo_of, monkeypatch) -> None:
    svg = tmp_path / "broken.svg"
    svg.write_text(BROKEN, encoding="utf-8")
    memo_of()
    with pytest.raises(images.ImageProblem) as cold:
        images.check(svg)
    assert "not a readable SVG" in str(cold.value)

    _no_svglib(monkeypatch)
    memo_of()
    with pytest.raises(images.ImageProblem) as kept:
        images.check(svg)
    assert str(kept.value) == str(cold.value)


def test_new_bytes_are_read_again(tmp_path: Path, memo_of, monkeypatch) -> None:
    svg = tmp_path / "banner.svg"
    svg.write_text(GOOD, encoding="utf-8")
    memo_of()
    assert images.check(svg) == (22, 9)
    svg.write_text(GOOD.replace('width="30"', 'width="40"'), encoding="utf-8")
    memo = memo_of()
    assert images.check(svg) == (30, 9)  # read by svglib: the kept size was for other bytes
    assert memo.written == 1


def test_without_a_memo_every_picture_is_read(tmp_path: Path, monkeypatch) -> None:
    svg = tmp_path / "banner.svg"
    svg.write_text(GOOD, encoding="utf-8")
    images.use_memo(None)
    images._check.cache_clear()
    _no_svglib(monkeypatch)
    with pytest.raises(images.ImageProblem, match="svglib asked"):
        images.check(svg)
