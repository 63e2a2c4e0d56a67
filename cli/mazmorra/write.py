"""Stage 6, write: atomic file replacement so no reader ever sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TMP_PREFIX = ".mazmorra-tmp-"
TMP_DIR = ".mazmorra-tmp"  # beside the output folder: a killed build leaves nothing inside output/


def temp_path(target: Path, scratch: Path | None = None) -> Path:
    """A fresh temporary file to be renamed onto target.

    It lives in `scratch` when that is on target's filesystem (so output/ never holds a partial
    file, even after a kill -9), else beside target; either way the rename is atomic.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    where = target.parent
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        if os.stat(scratch).st_dev == os.stat(target.parent).st_dev:
            where = scratch
    fd, name = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=target.suffix, dir=where)
    os.close(fd)
    return Path(name)


def commit(tmp: Path, target: Path) -> None:
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)


def atomic_write_bytes(target: Path, data: bytes, scratch: Path | None = None) -> None:
    tmp = temp_path(target, scratch)
    try:
        tmp.write_bytes(data)
        commit(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_text(target: Path, text: str, scratch: Path | None = None) -> None:
    atomic_write_bytes(target, text.encode("utf-8"), scratch)


def sweep_stale(folder: Path) -> None:
    """Remove temporaries a killed build left behind."""
    if folder.is_dir():
        for p in folder.rglob(f"{TMP_PREFIX}*"):
            p.unlink(missing_ok=True)


def depfile_path(out_dir: Path, output: Path) -> Path:
    """Where the make dependency file of an output goes: out_dir/.deps/<same relative path>.d."""
    return out_dir / ".deps" / output.relative_to(out_dir).with_suffix(".d")


def _make_escape(path: str) -> str:
    return path.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")


def make_rule(output: Path, inputs: set[Path]) -> str:
    """A make rule naming every file `output` was made from; each input also gets an empty rule
    so that deleting one triggers a rebuild rather than a make error."""
    from mazmorra.errors import rel

    deps = sorted({rel(p) for p in inputs})
    lines = [f"{_make_escape(rel(output))}: " + " \\\n  ".join(_make_escape(d) for d in deps), ""]
    lines += [f"{_make_escape(d)}:" for d in deps]
    return "\n".join(lines) + "\n"
