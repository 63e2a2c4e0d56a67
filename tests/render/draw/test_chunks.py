"""Issue 27, pages streamed to disk: a document drawn in chunks of pages (`render/draw/chunks.py`) and
merged is the same document as one drawn whole: every page's pixels and boxes, the
document information, the PDF/X output intent and XMP, deterministic bytes, `qpdf --check` clean,
and no two font subsets sharing a tag. Existing printing tests run again here on merged output."""

from __future__ import annotations

import os
import subprocess
import weakref
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from conftest import calls_of, have, run_cli, wait_until
from pypdf import PdfReader

# Tests of other modules that build their own output, run again in this module with one page a
# chunk (the autouse fixture below): duplex flips, the back offset, gutters and crop marks, fold
# and glue, a PDF/X sheets profile, a poster's tiles assembled back into the map.
from render.draw.test_cmyk import test_a_sheets_profile_in_cmyk_prints_the_sheets_in_cmyk  # noqa: F401
from render.impose.test_posters import test_a4_pages_assembled_by_their_coordinates_give_back_the_map  # noqa: F401
from render.impose.test_printing import (  # noqa: F401
    build,
    test_back_offset_moves_backs_by_the_given_millimetres,
    test_fold_page_has_each_back_opposite_its_front,
    test_gutter_marks_are_drawn_in_the_gutters_outside_every_bleed,
    test_long_edge_backs_mirror_columns,
    test_short_edge_backs_mirror_rows,
)

from mazmorra.render.draw.chunkmerge import retagged
from mazmorra.render.draw.chunks import chunk_pages

pytestmark = (
    pytest.mark.slow
)  # not in the fast tier: documents drawn twice (whole and in chunks), pages rendered to pixels


@pytest.fixture(autouse=True, scope="module")
def one_page_a_chunk() -> Iterator[None]:
    """Every build of this module draws one page a chunk (each document of 2+ pages is merged)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MAZMORRA_CHUNK_PAGES", "1")
        yield


def _build(out: Path, chunk: str, *args: str, cwd: Path | None = None) -> None:
    res = run_cli("build", *args, "--out", str(out), env={"MAZMORRA_CHUNK_PAGES": chunk}, cwd=cwd)
    assert res.returncode == 0, res.stdout + res.stderr


def _pixels(pdf: Path) -> list[bytes]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].render(scale=30 / 72).to_pil().convert("RGB").tobytes() for i in range(len(doc))]
    finally:
        doc.close()


def _boxes(pdf: Path) -> list[tuple[tuple[float, ...], ...]]:
    reader = PdfReader(str(pdf))
    return [
        tuple(tuple(round(float(v), 3) for v in page[box]) for box in ("/MediaBox", "/TrimBox", "/BleedBox"))
        for page in reader.pages
    ]


def _subset_tags_unique(pdf: Path) -> None:
    """Two different font objects never carry one name (a subset tag names one subset)."""
    with pikepdf.open(pdf) as doc:
        names: dict[str, tuple[int, int]] = {}
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj:
                name = str(obj.BaseFont)
                assert names.setdefault(name, obj.objgen) == obj.objgen, f"{pdf.name}: {name} twice"
        assert names


WHOLE = {"MAZMORRA_CHUNK_PAGES": "1000"}
CASES = {
    "tricks": ("expedicion", "-d", "artimanas"),  # 28 pages, duplex long edge, crop marks
    "short-edge-cut-lines": ("expedicion", "-d", "maldiciones", "--duplex", "short", "--cut-lines"),
    "fold": ("expedicion", "-d", "maldiciones", "--layout", "fold"),
    "greyscale-rounded": ("engranajes", "-d", "cartas", "--greyscale"),
    "poster": ("generada", "-d", "mapas"),  # 19 tiles labelled together, 5 blank ones left out
}


@pytest.mark.parametrize("case", list(CASES))
def test_merged_chunks_are_the_document_drawn_whole(case: str, tmp_path: Path) -> None:
    args = (*CASES[case], "--lang", "es")
    _build(tmp_path / "whole", "1000", *args)
    _build(tmp_path / "one", "1", *args)
    _build(tmp_path / "three", "3", *args)
    (whole,) = (tmp_path / "whole").rglob("*.pdf")
    rel = whole.relative_to(tmp_path / "whole")
    assert b"ReportLab" in whole.read_bytes()[-400:]  # one chunk: written by ReportLab itself, no merge
    for chunked in (tmp_path / "one" / rel, tmp_path / "three" / rel):
        assert len(PdfReader(str(whole)).pages) > 3
        assert _boxes(chunked) == _boxes(whole)
        assert _pixels(chunked) == _pixels(whole)
        meta, merged = PdfReader(str(whole)), PdfReader(str(chunked))
        assert merged.metadata == meta.metadata  # title, author, subject, creator, fixed dates
        assert merged.trailer["/Root"]["/Lang"] == meta.trailer["/Root"]["/Lang"] == "es"
        _subset_tags_unique(chunked)
        if have("qpdf"):
            check = subprocess.run(["qpdf", "--check", str(chunked)], capture_output=True, text=True)
            assert check.returncode == 0 and "No syntax or stream encoding errors" in check.stdout, check.stdout
    _build(tmp_path / "again", "1", *args)  # merged bytes are deterministic
    assert (tmp_path / "again" / rel).read_bytes() == (tmp_path / "one" / rel).read_bytes()


def test_a_pdfx_sheets_profile_keeps_its_output_intent_and_xmp_once_merged(pack_copy, tmp_path: Path) -> None:
    pack = pack_copy("expedicion")
    (pack / "printers").mkdir()
    (pack / "printers" / "sheets-x4.yaml").write_text(
        "name: Sheets X-4\nextends: home-a4\npdf: PDF/X-4\ncolour:\n  space: cmyk\n  icc: swop-tr005-240\n",
        encoding="utf-8",
    )
    args = ("expedicion", "--printer", "sheets-x4", "-d", "artimanas", "--lang", "en")
    _build(tmp_path / "whole", "1000", *args, cwd=pack.parents[1])
    _build(tmp_path / "merged", "4", *args, cwd=pack.parents[1])
    whole, merged = (tmp_path / d / "expedicion" / "en" / "tricks.pdf" for d in ("whole", "merged"))
    assert merged.read_bytes().startswith(b"%PDF-1.6")
    a, b = PdfReader(str(whole)), PdfReader(str(merged))
    assert b.metadata == a.metadata and b.metadata is not None
    assert b.metadata["/GTS_PDFXVersion"] == "PDF/X-4" and b.metadata["/Trapped"] == "/False"
    (intent,) = b.trailer["/Root"]["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 005"
    assert intent["/DestOutputProfile"].get_object().get_data()[36:40] == b"acsp"  # the ICC profile itself
    xmp = b.trailer["/Root"]["/Metadata"].get_object().get_data()
    assert xmp == a.trailer["/Root"]["/Metadata"].get_object().get_data()
    assert _boxes(merged) == _boxes(whole)
    assert _pixels(merged) == _pixels(whole)


def test_a_chunk_tags_its_font_subsets_again() -> None:
    assert retagged(b"QWERTY", 0) == b"/QWERTY+"
    assert retagged(b"QWERTY", 2) != retagged(b"QWERTY", 3) != b"/QWERTY+"
    assert retagged(b"QWERTY", 2) == retagged(b"QWERTY", 2) and len(retagged(b"QWERTY", 2)) == 8


def test_chunk_size_from_the_environment() -> None:
    assert chunk_pages({}) == 64
    assert chunk_pages({"MAZMORRA_CHUNK_PAGES": "2"}) == 2
    assert chunk_pages({"MAZMORRA_CHUNK_PAGES": "0"}) == 1
    assert chunk_pages({"MAZMORRA_CHUNK_PAGES": "many"}) == 64


def test_no_chunk_file_is_left_in_the_scratch_folder(tmp_path: Path) -> None:
    _build(tmp_path / "out", "1", "expedicion", "-d", "maldiciones", "--lang", "en")
    assert not (tmp_path / ".mazmorra-tmp").exists() or not any((tmp_path / ".mazmorra-tmp").iterdir())
    assert [p.name for p in (tmp_path / "out").rglob("*.pdf")] == ["curses.pdf"]


# ---------------------------------------------------------------- the chunk cache


def _tricks(project: Path, out: str, chunk: str = "4", *more: str, env: dict[str, str] | None = None) -> list[tuple]:
    """Build the expedition's tricks (28 pages a language: 7 chunks of 4) in both languages; the
    chunks this build drew, as (title, language, chunk)."""
    from mazmorra.render.draw import chunks

    chunks.DRAWN.clear()
    res = run_cli(
        "build",
        "expedicion",
        "-d",
        "artimanas",
        "--out",
        out,
        *more,
        env={"MAZMORRA_CHUNK_PAGES": chunk, **(env or {})},
        cwd=project,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    return sorted(chunks.DRAWN)


def _pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def _edit_one_card(pack: Path) -> None:
    deck = pack / "decks" / "artimanas.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "  centre_value: 4\n" in text
    deck.write_text(text.replace("  centre_value: 4\n", "  centre_value: 5\n", 1), encoding="utf-8")


def test_after_one_card_edit_exactly_one_chunk_a_language_is_drawn(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    assert len(_tricks(project, "output")) == 14  # 7 chunks × es, en
    _edit_one_card(pack)
    drawn = _tricks(project, "output", "4", "--changed-only")
    assert sorted(lang for _, lang, _ in drawn) == ["en", "es"]  # one chunk a language
    assert drawn[0][2] == drawn[1][2]  # the same card's pages in both
    # the same bytes as a build without any cache (MAZMORRA_FACE_CACHE=0: no face or chunk cache),
    # and as one drawn whole (C large)
    assert len(_tricks(project, "plain", "4", env={"MAZMORRA_FACE_CACHE": "0"})) == 14
    assert _pdfs(project / "output") == _pdfs(project / "plain")
    _tricks(project, "plain-whole", "1000", env={"MAZMORRA_FACE_CACHE": "0"})
    _tricks(project, "whole", "1000")
    assert _pdfs(project / "whole") == _pdfs(project / "plain-whole")


def test_a_damaged_chunk_entry_is_drawn_again_never_used(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    _tricks(project, "output")
    before = _pdfs(project / "output")
    entries = sorted(p for p in (project / "output" / ".cache" / "chunks").rglob("*") if p.is_file())
    assert len(entries) == 14
    for i, entry in enumerate(entries):
        data = bytearray(entry.read_bytes())
        if i % 3 == 0:
            entry.write_bytes(bytes(data[: len(data) // 2]))  # truncated
        elif i % 3 == 1:
            data[len(data) // 2] ^= 0x55  # one byte changed inside the PDF
            entry.write_bytes(bytes(data))
        else:
            entry.write_bytes(b"")
    for pdf in (project / "output").rglob("*.pdf"):
        pdf.unlink()
    assert len(_tricks(project, "output")) == 14  # every chunk drawn again
    assert _pdfs(project / "output") == before
    assert not _tricks(project, "output")  # and stored anew: the next build draws none


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see a stopped process")
def test_a_build_killed_mid_chunk_leaves_nothing_half_written(pack_copy) -> None:
    import os
    import sys

    from mazmorra.layout.cache.facecache import FaceCache

    pack = pack_copy("expedicion")
    project = pack.parents[1]
    env = dict(os.environ, CI="1", MAZMORRA_JOBS="1", MAZMORRA_STOP_AT="chunk", MAZMORRA_CHUNK_PAGES="4")
    cmd = [sys.executable, "-m", "mazmorra", "build", "expedicion", "-d", "artimanas", "--lang", "es"]
    proc = subprocess.Popen(cmd, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stopped() -> bool:  # it has stopped itself (SIGSTOP) at its first chunk: its state in /proc is T
        return Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"

    try:
        wait_until(lambda: proc.poll() is not None or stopped(), "the build to stop at its first chunk")
        assert proc.poll() is None, "the build ended before its first chunk was written"
    finally:
        proc.kill()
        proc.wait()
    out = project / "output"
    assert not list(out.rglob("*.pdf"))  # no deck's PDF, whole or half
    parts = [p for p in (project / ".mazmorra-tmp").iterdir()]
    assert parts and all(p.name.startswith(".mazmorra-tmp-") for p in parts)  # the chunk written: hidden, swept
    store = FaceCache(out / ".cache" / "chunks", project / ".mazmorra-tmp")
    entries = [p for p in store.root.rglob("*") if p.is_file()]
    assert len(entries) == 1  # the chunk drawn before the kill: whole, and read back as it was stored
    assert store.get(entries[0].parent.name + entries[0].name) is not None and store.damaged == 0
    drawn = _tricks(project, "output", "4", "--lang", "es")  # the next build: the kept chunk taken, the rest drawn
    assert len(drawn) == 6 and all(n != 0 for _, _, n in drawn)
    assert len(_pdfs(out)) == 1
    _tricks(project, "plain", "4", "--lang", "es", env={"MAZMORRA_FACE_CACHE": "0"})
    assert _pdfs(out) == _pdfs(project / "plain")


def test_the_chunk_cache_keeps_within_the_cache_bound(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    assert len(_tricks(project, "output", "4", env={"MAZMORRA_FACE_CACHE_MB": "0.2"})) == 14
    sizes = [p.stat().st_size for p in (project / "output" / ".cache" / "chunks").rglob("*") if p.is_file()]
    assert 0 < len(sizes) < 14 and sum(sizes) <= 0.2 * 1024 * 1024  # the least recently used dropped


def test_the_merge_holds_one_chunk_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamed: each chunk is let go before the next is read (memory does not grow with pages)."""
    from mazmorra.render.draw import chunkmerge

    parts = []
    for n in range(3):
        out = str(tmp_path / f"o{n}")
        res = run_cli("build", "expedicion", "-d", "maldiciones", "--lang", "es", "--out", out, env=WHOLE)
        assert res.returncode == 0, res.stderr
        parts.append(tmp_path / f"o{n}" / "expedicion" / "es" / "maldiciones.pdf")  # one chunk each, as drawn
    alive: weakref.WeakSet[object] = weakref.WeakSet()
    most = [0]
    real = chunkmerge._Chunk.__init__

    def counted(self: object, *args: object) -> None:
        alive.add(self)
        most[0] = max(most[0], len(alive))
        real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(chunkmerge._Chunk, "__init__", counted)
    chunkmerge.merge(parts, tmp_path / "merged.pdf")
    assert most[0] == 1
    monkeypatch.undo()
    assert len(PdfReader(str(tmp_path / "merged.pdf")).pages) == 3 * len(PdfReader(str(parts[0])).pages)
    assert _pixels(tmp_path / "merged.pdf") == _pixels(parts[0]) * 3
    _subset_tags_unique(tmp_path / "merged.pdf")


@pytest.mark.parametrize("options", [("--duplex", "short"), ("--greyscale",), ("--no-crop-marks", "--cut-lines")])
def test_a_chunk_is_never_taken_for_other_sheet_options(pack_copy, options: tuple[str, ...]) -> None:
    """The same faces on other sheets (flip edge, look, marks) are other chunks: every one drawn again,
    and the same bytes as a build without any cache."""
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    assert len(_tricks(project, "output")) == 14
    assert len(_tricks(project, "output", "4", *options)) == 14
    _tricks(project, "plain", "4", *options, env={"MAZMORRA_FACE_CACHE": "0"})
    assert _pdfs(project / "output") == _pdfs(project / "plain")
    assert not _tricks(project, "output", "4", *options)  # and kept: the same options again draw none


def test_a_chunk_not_as_reportlab_writes_it_is_refused_by_name(tmp_path: Path) -> None:
    """The merge reads only ReportLab's own form: another file (here one qpdf rewrote with object
    streams, one cut short, one not a PDF) stops it with the chunk's name, never a wrong document."""
    from mazmorra.render.draw.chunkmerge import ChunkError, merge

    res = run_cli("build", "expedicion", "-d", "maldiciones", "--lang", "es", "--out", str(tmp_path / "o"), env=WHOLE)
    assert res.returncode == 0, res.stderr
    good = tmp_path / "o" / "expedicion" / "es" / "maldiciones.pdf"
    packed = tmp_path / "packed.pdf"
    with pikepdf.open(good) as pdf:
        pdf.save(packed, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    text = tmp_path / "text.pdf"
    text.write_text("not a PDF", encoding="utf-8")
    for bad in (packed, cut, text):
        with pytest.raises(ChunkError, match=bad.name):
            merge([good, bad], tmp_path / "merged.pdf")


def test_chunks_drawn_aside_by_spare_jobs_are_the_same_bytes_and_kept(pack_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """One document with a job to spare (`-j 2`, one language): a chunk is drawn by a forked drawer
    while the build lays out the next (or draws it, if the drawer is still busy); the same bytes and
    the same chunks as one process."""
    from mazmorra.render.draw import chunks

    project = pack_copy("expedicion").parents[1]
    alone = _tricks(project, "one", "4", "-l", "es")
    forked = calls_of(monkeypatch, chunks._Drawer, "start", lambda *a: a[3].name)
    aside = _tricks(project, "two", "4", "-l", "es", "-j", "2")
    assert len(alone) == 7 and aside == alone  # each chunk drawn once, noted by the build as its drawer drew it
    assert 1 <= len(forked) <= 7, forked  # the first aside; a chunk completed while the drawer is busy, here
    assert _pdfs(project / "one") == _pdfs(project / "two") != {}
    assert not _tricks(project, "two", "4", "-l", "es", "-j", "2")  # the drawers kept them in the chunk cache


def test_a_drawer_that_fails_is_drawn_again_by_the_build(pack_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from mazmorra.render.draw import chunks

    project = pack_copy("expedicion").parents[1]
    alone = _tricks(project, "one", "4", "-l", "es")
    parent, real = os.getpid(), chunks.ChunkedPages._draw

    def failing(self, pending, chunk):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            raise RuntimeError("a drawer's bug")
        return real(self, pending, chunk)

    monkeypatch.setattr(chunks.ChunkedPages, "_draw", failing)
    assert _tricks(project, "two", "4", "-l", "es", "-j", "2") == alone  # every chunk drawn here instead
    assert _pdfs(project / "one") == _pdfs(project / "two")


def test_a_refused_fork_draws_every_chunk_in_the_build(pack_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from mazmorra.render.draw import chunks

    project = pack_copy("expedicion").parents[1]
    alone = _tricks(project, "one", "4", "-l", "es")

    def no(*args: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(chunks.os, "fork", no)
    assert _tricks(project, "two", "4", "-l", "es", "-j", "2") == alone
    assert _pdfs(project / "one") == _pdfs(project / "two")
