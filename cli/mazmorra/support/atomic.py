"""Stage 6, write: atomic file replacement so no reader ever sees half a file."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

TMP_PREFIX = ".mazmorra-tmp-"
TMP_DIR = ".mazmorra-tmp"  # beside the output folder: a killed build leaves nothing inside output/


def temp_path(target: Path, scratch: Path | None = None) -> Path:
    """A fresh temporary file to be renamed onto target.

    It lives in `scratch` when that is on target's filesystem (so output/ never holds a partial
    file, even after a kill -9), else beside target; either way the rename is atomic.
    """
    where = target.parent
    if scratch is not None and _made(scratch).st_dev == os.stat(_existing(target.parent)).st_dev:
        where = scratch  # target's folder is made when the file is committed, not before
    for attempt in range(_TRIES):  # another build may remove the empty scratch folder at any moment
        _made(where)
        try:
            fd, name = tempfile.mkstemp(prefix=f"{TMP_PREFIX}{os.getpid()}-", suffix=target.suffix, dir=where)
        except FileNotFoundError:
            if attempt == _TRIES - 1:
                raise
            continue
        os.close(fd)
        return Path(name)
    raise AssertionError("unreachable")


_TRIES = 5


def _made(folder: Path) -> os.stat_result:
    """The folder, made if missing, and its status. Builds side by side share the scratch folder and
    each removes it once empty (`Staging.discard`), so it can vanish between making it and looking at
    it (mkdir's "exists" then finds no folder): try again."""
    for attempt in range(_TRIES):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return os.stat(folder)
        except (FileExistsError, FileNotFoundError):
            if attempt == _TRIES - 1:
                raise
    raise AssertionError("unreachable")


def _existing(folder: Path) -> Path:
    """The folder, or its nearest ancestor that exists (what a new file there would be stored on)."""
    folder = folder.absolute()
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def commit(tmp: Path, target: Path) -> None:
    """Rename a finished temporary file onto its target, making the target's folder only now."""
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o644)
    target.parent.mkdir(parents=True, exist_ok=True)
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
    """Remove temporaries that killed builds left behind (never those of a build still running),
    and the scratch folder itself once empty."""
    if not folder.is_dir():
        return
    for p in folder.rglob(f"{TMP_PREFIX}*"):
        pid = p.name[len(TMP_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and _alive(int(pid)):
            continue
        p.unlink(missing_ok=True)
    if folder.name == TMP_DIR:
        try:
            folder.rmdir()
        except OSError:
            pass  # a running build's files are still in it


def sweep_here() -> None:
    """What any command does first: clear the temporaries a killed build left beside the default
    output folder (`./output`), so nothing of it stays visible."""
    sweep_stale(Path(TMP_DIR))


def stop_point(name: str) -> None:
    """A place a test stops a real build at (MAZMORRA_STOP_AT=name: the process stops itself with
    SIGSTOP, to be killed there); nothing otherwise."""
    if os.environ.get("MAZMORRA_STOP_AT") == name and hasattr(signal, "SIGSTOP"):
        os.kill(os.getpid(), signal.SIGSTOP)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Staging:
    """The temporary files of one build: handed out beside the output folder, renamed onto their
    targets all together once the build has succeeded, removed otherwise."""

    def __init__(self, out_dir: Path):
        self.scratch = out_dir.resolve().parent / TMP_DIR
        self.files: list[tuple[Path, Path]] = []
        sweep_stale(self.scratch)
        stop_point("start")

    def temp(self, target: Path) -> Path:
        self.files.append((temp_path(target, self.scratch), target))
        if len(self.files) == 2:
            stop_point("render")  # the first file written, the second handed out
        return self.files[-1][0]

    def commit(self) -> None:
        stop_point("staged")
        for i, (tmp, target) in enumerate(self.files):
            commit(tmp, target)
            if i == 0:
                stop_point("commit")  # one file renamed, the others still temporary

    def discard(self) -> None:
        for tmp, _ in self.files:
            tmp.unlink(missing_ok=True)
        try:
            self.scratch.rmdir()
        except OSError:
            pass  # not empty (a parallel build is using it) or never made
