"""The face cache's files: each process appends the entries it stores to a pack file of its own and
reads every pack file of the folder through one index of their record headers.

One file per entry cost a file creation per face laid out (~0.45 ms each once a build's heap is
large: 1.4 s of system time in a 2,000-card build); appending costs one write. A record carries its
key and a BLAKE2b hash of key and payload, checked when it is read: a damaged record is a miss, and
a record cut short (a killed build, or one still being written by another process) ends its file's
index there. Files are evicted whole, least recently used first, and merged when there are too many.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import struct
import time
from dataclasses import dataclass

MAGIC = b"MZFPACK1"  # a pack file starts so; a new layout of the file changes it
MARK = b"MZR1"  # each record starts so
RECORD = struct.Struct("<4sBI32s")  # mark, key length, payload length, BLAKE2b of key + payload
SUFFIX = ".mzp"
MAX_FILES = 64  # past this many pack files, `trim` merges them into one (each build that lays out adds one)
TOUCH_AFTER = 3600.0  # s: a file hit longer ago than this is marked used again (what eviction goes by)
_CHUNK = 1 << 20  # bytes read at a time while indexing
_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise translate line ends
_TAG = ""  # what this process's own pack files are named with, besides its pid (a build's helper: layout/ahead.py)


def tag_files(tag: str) -> None:
    """Name the pack files this process writes from now on `<pid>-<random>-<tag>.mzp`."""
    global _TAG
    _TAG = tag


def tagged(path: str, tag: str) -> bool:
    """Whether a pack file is one that a process tagged `tag` wrote."""
    return path.endswith(f"-{tag}{SUFFIX}")


def _pread(fd: int, n: int, offset: int) -> bytes:
    """n bytes at `offset` of a file, whatever its position (os.pread where there is one)."""
    if hasattr(os, "pread"):
        return os.pread(fd, n, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover (Windows)
    return os.read(fd, n)  # pragma: no cover


def record(key: bytes, payload: bytes) -> bytes:
    """One record as stored: header, key, payload."""
    h = hashlib.blake2b(key, digest_size=32)
    h.update(payload)
    return RECORD.pack(MARK, len(key), len(payload), h.digest()) + key + payload


def scan(fd: int, start: int, end: int) -> tuple[list[tuple[bytes, int, int, bytes]], int]:
    """The records whole between `start` and `end` of a file, as (key, payload offset, payload
    length, hash), and where the first record not whole (or not a record) starts."""
    found: list[tuple[bytes, int, int, bytes]] = []
    pos, base, buf = start, start, b""
    while pos + RECORD.size <= end:
        off = pos - base
        if len(buf) - off < RECORD.size + 255 and base + len(buf) < end:
            base, buf, off = pos, _pread(fd, min(_CHUNK, end - pos), pos), 0
        if len(buf) - off < RECORD.size:
            break
        mark, klen, plen, dig = RECORD.unpack_from(buf, off)
        if mark != MARK or len(buf) - off < RECORD.size + klen:
            break
        stop = pos + RECORD.size + klen + plen
        if stop > end:
            break
        found.append((bytes(buf[off + RECORD.size : off + RECORD.size + klen]), pos + RECORD.size + klen, plen, dig))
        pos = stop
    return found, pos


@dataclass
class PackFile:
    """One pack file as this process knows it."""

    path: str
    fd: int  # kept open: a file removed by another process's trim can still be read
    scanned: int  # bytes indexed so far
    mtime: float


@dataclass(frozen=True, slots=True)
class Where:
    """Where a record's payload is."""

    file: PackFile
    offset: int
    length: int
    digest: bytes


class Shelf:
    """One process's view of a cache folder: its pack files, the index of their records by key, and
    the file this process appends to (opened on its first entry: a forked worker opens its own)."""

    def __init__(self, root: str):
        self.root = root
        self.files: dict[str, PackFile] = {}
        self.index: dict[bytes, list[Where]] = {}
        self.writer: PackFile | None = None
        self.writer_pid = 0
        self.broken = False  # a write failed: this process stores nothing more here
        self.origin = ""  # the file the last payload read came from

    def refresh(self) -> None:
        """Index what other processes have added since: new files, and records appended to known ones."""
        try:
            names = sorted(n for n in os.listdir(self.root) if n.endswith(SUFFIX))
        except OSError:
            return
        present = {f"{self.root}/{name}" for name in names}
        for gone in [path for path in self.files if path not in present]:  # merged or evicted since
            self.dropped(gone)
        for name in names:
            path = f"{self.root}/{name}"
            known = self.files.get(path)
            try:
                if known is None:
                    fd = os.open(path, os.O_RDONLY | _BINARY)
                    st = os.fstat(fd)
                    if _pread(fd, len(MAGIC), 0) != MAGIC:
                        os.close(fd)
                        continue
                    known = self.files[path] = PackFile(path, fd, len(MAGIC), st.st_mtime)
                    size = st.st_size
                elif known is self.writer:
                    continue
                else:
                    size = os.fstat(known.fd).st_size
            except OSError:
                continue
            if size > known.scanned:
                self._add(known, size)

    def _add(self, file: PackFile, size: int) -> None:
        try:
            found, file.scanned = scan(file.fd, file.scanned, size)
        except OSError:
            return
        for key, offset, length, dig in found:
            self.index.setdefault(key, []).append(Where(file, offset, length, dig))

    def read(self, key: bytes) -> tuple[bytes | None, int]:
        """The payload stored under `key` that passes its check (the newest first), and how many
        records under it failed theirs (dropped from the index)."""
        places = self.index.get(key)
        damaged = 0
        while places:
            where = places[-1]
            if where.file.fd < 0:  # its file is gone (merged, evicted): not a damaged record
                places.pop()
                continue
            try:
                payload = _pread(where.file.fd, where.length, where.offset)
            except OSError:
                payload = b""
            h = hashlib.blake2b(key, digest_size=32)
            h.update(payload)
            if len(payload) == where.length and h.digest() == where.digest:
                self._touch(where.file)
                self.origin = where.file.path
                return payload, damaged
            places.pop()
            damaged += 1
        return None, damaged

    def forget(self, key: bytes) -> None:
        """A record that passed its check but held no value: dropped from the index."""
        places = self.index.get(key)
        if places:
            places.pop()

    def _touch(self, file: PackFile) -> None:
        now = time.time()
        if now - file.mtime > TOUCH_AFTER:
            file.mtime = now
            try:
                os.utime(file.path)
            except OSError:
                pass

    def append(self, key: bytes, payload: bytes) -> bool:
        """Store a record in this process's own pack file; whether it was written whole."""
        if self.broken or len(key) > 255:
            return False
        data = record(key, payload)
        try:
            writer = self._writer()
            offset, done = writer.scanned, 0
            while done < len(data):
                done += os.write(writer.fd, data[done:])
        except OSError:
            self.broken = True  # what follows a half record would never be read: write no more
            return False
        writer.scanned = offset + len(data)
        dig = data[RECORD.size - 32 : RECORD.size]
        self.index.setdefault(key, []).append(Where(writer, offset + RECORD.size + len(key), len(payload), dig))
        return True

    def _writer(self) -> PackFile:
        if self.writer is not None and self.writer_pid == os.getpid():
            st = os.fstat(self.writer.fd)
            if st.st_size == self.writer.scanned and st.st_nlink:
                return self.writer
            self.writer = None  # removed, cut or written to by someone else: records would not be where indexed
        os.makedirs(self.root, exist_ok=True)
        path = f"{self.root}/{os.getpid()}-{secrets.token_hex(6)}{'-' + _TAG if _TAG else ''}{SUFFIX}"
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | _BINARY, 0o644)
        os.write(fd, MAGIC)
        self.writer = self.files[path] = PackFile(path, fd, len(MAGIC), time.time())
        self.writer_pid = os.getpid()
        return self.writer

    def close(self) -> None:
        """Close every file (this process no longer reads the folder)."""
        for path in list(self.files):
            self.dropped(path)
        self.index.clear()
        self.writer = None

    def dropped(self, path: str) -> None:
        """A file removed (by a trim): closed, no longer read nor appended to."""
        file = self.files.pop(path, None)
        if file is not None and file.fd >= 0:
            try:
                os.close(file.fd)
            except OSError:
                pass
            file.fd = -1
        if self.writer is not None and self.writer.path == path:
            self.writer = None


def packs(root: str) -> list[tuple[float, str, int]]:
    """The pack files of a folder as (last used, path, size), least recently used first."""
    found = []
    try:
        for entry in os.scandir(root):
            if entry.name.endswith(SUFFIX) and entry.is_file():
                st = entry.stat()
                found.append((st.st_mtime, entry.path, st.st_size))
    except OSError:
        return []
    return sorted(found)


def entries(path: str) -> list[tuple[bytes, int, int, bytes]]:
    """The whole records of one pack file (none when it is not one)."""
    try:
        fd = os.open(path, os.O_RDONLY | _BINARY)
    except OSError:
        return []
    try:
        if _pread(fd, len(MAGIC), 0) != MAGIC:
            return []
        return scan(fd, len(MAGIC), os.fstat(fd).st_size)[0]
    except OSError:
        return []
    finally:
        os.close(fd)


def merge(paths: list[str], into: str, tmp: str) -> int:
    """Every record of `paths` (oldest first) that passes its check, the newest of each key, written
    to `tmp` and renamed to `into`; the merged files removed. How many records were dropped."""
    latest: dict[bytes, bytes] = {}
    total = 0
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY | _BINARY)
        except OSError:
            continue
        try:
            if _pread(fd, len(MAGIC), 0) != MAGIC:
                continue
            for key, offset, length, dig in scan(fd, len(MAGIC), os.fstat(fd).st_size)[0]:
                total += 1
                payload = _pread(fd, length, offset)
                h = hashlib.blake2b(key, digest_size=32)
                h.update(payload)
                if len(payload) == length and h.digest() == dig:
                    latest.pop(key, None)  # the newest last, as written
                    latest[key] = payload
        except OSError:
            continue
        finally:
            os.close(fd)
    try:
        with open(tmp, "wb") as fh:
            fh.write(MAGIC)
            for key, payload in latest.items():
                fh.write(record(key, payload))
        os.replace(tmp, into)
    except OSError:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        return 0
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass
    return total - len(latest)
