"""The face cache (layout/cache/facecache.py): what a build lays out again, and what it never trusts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import edit, laid_out, pdf_text, run_cli

from mazmorra.build.pipeline import BuildOptions, BuildResult, build
from mazmorra.contracts import Face, TextOp
from mazmorra.errors import ContentError, Loc, Problem, Severity
from mazmorra.layout.cache import facecache, facepacks
from mazmorra.layout.cache.facecache import FaceCache, cache_dir
from mazmorra.layout.cache.opcodec import decode, encode


def _build(pack: Path, *langs: str, cache: bool = True, out: str = "output") -> BuildResult:
    opts = BuildOptions(langs=langs or None, out_dir=pack.parents[1] / out, cache=cache)
    return build(pack, opts)


def _pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def _entries(out: Path) -> list[Path]:
    """The pack files of an output folder's face cache (or of a cache folder's `faces/`)."""
    return sorted(p for p in (out / "faces" if (out / "faces").is_dir() else cache_dir(out)).rglob("*") if p.is_file())


@pytest.fixture
def here(pack_copy, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A copy of muestras, the working folder its project (problems name files relative to it)."""

    def make(name: str = "muestras") -> Path:
        pack: Path = pack_copy(name)
        monkeypatch.chdir(pack.parents[1])
        return pack

    return make


@pytest.mark.slow
def test_nothing_changed_lays_out_nothing_and_one_edit_exactly_that_cards_faces(here) -> None:  # type: ignore[no-untyped-def]
    pack = here()
    first = _build(pack)
    faces = ["deck:cartas/back", "cofre-olvidado/front", "fogata-del-claustro/front", "ojo-del-vigia/front"]
    assert sorted(first.laid_out) == sorted(f"{lang}/{face}" for lang in ("es", "en") for face in faces)  # each once
    assert _build(pack).laid_out == []
    edit(pack / "decks/cartas.yaml", "  icon: coin\n", "  icon: chest\n")  # cofre-olvidado, in both languages
    again = _build(pack)
    assert sorted(again.laid_out) == ["en/cofre-olvidado/front", "es/cofre-olvidado/front"]
    edit(pack / "decks/cartas.yaml", "ganas 2 {coin}", "ganas 1 {coin}")  # its Spanish text only
    assert _build(pack, "es").laid_out == ["es/cofre-olvidado/front"]
    res = run_cli("build", "muestras", "--lang", "es", cwd=pack.parents[1])  # the command says so too
    assert res.returncode == 0 and "8 faces (0 laid out, the others from the face cache)" in res.stderr


@pytest.mark.slow
def test_a_face_that_reads_another_component_is_laid_out_again_when_that_one_changes(here) -> None:  # type: ignore[no-untyped-def]
    pack = here("cripta")  # an enemy die prints the enemies on its faces: components.get(id) in its template
    _build(pack, "es")
    edit(pack / "decks/enemigos.yaml", "  defence: -1\n", "  defence: 0\n")  # the first: rata-osario
    laid = _build(pack, "es").laid_out
    assert {face.split("/")[1] for face in laid} == {"rata-osario", "dado-cripta"}, laid  # not dado-hondo


@pytest.mark.slow
def test_outputs_are_byte_identical_with_and_without_the_cache(here) -> None:  # type: ignore[no-untyped-def]
    pack = here("cripta")
    cold = _build(pack, out="cold")
    warm = _build(pack, out="cold")  # the same folder again: every face from its cache
    none = _build(pack, cache=False, out="none")
    assert warm.laid_out == [] and cold.laid_out and len(none.laid_out) == len(cold.laid_out)
    assert not (pack.parents[1] / "none" / ".cache").exists()
    assert _pdfs(pack.parents[1] / "cold") == _pdfs(pack.parents[1] / "none") != {}
    assert [p.format() for p in warm.warnings] == [p.format() for p in none.warnings]


def test_a_cached_problem_reads_the_line_its_text_stands_on_now(here) -> None:  # type: ignore[no-untyped-def]
    pack = here()
    po = pack / "locale/en.po"
    text = po.read_text(encoding="utf-8")
    at = text.index('msgstr "', text.index('msgctxt "cofre-olvidado.text"')) + len('msgstr "')
    po.write_text(text[:at] + "Lose again. " * 60 + text[at:], encoding="utf-8")
    with pytest.raises(ContentError) as first:
        _build(pack, "en")
    line = next(p.loc.line for p in first.value.problems if p.rule == "text.overflow" and p.loc)
    po.write_text("# moved two lines down\n#\n" + po.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ContentError) as again:
        _build(pack, "en")
    found = [p for p in again.value.problems if p.rule == "text.overflow"]
    assert [(p.component, p.loc) for p in found] == [
        ("cofre-olvidado", Loc("content/muestras/locale/en.po", line + 2, 1))
    ]
    assert _entries(pack.parents[1] / "output")  # the faces a failed build laid out are kept


def _records(path: Path) -> list[tuple[bytes, int, int, bytes]]:
    return facepacks.entries(str(path))


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "swap", "garbage"])
def test_a_damaged_entry_is_laid_out_again_never_trusted(here, damage: str) -> None:  # type: ignore[no-untyped-def]
    pack = here()
    out = pack.parents[1] / "output"
    _build(pack)
    good = _pdfs(out)
    [path] = _entries(out)  # one process, one pack file
    records = _records(path)
    data = bytearray(path.read_bytes())
    hurt = records[1::3]
    if damage == "truncate":  # a build killed in the middle of its third record: the rest is cut off
        hurt = records[2:]
        data = data[: hurt[0][1] + 10]
    elif damage == "flip":  # one byte of a payload: its hash no longer matches
        for _, offset, length, _ in hurt:
            data[offset + length // 2] ^= 0xFF
    elif damage == "empty":
        hurt, data = records, bytearray()
    elif damage == "swap":  # a record that names another face's key: its hash no longer matches
        hurt = hurt[: len(records[2::3])]
        for (key, offset, _, _), (other, _, _, _) in zip(hurt, records[2::3]):
            data[offset - len(key) : offset] = other
    else:
        hurt, data = records, bytearray(os.urandom(len(data)))
    path.write_bytes(bytes(data))
    for pdf in out.rglob("*.pdf"):
        pdf.unlink()
    facecache.drop_views()  # the next build is another process
    res = _build(pack)
    assert len(res.laid_out) == len(hurt) > 0
    assert _pdfs(out) == good
    [new] = [p for p in _entries(out) if p != path]  # laid out again and stored whole, in that build's own file
    assert len(_records(new)) == len(hurt)
    assert _build(pack).laid_out == []
    facecache.drop_views()
    assert _build(pack).laid_out == []


def test_a_record_still_being_written_is_read_once_whole(tmp_path: Path) -> None:
    """Another process's pack file is read while it appends: a record cut short is not read (a
    miss), and is found whole once this process looks again."""
    writer = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    writer.put("aa" * 32, encode(("first",)))
    [path] = _entries(tmp_path)
    whole = facepacks.record(("bb" * 32).encode(), b"\xe9" + b"x" * 40)
    with open(path, "ab") as fh:
        fh.write(whole[:30])  # as if the other process were in the middle of its write
    facecache.drop_views()  # another process
    reader = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert decode(reader.get("aa" * 32)) == ("first",)
    assert reader.get("bb" * 32) is None and reader.damaged == 0
    with open(path, "ab") as fh:
        fh.write(whole[30:])
    again = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)  # the next build in that process
    assert again.get("bb" * 32) is not None


def test_a_forked_worker_stores_in_a_file_of_its_own(tmp_path: Path) -> None:
    import multiprocessing

    cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    cache.put("aa" * 32, encode(("parent",)))

    def child() -> None:
        cache.put("bb" * 32, encode(("child",)))
        cache.put("aa" * 32, encode(("parent",)))

    proc = multiprocessing.get_context("fork").Process(target=child)
    proc.start()
    proc.join()
    cache.put("cc" * 32, encode(("parent again",)))
    assert proc.exitcode == 0 and len(_entries(tmp_path)) == 2
    facecache.drop_views()
    fresh = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert [decode(fresh.get(k * 32)) for k in ("aa", "bb", "cc")] == [("parent",), ("child",), ("parent again",)]
    assert fresh.damaged == 0


def test_the_live_preview_keeps_entries_in_memory_too(tmp_path: Path) -> None:
    kept = FaceCache.for_output(tmp_path / "output", tmp_path / "faces")
    assert kept is not None and kept.memory
    kept.put("cd" * 32, ("a", 1))
    for path in kept.root.rglob("*"):
        if path.is_file():
            path.write_bytes(b"damaged")
    assert kept.get("cd" * 32) == ("a", 1)  # what this process wrote, as it wrote it
    disk = FaceCache.for_output(tmp_path / "output")
    assert disk is not None and not disk.memory and disk.root == cache_dir(tmp_path / "output")


def test_a_stored_value_of_the_wrong_shape_is_a_miss(tmp_path: Path) -> None:
    cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    cache.put("ab" * 32, ("\0dc", "os", "system", "rm"))  # a class no face is made of
    face = Face("x", "front", 10, 10, 0, ())
    none: dict[str, object] = {}
    got = facecache.through(cache, "ab" * 32, lambda f: None, none, str, lambda at, seen: (face, [], None, ("Bag",)))
    assert got == (face, [], None, ("Bag",), True) and cache.damaged == 1
    again = facecache.through(cache, "ab" * 32, lambda f: None, none, str, lambda at, seen: (None, [], None, ()))
    assert again == (face, [], None, ("Bag",), False)  # the labels it missed come back with the stored face


@pytest.mark.slow
def test_every_face_of_a_sample_round_trips_through_the_tuple_encoding() -> None:
    from conftest import CONTENT

    faces = [f for fs in laid_out(CONTENT / "cripta", "losetas").values() for f in fs]
    faces += [f for fs in laid_out(CONTENT / "engranajes", "salas").values() for f in fs]
    assert faces
    for face in faces:
        assert decode(encode(face)) == face
    where = Loc("content/p/decks/d.yaml", 7, 3)
    problem = Problem("text.overflow", "too long", where, "c", "text", Severity.WARNING, "en", once=True)
    stored = encode((problem, ("\0dc", 1), [TextOp(1, 2, "a", "sans", 8, "#000")]), {where: "text"})
    back = decode(stored, lambda f: Loc("content/p/decks/d.yaml", 9, 3) if f == "text" else None)
    assert back[0].loc.line == 9 and back[0].once and back[0].severity is Severity.WARNING
    assert back[1:] == (("\0dc", 1), [TextOp(1, 2, "a", "sans", 8, "#000")])


def test_the_cache_stays_within_its_bound_least_recently_used_first(tmp_path: Path) -> None:
    for i in range(30):  # 30 builds, each storing one entry in a pack file of its own
        facecache.drop_views()
        cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", limit=40_000, packed=True)
        cache.put(f"{i:064x}", "x" * 2_000)
        [path] = [p for p in _entries(tmp_path) if not p.name.endswith("old")]
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # used one second apart
        path.rename(path.with_name(f"{i:02d}-{path.name}.old"))
    for path in _entries(tmp_path):
        path.rename(path.with_name(path.name.removesuffix(".old")))
    assert cache.trim() > 0
    files = _entries(tmp_path)
    assert sum(p.stat().st_size for p in files) <= 40_000 * 0.8
    left = sorted(int(p.name[:2]) for p in files)
    assert left == list(range(30 - len(left), 30))  # the newest kept
    facecache.drop_views()
    fresh = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert [fresh.get(f"{i:064x}") is not None for i in range(30)] == [i in left for i in range(30)]
    assert not list((tmp_path / "scratch").glob("*"))  # nothing left half-written


def test_the_stores_of_one_cache_folder_share_one_bound_oldest_first_whichever_store(tmp_path: Path) -> None:
    cache = tmp_path / ".cache"
    used = {}
    for i in range(24):  # 24 builds, storing alternately into the face, chunk and checks stores
        store = ("faces", "chunks", "checks")[i % 3]
        facecache.drop_views()
        FaceCache(cache / store, tmp_path / "scratch", packed=True).put(f"{i:064x}", "x" * 2_000)
        [path] = [p for p in (cache / store).glob("*") if p not in used.values()]
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
        used[i] = path
    facecache.drop_views()
    chunks = FaceCache(cache / "chunks", tmp_path / "scratch", packed=True)
    assert chunks.get(f"{22:064x}") is not None  # this process has the chunk store open
    faces = FaceCache(cache / "faces", tmp_path / "scratch", limit=30_000, packed=True)
    assert faces.trim() > 0  # the face store's trim bounds the whole folder, not its own third of it
    left = sorted(i for i, path in used.items() if path.exists())
    assert sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()) <= 30_000 * 0.8
    assert left == list(range(24 - len(left), 24)) and len(left) < 24  # the newest kept, whichever store
    assert {i % 3 for i in left} == {0, 1, 2}
    assert chunks.get(f"{22:064x}") is not None and chunks.get(f"{1:064x}") is None  # the open view was told
    assert not list((tmp_path / "scratch").glob("*"))


def test_too_many_pack_files_are_merged_into_one_keeping_every_whole_entry(tmp_path: Path) -> None:
    n = facepacks.MAX_FILES + 3
    for i in range(n):  # as many builds, each laying out one face (one card edited at a time)
        facecache.drop_views()
        FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True).put(f"{i:064x}", encode((f"face {i}",)))
    facecache.drop_views()
    FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True).put(
        f"{0:064x}", encode(("face 0",))
    )  # stored twice
    damaged = next(p for p in _entries(tmp_path) if _records(p)[0][0] != f"{0:064x}".encode())
    data = bytearray(damaged.read_bytes())
    data[-3] ^= 0xFF
    damaged.write_bytes(bytes(data))
    [(key, _, _, _)] = _records(damaged)
    cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert cache.trim() == 2  # the damaged record and the older copy of face 0
    if Path("/proc/self/fd").is_dir():  # the merged files are closed, not kept open by this process
        held = []
        for fd in Path("/proc/self/fd").iterdir():
            try:
                held.append(os.readlink(fd))
            except OSError:  # the listing's own descriptor, closed since
                pass
        assert not [p for p in held if str(tmp_path) in p and p.endswith("(deleted)")]
    [merged] = _entries(tmp_path)
    assert len(_records(merged)) == n - 1
    facecache.drop_views()
    fresh = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    for i in range(n):
        k = f"{i:064x}"
        assert (decode(fresh.get(k)) if k.encode() != key else fresh.get(k)) == (
            (f"face {i}",) if k.encode() != key else None
        )
    assert fresh.damaged == 0 and not list((tmp_path / "scratch").glob("*"))


def test_turned_off_by_the_environment(here, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    pack = here()
    monkeypatch.setenv("MAZMORRA_FACE_CACHE", "0")
    assert _build(pack).laid_out and _build(pack).laid_out
    assert not (pack.parents[1] / "output" / ".cache").exists()
    assert "Forgotten Chest" in pdf_text(pack.parents[1] / "output/muestras/en/loose-cards.pdf")


def test_builds_writing_the_same_entries_at_once_leave_every_entry_whole(tmp_path: Path) -> None:
    """Four processes store the same 200 faces at the same time (two builds of one pack do): every
    entry reads back whole, and nothing is left in the scratch folder."""
    import multiprocessing

    faces = [Face(f"c{i}", "front", 63, 88, 3, (TextOp(1, 2, "x" * (i % 50), "sans", 8, "#000"),)) for i in range(200)]
    keys = [f"{i:02x}" * 32 for i in range(200)]

    def write() -> None:
        cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
        for k, face in zip(keys, faces):
            cache.put(k, encode(face))

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=write) for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    assert all(proc.exitcode == 0 for proc in procs)
    cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert [decode(cache.get(k)) for k in keys] == faces and cache.damaged == 0
    assert len(_entries(tmp_path)) == 4  # one pack file each, appended to
    assert not (tmp_path / "scratch").exists()  # nothing written elsewhere first


def test_what_a_template_reads_is_kept_and_follows_its_source(tmp_path: Path) -> None:
    """`Templates.uses` (does a deck's template read `copy`? `components`?) is parsed once per source
    and kept in the cache folder: a template edited to read it is seen at once, and a kept answer of
    the wrong shape is parsed again rather than trusted."""
    from mazmorra.layout import templates as tpl
    from mazmorra.layout.templates import Templates

    pack = tmp_path / "p"
    (pack / "templates").mkdir(parents=True)
    card = pack / "templates" / "c.xml.j2"
    card.write_text("<card>{{ w }}</card>", encoding="utf-8")
    disk = FaceCache(tmp_path / "cache" / "templates", tmp_path / "scratch")

    def fresh() -> Templates:  # another process: nothing in memory, the cache folder kept
        tpl._UNDECLARED.clear()
        return Templates(pack, tmp_path / "none", disk)

    assert not fresh().uses(["c.xml.j2"], "copy") and disk.written >= 1
    hits = disk.hits
    assert not fresh().uses(["c.xml.j2"], "copy") and disk.hits > hits  # from the cache folder
    card.write_text("<card>{{ copy }}</card>", encoding="utf-8")
    assert fresh().uses(["c.xml.j2"], "copy")  # another source: another key
    for entry in (tmp_path / "cache" / "templates").rglob("*"):
        if entry.is_file():
            found = entry.read_bytes()
            entry.write_bytes(found[:-3])  # damaged: a miss, parsed again
    assert fresh().uses(["c.xml.j2"], "copy")
    card.write_text("<card>{{ w }}</card>", encoding="utf-8")
    tpl._UNDECLARED.clear()
    t = Templates(pack, tmp_path / "none", disk)
    source, filename, _ = t.loader.get_source(t.env, "c.xml.j2")
    disk.put(facecache.key(facecache.tool_hash(), "undeclared", filename, source), "copy")  # not a list of names
    assert not t.uses(["c.xml.j2"], "copy")  # "copy" is a string holding the name, not a list of names


def test_entries_of_the_one_file_per_face_layout_are_removed_by_the_next_trim(tmp_path: Path) -> None:
    old = tmp_path / "faces" / "ab"
    old.mkdir(parents=True)
    (old / ("cd" * 31)).write_bytes(b"MZFACE01" + b"\0" * 40)  # as earlier versions stored a face
    cache = FaceCache(tmp_path / "faces", tmp_path / "scratch", packed=True)
    assert cache.get("ab" + "cd" * 31) is None  # never read
    cache.put("ef" * 32, encode(("kept",)))
    cache.trim()
    assert not old.exists() and [p.suffix for p in _entries(tmp_path)] == [".mzp"]
    assert decode(cache.get("ef" * 32)) == ("kept",)


def test_a_face_read_back_decodes_its_ops_only_when_they_are_read() -> None:
    """A chunk of pages taken from the chunk cache never draws its faces: their ops stay encoded
    until read, then are decoded once; equality, copies and pickling see the whole face."""
    import copy
    import pickle
    from dataclasses import replace

    face = Face("c", "front", 63, 88, 3, (TextOp(1, 2, "a", "sans", 8, "#000"),), background="#fff")
    calls: list[object] = []

    def counting(value: object) -> object:
        calls.append(value)
        return decode(value)

    back = decode(encode(face))
    assert back.lazy_ops is not None and back.component == "c" and back.background == "#fff"
    lazy = decode(encode(face))
    object.__setattr__(lazy, "lazy_ops", lambda: counting(encode(face.ops)))
    assert calls == []  # nothing decoded yet
    assert lazy.ops == face.ops and lazy.lazy_ops is None and len(calls) == 1
    assert lazy.ops == face.ops and len(calls) == 1  # kept, not decoded again
    assert back == face and hash(back) == hash(face)  # compares its ops (decoding them)
    for again in (pickle.loads(pickle.dumps(decode(encode(face)))), copy.deepcopy(decode(encode(face)))):
        assert again == face and again.lazy_ops is None
    assert replace(decode(encode(face)), side="back").ops == face.ops
    with pytest.raises(AttributeError):
        _ = face.nothing  # type: ignore[attr-defined]
