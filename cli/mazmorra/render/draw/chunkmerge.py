"""Chunk files merged into one PDF (render/draw/chunks.py draws them): read one at a time as ReportLab
writes them (`_Chunk`: a classic cross-reference table, no object streams, direct stream lengths),
each object the pages reach written out at once, renumbered, its stream copied undecoded.

Every chunk is a whole PDF made by the same canvas set-up (document information, PDF/X output
intent and XMP), so the merged file takes its document-level parts from the first one; page boxes
go with their pages. A font subset's tag is made of its font and its characters
(render/draw/subsettags.py); two chunks may hold the same subset, so the merge tags chunk k's
subsets (k > 0) again from their tag and k: no two font objects of the merged file share a name,
and the bytes stay deterministic.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mazmorra.render.draw.subsettags import subset_tag


def merge(files: Sequence[Path], target: Path) -> None:
    """The pages of every chunk file, in order, written to `target` as one PDF whose document-level
    parts (information, catalogue: output intents, XMP, language) are the first chunk's.

    Streamed: one chunk is read at a time (`_Chunk`), and each object its pages reach is written out
    at once, renumbered, its stream copied as it is. The file id is a hash of the body: deterministic
    bytes."""
    with open(target, "wb") as fh:
        out = _Writer(fh)
        kids: list[int] = []
        for k, file in enumerate(files):
            kids += _copy(_Chunk(file.read_bytes(), file), k, out)
        out.finish(kids)


def _copy(chunk: _Chunk, k: int, out: _Writer) -> list[int]:
    """Chunk k's pages and every object they reach written out, renumbered (chunk 0's catalogue and
    information too); the pages' numbers in the merged file."""
    if k == 0:
        out.header(chunk.version)
    mapping: dict[int, int] = {}
    queue: deque[int] = deque()
    pages = chunk.pages()
    kids = [out.number(page, mapping, queue) for page in pages]
    if k == 0:  # the document's own: its catalogue (but its page tree) and information
        out.root = out.number(chunk.root, mapping, queue)
        if chunk.info:
            out.info = out.number(chunk.info, mapping, queue)
    own = {n: b"/Parent" for n in pages} | {chunk.root: b"/Pages"}
    while queue:
        n = queue.popleft()
        out.write(chunk, n, own.get(n), k, mapping, queue)
    return kids


class ChunkError(RuntimeError):
    """A chunk file not in the form ReportLab writes (a bug: chunks are only ever our canvas's)."""


_OBJ = re.compile(rb"(\d+) 0 obj\s*")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_TYPE_PAGES = re.compile(rb"/Type\s*/Pages\b")


class _Chunk:
    """One chunk file as ReportLab writes it: a classic cross-reference table, no object streams,
    each stream's /Length a direct number. Read with a few patterns rather than a PDF library
    (pikepdf's import alone added 6.6 MB at the memory peak of a long build, and 67 ms)."""

    def __init__(self, data: bytes, path: Path):
        self.data, self.path = data, path
        head = re.match(rb"%PDF-(\d\.\d)", data)
        at = data.rfind(b"startxref")
        if head is None:
            raise ChunkError(f"{path}: not a PDF file")
        if at < 0:
            raise ChunkError(f"{path}: cut short (no startxref)")
        self.version = head.group(1).decode()
        trailer = data[data.rfind(b"trailer", 0, at) : at]
        root, info = _ref(trailer, b"/Root"), _ref(trailer, b"/Info")
        if root is None:
            raise ChunkError(f"{path}: its trailer names no catalogue")
        self.root, self.info = root, info or 0
        try:
            xref = int(data[at + 9 :].split()[0])
            self.starts = self._xref(xref)
        except (ValueError, IndexError, StopIteration) as exc:
            raise ChunkError(f"{path}: unreadable cross-reference table ({exc})") from None
        self.ends = dict(
            itertools.pairwise([*sorted(self.starts.values()), xref])
        )  # an object ends where the next starts

    def _xref(self, at: int) -> dict[int, int]:
        """Each object's number -> where it starts, from the cross-reference table at `at`."""
        lines = iter(self.data[at : self.data.index(b"trailer", at)].split(b"\n"))
        if next(lines).strip() != b"xref":
            raise ChunkError(f"{self.path}: no cross-reference table where startxref says")
        starts: dict[int, int] = {}
        number = count = 0
        for line in lines:
            fields = line.split()
            if len(fields) == 2 and count == 0:
                number, count = int(fields[0]), int(fields[1])
            elif len(fields) == 3 and count:
                if fields[2] == b"n":
                    starts[number] = int(fields[0])
                number, count = number + 1, count - 1
        return starts

    def get(self, n: int) -> tuple[bytes, bytes | None]:
        """Object n's text (a stream's dictionary) and its stream's raw bytes (None: not a stream)."""
        at = self.starts.get(n)
        if at is None:
            raise ChunkError(f"{self.path}: object {n} is referenced but not in the file")
        body = self.data[at : self.ends[at]]
        head = _OBJ.match(body)
        tail = body.rfind(b"endobj")
        if head is None or int(head.group(1)) != n or tail < 0:
            raise ChunkError(f"{self.path}: object {n} is not where the table says")
        stream = _STREAM.search(body, head.end(), tail)
        if stream is None:
            return body[head.end() : tail].rstrip(), None
        text = body[head.end() : stream.start() + 2]
        length = _LENGTH.search(text)
        if length is None:
            raise ChunkError(f"{self.path}: stream {n} has no direct /Length")
        raw = body[stream.end() : stream.end() + int(length.group(1))]
        if not body[stream.end() + len(raw) : tail].lstrip().startswith(b"endstream"):
            raise ChunkError(f"{self.path}: stream {n} is not as long as its /Length")
        return text, raw

    def pages(self) -> list[int]:
        """The numbers of the page objects, in order (through nested page trees)."""
        catalogue, _ = self.get(self.root)
        tree = _ref(catalogue, b"/Pages")
        if tree is None:
            raise ChunkError(f"{self.path}: its catalogue has no page tree")
        out: list[int] = []
        todo = [tree]  # depth first, in order: no recursive closure (a cycle would keep the chunk's bytes)
        while todo:
            n = todo.pop()
            text, _ = self.get(n)
            kids = _KIDS.search(text)
            if _TYPE_PAGES.search(text) and kids is not None:
                todo += reversed([int(m.group(1)) for m in _REF.finditer(kids.group(1))])
            else:
                out.append(n)
        return out


def _ref(text: bytes, key: bytes) -> int | None:
    """The object number a dictionary's `key` refers to (`/Root 93 0 R`), None when it has none."""
    m = re.search(re.escape(key) + rb"\s+(\d+)\s+\d+\s+R", text)
    return int(m.group(1)) if m else None


class _Writer:
    """A PDF file written object by object: a header, renumbered objects, the page tree, the
    cross-reference table and the trailer."""

    PAGES = 1  # the page tree's number: every page's /Parent, the catalogue's /Pages

    def __init__(self, fh: Any):
        self.fh = fh
        self.offsets: dict[int, int] = {}
        self.next = self.PAGES + 1
        self.root = self.info = 0
        self.digest = hashlib.md5(usedforsecurity=False)
        self.at = 0

    def _put(self, data: bytes) -> None:
        self.fh.write(data)
        self.digest.update(data)
        self.at += len(data)

    def header(self, version: str) -> None:
        self._put(f"%PDF-{version}\n%\xe2\xe3\xcf\xd3\n".encode("latin-1"))

    def number(self, n: int, mapping: dict[int, int], queue: deque[int]) -> int:
        """The merged file's number of a chunk's object n (queued to be written when new)."""
        found = mapping.get(n)
        if found is None:
            found = mapping[n] = self.next
            self.next += 1
            queue.append(n)
        return found

    def write(
        self, chunk: _Chunk, n: int, own: bytes | None, k: int, mapping: dict[int, int], queue: deque[int]
    ) -> None:
        """One object, its references renumbered (those it reaches queued); a page's parent and the
        catalogue's page tree (`own`) are the merged file's; chunk k's font subsets get its tags."""
        text, raw = chunk.get(n)
        if own is not None:  # dropped before renumbering, so the chunk's own page tree is never reached
            text = re.sub(re.escape(own) + rb"\s+\d+\s+\d+\s+R", b"", text, count=1)
        if k and raw is None:
            text = _SUBSET.sub(lambda m: m.group(1) + retagged(m.group(2), k), text)
        body = _renumbered(text, lambda ref: self.number(ref, mapping, queue))
        if own is not None:
            body = body.replace(b"<<", b"<< " + own + f" {self.PAGES} 0 R".encode(), 1)
        if raw is not None:
            body += b"\nstream\n" + raw + b"\nendstream"
        self.offsets[mapping[n]] = self.at
        self._put(f"{mapping[n]} 0 obj\n".encode() + body + b"\nendobj\n")

    def finish(self, kids: list[int]) -> None:
        """The page tree, the cross-reference table and the trailer (its id: the body's hash)."""
        self.offsets[self.PAGES] = self.at
        tree = " ".join(f"{n} 0 R" for n in kids)
        self._put(f"{self.PAGES} 0 obj\n<< /Type /Pages /Count {len(kids)} /Kids [ {tree} ] >>\nendobj\n".encode())
        ident = self.digest.hexdigest()
        xref = self.at
        rows = ["xref", f"0 {self.next}", "0000000000 65535 f "]
        rows += [f"{self.offsets[n]:010d} 00000 n " for n in range(1, self.next)]
        info = f" /Info {self.info} 0 R" if self.info else ""
        rows += [
            "trailer",
            f"<< /Size {self.next} /Root {self.root} 0 R{info} /ID [ <{ident}> <{ident}> ] >>",
            "startxref",
            str(xref),
            "%%EOF",
        ]
        self.fh.write(("\n".join(rows) + "\n").encode("latin-1"))


_SUBSET = re.compile(rb"(/(?:BaseFont|FontName)\s*)/([A-Z]{6})\+")  # a subset font's tag


def retagged(tag: bytes, k: int) -> bytes:
    """A subset's tag as chunk `k` of a merged document names it: `/TAG+` (unchanged in chunk 0)."""
    return b"/" + (tag if k == 0 else subset_tag(tag, [k])) + b"+"


_REF = re.compile(rb"(?<![^\s\[<])(\d+) (\d+) R\b")  # a whole token: not the end of a name or a number


def _renumbered(text: bytes, number: Callable[[int], int]) -> bytes:
    """An object's text with every indirect reference (`N G R`, never inside a string) given the
    merged file's number."""
    pieces, at, depth, i = [], 0, 0, 0
    spans: list[tuple[int, int]] = []  # where strings are: left as they are
    if b"(" not in text and b"<" not in text.replace(b"<<", b""):
        i = len(text)  # no string at all (most objects): nothing to skip
    while i < len(text):
        c = text[i : i + 1]
        if depth:
            if c == b"\\":
                i += 1
            elif c == b"(":
                depth += 1
            elif c == b")":
                depth -= 1
                if not depth:
                    spans.append((at, i + 1))
        elif c == b"(":
            depth, at = 1, i
        elif c == b"<" and text[i + 1 : i + 2] != b"<" and (i == 0 or text[i - 1 : i] != b"<"):
            end = text.index(b">", i)  # a hex string
            spans.append((i, end + 1))
            i = end
        i += 1

    def renumber(m: re.Match[bytes]) -> bytes:
        return f"{number(int(m.group(1)))} 0 R".encode()

    last = 0
    for start, stop in [*spans, (len(text), len(text))]:
        pieces += [_REF.sub(renumber, text[last:start]), text[start:stop]]
        last = stop
    return b"".join(pieces)
