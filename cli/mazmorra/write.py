"""Stage 6, write: atomic file replacement so no reader ever sees half a file."""

from __future__ import annotations

import os
import re
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
    fd, name = tempfile.mkstemp(prefix=f"{TMP_PREFIX}{os.getpid()}-", suffix=target.suffix, dir=where)
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
    """Remove temporaries that killed builds left behind (never those of a build still running)."""
    if not folder.is_dir():
        return
    for p in folder.rglob(f"{TMP_PREFIX}*"):
        pid = p.name[len(TMP_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and _alive(int(pid)):
            continue
        p.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def depfile_path(out_dir: Path, output: Path) -> Path:
    """Where the make dependency file of an output goes: out_dir/.deps/<same relative path>.d."""
    return out_dir / ".deps" / output.relative_to(out_dir).with_suffix(".d")


def _make_escape(path: str) -> str:
    return path.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")


def make_rule(output: Path, inputs: set[Path], options: str = "") -> str:
    """A make rule naming every file `output` was made from; each input also gets an empty rule
    so that deleting one triggers a rebuild rather than a make error. `options` records the
    build options the output was made with (a comment make ignores)."""
    from mazmorra.errors import rel

    deps = sorted({rel(p) for p in inputs})
    lines = [f"# mazmorra options: {options}"] if options else []
    lines += [f"{_make_escape(rel(output))}: " + " \\\n  ".join(_make_escape(d) for d in deps), ""]
    lines += [f"{_make_escape(d)}:" for d in deps]
    return "\n".join(lines) + "\n"


def read_rule(depfile: Path) -> tuple[str, list[str], str] | None:
    """(target, inputs, options) of a dependency file make_rule wrote, or None when it is missing."""
    try:
        text = depfile.read_text(encoding="utf-8")
    except OSError:
        return None
    options = ""
    if text.startswith("# mazmorra options: "):
        head, _, text = text.partition("\n")
        options = head[len("# mazmorra options: "):]
    first = text.split("\n\n", 1)[0].replace("\\\n", " ")
    target, _, deps = first.partition(": ")
    unescape = lambda s: s.replace("\\ ", " ").replace("\\#", "#").replace("$$", "$")  # noqa: E731
    return unescape(target), [unescape(d) for d in re.split(r"(?<!\\) +", deps.strip()) if d], options


def up_to_date(output: Path, depfile: Path, options: str = "") -> bool:
    """True when output exists, was made with the same options and is newer than every input its
    dependency file names."""
    rule = read_rule(depfile)
    if rule is None or not output.is_file() or rule[2] != options:
        return False
    made = output.stat().st_mtime_ns
    for dep in rule[1]:
        try:
            if Path(dep).stat().st_mtime_ns >= made:  # equal: same clock tick, so maybe later
                return False
        except OSError:
            return False
    return True


def stamp_path(out_dir: Path, pack_id: str, lang: str) -> Path:
    """The file make touches once a pack's language is built (see the Makefile)."""
    return out_dir / ".stamps" / pack_id / f"{lang}.stamp"


def write_stamp_rule(out_dir: Path, pack_id: str, lang: str, scratch: Path | None = None) -> None:
    """out_dir/.deps/<pack>/<lang>.d: the stamp depends on every deck's inputs and on the PDFs
    themselves (so a deleted PDF is rebuilt too)."""

    inputs: set[Path] = set()
    for d in sorted((out_dir / ".deps" / pack_id / lang).glob("*.d")):
        rule = read_rule(d)
        if rule:
            inputs.add(Path(rule[0]))
            inputs.update(Path(p) for p in rule[1])
    stamp = stamp_path(out_dir, pack_id, lang)
    atomic_write_text(out_dir / ".deps" / pack_id / f"{lang}.d", make_rule(stamp, inputs), scratch)


class Staging:
    """The temporary files of one build: handed out beside the output folder, renamed onto their
    targets all together once the build has succeeded, removed otherwise."""

    def __init__(self, out_dir: Path):
        self.scratch = out_dir.resolve().parent / TMP_DIR
        self.files: list[tuple[Path, Path]] = []
        sweep_stale(self.scratch)

    def temp(self, target: Path) -> Path:
        self.files.append((temp_path(target, self.scratch), target))
        return self.files[-1][0]

    def commit(self) -> None:
        for tmp, target in self.files:
            commit(tmp, target)

    def discard(self) -> None:
        for tmp, _ in self.files:
            tmp.unlink(missing_ok=True)
        try:
            self.scratch.rmdir()
        except OSError:
            pass  # not empty (a parallel build is using it) or never made


def forget_removed(out_dir: Path, pack_id: str, lang: str, keep: set[str]) -> None:
    """Remove the PDFs (and dependency files) of decks a pack no longer has: only files a build
    recorded, so nothing the user put in output/ by hand is touched."""
    for depfile in sorted((out_dir / ".deps" / pack_id / lang).glob("*.d")):
        if depfile.stem in keep:
            continue
        rule = read_rule(depfile)
        if rule is not None:
            target = Path(rule[0])
            if target.suffix == ".pdf" and target.resolve().is_relative_to(out_dir.resolve()):
                target.unlink(missing_ok=True)
        depfile.unlink(missing_ok=True)
