"""A long document drawn in chunks of pages, each its own small PDF, then merged into one.

ReportLab holds a whole document until it is saved; a 500-page deck drawn in chunks of `C` pages
holds one chunk at a time, and each chunk is written to the build's scratch folder as soon as it is
full, then merged (render/draw/chunkmerge.py: one chunk read at a time). A document of one chunk is
written exactly as before, not merged: small decks and golden files do not move. Chunks are kept in
the chunk cache (`ChunkedPages`), so a build draws only those whose pages changed. With a job to
spare (`build -j` with more jobs than documents), a chunk is drawn by a forked drawer while the
build lays out the next one (`_Drawer`): a chunk is drawn on a canvas of its own, so its bytes are
the same whoever draws it.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.layout.cache import facecache
from mazmorra.render.draw.chunkmerge import merge
from mazmorra.render.draw.pdfpages import PdfPages
from mazmorra.support import workers
from mazmorra.support.atomic import stop_point, temp_path

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Item, Op, Page
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.printers.cmyk import CmykOutput
    from mazmorra.render.draw.inks import SheetLook
    from mazmorra.render.draw.pdfpages import DocMeta, _Copy

DEFAULT_PAGES = 64  # pages a chunk: measured by bench/chunks.py (README: long decks)


def chunk_pages(env: dict[str, str] | None = None) -> int:
    """Pages a chunk holds: MAZMORRA_CHUNK_PAGES (at least 1; tests force tiny chunks on small
    packs), else DEFAULT_PAGES."""
    value = (env if env is not None else os.environ).get("MAZMORRA_CHUNK_PAGES", "").strip()
    return max(1, int(value)) if value.isdigit() else DEFAULT_PAGES


def chunk_store() -> FaceCache | None:
    """The build's chunk cache, `<out>/.cache/chunks/` beside its face cache (None when the build
    keeps none: MAZMORRA_FACE_CACHE=0). Never kept in memory, even by the live preview's process."""
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.render.draw import svgforms

    if not svgforms.STORE:  # the build's own store while it renders (pipeline: `svgforms.using`)
        return None
    faces = svgforms.STORE[-1]
    return FaceCache(faces.root.parent / "chunks", faces.scratch, faces.limit)


_Pending = tuple[int, "Page", dict[int, "_Copy"], tuple["Op", ...]]  # a page waiting for its chunk


@dataclass(frozen=True)
class Chunking:
    """How a document is cut into chunks: `pages` pages of the imposition's plan each, each chunk's
    file written in `scratch` until the merge, kept in `store` (the chunk cache, `<out>/.cache/chunks/`;
    None: none) under a key that hashes `options` (what else decides its bytes: sheet, look,
    printer, metadata, language), and up to `drawers` chunks drawn aside at once."""

    scratch: Path
    options: str = ""
    pages: int = DEFAULT_PAGES
    store: FaceCache | None = None
    drawers: int = 0

    @classmethod
    def for_build(cls, scratch: Path, options: str, drawers: int) -> Chunking:
        """The build's chunking: MAZMORRA_CHUNK_PAGES, its chunk cache, and the document's spare
        processes as drawers."""
        return cls(scratch, options, chunk_pages(), chunk_store(), drawers)


class ChunkedPages(PdfPages):
    """A document's pages drawn chunk by chunk, as `chunking` says, and written to `target` by
    `save`: the one chunk as it is, or every chunk merged.

    With a chunk cache, a chunk whose key is known is taken from it instead of drawn: the key hashes
    the tool, the document's options, the chunk's number, its pages' plans and the face-cache key
    of every face they show, with how it is drawn (once, or as a form shown again). A chunk's pages
    wait until the chunk is complete; then the chunk is looked up, and drawn only on a miss."""

    def __init__(
        self,
        target: Path,
        chunking: Chunking,
        page_size: tuple[float, float],
        meta: DocMeta,
        icons: IconSet,
        ink: CmykOutput | None = None,
        look: SheetLook | None = None,
        marks: Callable[[Canvas], None] | None = None,
    ):
        self._buffer = io.BytesIO()
        super().__init__(self._buffer, page_size, meta, icons, ink, look)
        self.target, self.chunking = target, chunking
        self._marks = marks  # what every chunk's document carries besides its pages (PDF/X)
        if marks is not None:
            marks(self.c)  # this first canvas writes a document without pages; each chunk draws on its own
        self.chunk = 0  # the chunk whose pages are pending
        self._pending: list[_Pending] = []
        self._keys: dict[int, tuple[str, str]] = {}  # each held copy's face keys
        self.files: list[Path] = []  # the chunks written so far, in order
        self._drawn: list[set[Path]] = []  # the icon and image files each chunk drew (make's inputs)
        self.drawers = chunking.drawers if workers.can_fork() else 0  # chunks drawn aside at once, at most
        self._aside: deque[_Drawer] = deque()  # the chunks being drawn aside, oldest first

    def push(self, item: Item) -> None:
        for n in range(self._arrived, self._arrived + item.copies):
            self._keys[n] = item.keys
        super().push(item)

    def page(self, page: Page, held: dict[int, _Copy], label: Sequence[Op] = ()) -> None:
        n = self._next  # the page's number in the plan (a blank poster tile is skipped)
        size = self.chunking.pages
        if n // size != self.chunk:
            self._flush()
            self.chunk = n // size
        self._pending.append((n, page, {p.index: held[p.index] for p in page.placements}, tuple(label)))
        if n % size == size - 1:  # its chunk is complete
            self._flush()

    def _flush(self, aside: bool = True) -> None:
        """The pending chunk, from the chunk cache or drawn, written to a chunk file. With drawers
        (`aside`, and a spare job), a chunk to draw is drawn by a forked process while this one goes
        on laying out the next: the same bytes, since a chunk is drawn on a canvas of its own."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        k = self._key(pending)
        found = _valid(self.chunking.store.get(k)) if self.chunking.store is not None and k else None
        file = temp_path(self.target.with_name(f"{self.target.stem}-{self.chunk}.pdf"), self.chunking.scratch)
        self.files.append(file)  # first: removed by save() even if the write fails
        if found is not None:
            data, inputs = found
            self._drawn.append({Path(p) for p in inputs})
            self.pages += len(pending)
            file.write_bytes(data)
        elif aside and self.drawers:
            for ended in [d for d in self._aside if d.done()]:  # the drawers that have finished
                self._aside.remove(ended)
                self._collect(ended)
            drawer = _Drawer.start(self, pending, k, file, self.chunk) if len(self._aside) < self.drawers else None
            if drawer is None:  # every drawer busy (or no process to spare): drawn here meanwhile
                self._draw_into(pending, k, file, self.chunk)
            else:
                self._aside.append(drawer)
                self.pages += len(pending)
        else:
            self._draw_into(pending, k, file, self.chunk)
        stop_point("chunk")
        done = {i for _, page, _, _ in pending for i in (p.index for p in page.placements)}
        for i in done - self._held.keys():
            self._keys.pop(i, None)

    def _draw_into(self, pending: list[_Pending], k: str, file: Path, chunk: int) -> set[Path]:
        """Draw chunk number `chunk`, keep it in the chunk cache, write it to its file; the files it drew."""
        data, drew = self._draw(pending, chunk)
        self._drawn.append(drew)
        if self.chunking.store is not None and k:
            self.chunking.store.put(k, (data, sorted(str(p) for p in drew)))
        file.write_bytes(data)
        return drew

    def _collect(self, drawer: _Drawer) -> None:
        """A chunk drawn aside: its drawer waited for, what it drew noted; drawn here if it failed."""
        done = drawer.wait()
        if done is None:
            self.pages -= len(drawer.pending)  # counted again as drawn here
            self._draw_into(drawer.pending, drawer.key, drawer.file, drawer.chunk)
            return
        drew, chunk = done
        self._drawn.append({Path(p) for p in drew})
        DRAWN.append(chunk)

    def _key(self, pending: list[_Pending]) -> str:
        """The chunk's key in the chunk cache; "" when a face's key is unknown, or a poster's tile
        is on it (its label depends on the tiles around it)."""
        if self.chunking.store is None:
            return ""
        parts: list[str] = [self.chunking.options, str(self.chunk)]
        for n, page, copies, label in pending:
            if page.tile is not None or label:
                return ""
            parts.append(f"{n} {page!r}")
            for p in page.placements:
                keys = self._keys.get(p.index, ("", ""))
                face = keys[0] if p.side == "front" else keys[1]
                if not face:
                    return ""
                copy = copies[p.index]
                parts.append(f"{p.index} {face} {copy.front_reused} {copy.back_reused}")
        return facecache.key(facecache.tool_hash(), "pdf-chunk", *parts)

    def _draw(self, pending: list[_Pending], chunk: int) -> tuple[bytes, set[Path]]:
        """Draw a chunk's pages on a canvas of their own: the PDF's bytes and the files it drew."""
        # A canvas of its own, opened at its first page's size (whatever page came before: the same
        # bytes however the chunk was reached); forms belong to a canvas: drawn again in each chunk.
        self.size = pending[0][1].size
        self._buffer = io.BytesIO()
        self.c = self.canvas(self._buffer)
        self._face_forms, self._svgs = {}, {}
        if self._marks is not None:
            self._marks(self.c)
        self.drew = set()  # this chunk's own
        for _, page, copies, label in pending:
            PdfPages.page(self, page, copies, label)
        self.c.save()
        DRAWN.append((self.meta.title, self.meta.lang, chunk))
        return self._buffer.getvalue(), self.drew

    def drawn(self) -> set[Path]:
        """The icon and image files the document's chunks drew (those taken from the chunk cache
        drew what the cache recorded)."""
        return set().union(*self._drawn)

    def save(self) -> None:
        """The document into `target`: the one chunk's PDF as it is, else every chunk merged."""
        try:
            self._flush(aside=False)  # the last chunk: nothing is left to do meanwhile
            while self._aside:
                self._collect(self._aside.popleft())
            if not self.files:  # no page at all: the empty document, as a canvas writes it
                self.c.save()
                self.target.write_bytes(self._buffer.getvalue())
            elif len(self.files) == 1:
                self.target.write_bytes(self.files[0].read_bytes())
            else:
                merge(self.files, self.target)
        finally:
            while self._aside:  # after a failure: each drawer stopped and waited for
                self._aside.popleft().stop()
            for file in self.files:
                file.unlink(missing_ok=True)


class _Drawer:
    """A chunk drawn by a forked process: it draws the chunk, keeps it in the chunk cache, writes
    its file and sends back the files it drew and its `DRAWN` entry."""

    def __init__(self, pid: int, read: int, pending: list[_Pending], key: str, file: Path, chunk: int):
        self.pid, self.read, self.pending, self.key, self.file, self.chunk = pid, read, pending, key, file, chunk
        self.status: int | None = None  # its exit status, once it has ended

    @classmethod
    def start(cls, pages: ChunkedPages, pending: list[_Pending], key: str, file: Path, chunk: int) -> _Drawer | None:
        try:
            read, write = os.pipe()
        except OSError:
            return None

        def draw() -> None:  # in the drawer
            os.close(read)
            drew = pages._draw_into(pending, key, file, chunk)
            with os.fdopen(write, "wb") as out:
                out.write(pickle.dumps((sorted(str(p) for p in drew), DRAWN[-1])))

        pid = workers.forked(draw)
        if pid is None:  # no more processes allowed: drawn by the build
            os.close(read)
            os.close(write)
            return None
        os.close(write)
        return cls(pid, read, pending, key, file, chunk)

    def done(self) -> bool:
        """Whether it has ended (without waiting)."""
        if self.status is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # waited for elsewhere: what it sent decides (wait)
                pid, status = self.pid, 0
            if pid:
                self.status = status
        return self.status is not None

    def wait(self) -> tuple[list[str], tuple[str, str, int]] | None:
        """(the files it drew, its DRAWN entry), or None if it failed."""
        with os.fdopen(self.read, "rb") as pipe:
            data = pipe.read()
        if self.status is None:
            try:
                self.status = os.waitpid(self.pid, 0)[1]
            except ChildProcessError:  # waited for elsewhere: what it sent decides
                self.status = 0
        if self.status != 0:
            return None
        try:
            drew, chunk = pickle.loads(data)
        except (pickle.UnpicklingError, EOFError, ValueError):
            return None
        return drew, tuple(chunk)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.read)
        if self.status is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(self.pid, 0)


DRAWN: deque[tuple[str, str, int]] = deque(maxlen=10_000)  # (title, language, chunk) of the chunks this process
# drew, latest last (tests count them)


def _valid(found: Any) -> tuple[bytes, list[str]] | None:
    """A chunk cache entry if it is what `_flush` stores (a PDF's bytes and the files it drew), else None."""
    ok = (
        isinstance(found, tuple)
        and len(found) == 2
        and isinstance(found[0], bytes)
        and found[0].startswith(b"%PDF-")
        and isinstance(found[1], list)
        and all(isinstance(p, str) for p in found[1])
    )
    return found if ok else None
