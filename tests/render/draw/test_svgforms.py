"""SVG icons' forms kept between builds (render/draw/svgforms.py): drawn once, replayed byte for byte,
never trusted when damaged or when they would need a resource."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import calls_of

from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.render.draw import svgforms


def _pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every SVG file the renderer parses (svglib), in order."""
    return calls_of(monkeypatch, svgforms, "load_svg", lambda path: path)  # type: ignore[return-value]


@pytest.mark.slow
def test_a_second_build_parses_no_svg_and_writes_the_same_bytes(
    pack_copy, monkeypatch: pytest.MonkeyPatch, parsed: list[Path]
) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("cripta")
    monkeypatch.chdir(pack.parents[1])
    root = pack.parents[1]
    build(pack, BuildOptions(langs=("es",), out_dir=root / "none", cache=False))
    assert parsed  # cripta's cards carry icons
    parsed.clear()
    build(pack, BuildOptions(langs=("es",), out_dir=root / "cached"))
    kept = sorted(p for p in (root / "cached/.cache/forms").rglob("*") if p.is_file())
    assert parsed and kept
    parsed.clear()
    shutil.rmtree(root / "cached/.cache/chunks")
    build(pack, BuildOptions(langs=("es",), out_dir=root / "cached"))
    assert parsed == []  # every icon's form from the cache
    assert _pdfs(root / "cached") == _pdfs(root / "none") != {}
    for n, entry in enumerate(kept):  # damaged every way: truncated, a byte changed
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] if n % 2 else data[:-1] + bytes([data[-1] ^ 1]))
    shutil.rmtree(root / "cached/.cache/chunks")  # else every page comes whole from the chunk cache, drawing no icon
    build(pack, BuildOptions(langs=("es",), out_dir=root / "cached"))
    assert len(parsed) >= len(kept)  # drawn again, never replayed from a damaged entry
    assert _pdfs(root / "cached") == _pdfs(root / "none")


def test_a_stream_naming_a_resource_is_neither_kept_nor_replayed(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    store = FaceCache(tmp_path / "forms", tmp_path / "scratch")
    with svgforms.using(store):
        svgforms.remember("plain", 10.0, 10.0, ["0 0 1 rg", "0 0 10 10 re f"])
        svgforms.remember("font", 10.0, 10.0, ["BT /F1 12 Tf (x) Tj ET"])
        assert store.get("font") is None and store.written == 1
        store.put("forged", (10.0, 10.0, ["/GS1 gs"]))  # as if written by another version
        canvas = Canvas(str(tmp_path / "x.pdf"))
        assert svgforms.replay(canvas, "f0", "forged") is None
        assert svgforms.replay(canvas, "f1", "plain") == (10.0, 10.0)
    assert svgforms.STORE == [] and svgforms.replay(canvas, "f2", "plain") is None  # only while rendering
