"""Stage 6, write: atomic file replacement so no reader ever sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TMP_PREFIX = ".mazmorra-tmp-"


def temp_path(target: Path) -> Path:
    """A fresh temporary file beside target (same filesystem, so rename is atomic)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=target.suffix, dir=target.parent)
    os.close(fd)
    return Path(name)


def commit(tmp: Path, target: Path) -> None:
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)


def atomic_write_bytes(target: Path, data: bytes) -> None:
    tmp = temp_path(target)
    try:
        tmp.write_bytes(data)
        commit(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_text(target: Path, text: str) -> None:
    atomic_write_bytes(target, text.encode("utf-8"))


def sweep_stale(folder: Path) -> None:
    """Remove temporaries a killed build left behind."""
    if folder.is_dir():
        for p in folder.rglob(f"{TMP_PREFIX}*"):
            p.unlink(missing_ok=True)
