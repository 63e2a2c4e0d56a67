"""The cache stores of few, larger entries (compiled templates, icon forms, page chunks, checks):
one file per entry under `<folder>/<2 hex>/<rest>`, written whole to a temporary name and renamed
(a killed or concurrent build never leaves half an entry), checked against its own hash when read
(a damaged entry is a miss, and removed), trimmed oldest-used first. The face store, thousands of
small entries a build, appends to pack files instead (layout/cache/facepacks.py)."""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from pathlib import Path
from typing import Any

from mazmorra.support.atomic import TMP_PREFIX

FORMAT = b"MZFACE01"  # a stored entry starts so; a new layout of the file changes it
_DIGEST = 32  # bytes of BLAKE2b over the payload, after FORMAT
_TOUCH_AFTER = 3600.0  # s: a hit older than this is marked used again (what eviction goes by)


def path(root: Path, k: str) -> str:
    """Where the entry under key `k` lives (plain strings: one per entry, pathlib's cost shows)."""
    return f"{root}/{k[:2]}/{k[2:]}"


def read(root: Path, k: str) -> tuple[Any | None, bool]:
    """(the value stored under `k`, or None; whether a file was there but damaged, then removed)."""
    where = path(root, k)
    try:
        with open(where, "rb") as fh:
            data = fh.read()
            mtime = os.fstat(fh.fileno()).st_mtime
    except OSError:
        return None, False
    try:
        if data[: len(FORMAT)] != FORMAT:
            raise ValueError("not an entry")
        stored, payload = data[len(FORMAT) : len(FORMAT) + _DIGEST], data[len(FORMAT) + _DIGEST :]
        if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != stored:
            raise ValueError("damaged")
        stored_key, value = marshal.loads(payload)
        if stored_key != k:
            raise ValueError("another key's entry")
    except (ValueError, EOFError, TypeError):
        try:
            os.unlink(where)
        except OSError:
            pass
        return None, True
    if time.time() - mtime > _TOUCH_AFTER:
        try:
            os.utime(where)
        except OSError:
            pass
    return value, False


def write(root: Path, scratch: Path, k: str, value: Any) -> bool:
    """Store a value under `k`: written whole to a temporary file, then renamed (two builds writing
    the same key write the same bytes; a reader sees one or the other); whether it was."""
    payload = marshal.dumps((k, value))
    data = FORMAT + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload
    where = path(root, k)
    folder = os.path.dirname(where)
    try:
        os.makedirs(folder, exist_ok=True)
        tmp = _temporary(scratch, folder, k)
        try:
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            except FileNotFoundError:  # a concurrent build has just removed the scratch folder
                os.makedirs(os.path.dirname(tmp), exist_ok=True)
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, where)
        except BaseException:
            if os.path.lexists(tmp):
                os.unlink(tmp)
            raise
    except OSError:
        return False  # a cache that cannot be written only costs time
    return True


def _temporary(scratch: Path, folder: str, k: str) -> str:
    """The scratch folder beside output/ (a build killed mid-write leaves nothing inside output/),
    or beside the entry when the scratch folder is on another filesystem."""
    scratch.mkdir(parents=True, exist_ok=True)
    beside = os.stat(scratch).st_dev == os.stat(folder).st_dev
    return f"{scratch if beside else folder}/{TMP_PREFIX}{os.getpid()}-{k[:20]}"


def trim(root: Path, limit: int) -> int:
    """Remove the least recently used entries until the store is within 80 % of `limit` bytes; how
    many entries were removed."""
    entries = []
    total = 0
    try:
        for sub in os.scandir(root):
            if sub.is_dir():
                for entry in os.scandir(sub.path):
                    st = entry.stat()
                    entries.append((st.st_mtime, entry.path, st.st_size))
                    total += st.st_size
    except OSError:
        return 0
    if total <= limit:
        return 0
    removed = 0
    for _, where, size in sorted(entries):
        if total <= limit * 0.8:
            break
        try:
            os.unlink(where)
        except OSError:
            continue
        total -= size
        removed += 1
    return removed
