"""An earlier revision of a pack as a folder: a git revision (commit, tag, branch) of the repository
the pack is in, extracted into a temporary folder, or a folder that holds an earlier copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mazmorra.errors import ContentError, Loc, Problem, UsageError, rel

PACK_FILE = "pack.yaml"


@contextmanager
def earlier(pack_dir: Path, rev: str) -> Iterator[Path | None]:
    """The pack folder as it was at `rev`, for as long as the context lasts; None when the pack was
    not in that git revision (every component is new). REV is a folder (the earlier pack itself, or a
    folder holding it under the pack's folder name) or a git revision; a UsageError (exit 2) says why
    neither works."""
    folder = Path(rev).expanduser()
    if folder.is_dir():
        for candidate in (folder, folder / pack_dir.name, folder / "content" / pack_dir.name):
            if (candidate / PACK_FILE).is_file():
                yield candidate
                return
        raise UsageError(f"--since {rev}: the folder holds no {PACK_FILE} (nor {pack_dir.name}/{PACK_FILE})")
    with _from_git(pack_dir, rev) as found:
        yield found


@contextmanager
def _from_git(pack_dir: Path, rev: str) -> Iterator[Path | None]:
    git = shutil.which("git")
    if git is None:
        raise UsageError(f"'{rev}' is not a folder and git is not installed: give a folder with an earlier copy")
    top = _git(git, pack_dir, "rev-parse", "--show-toplevel")
    if top is None:
        raise UsageError(
            f"'{rev}' is not a folder and {rel(pack_dir)} is not in a git repository: give a folder with an earlier copy"
        )
    if rev.startswith("-") or _git(git, pack_dir, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}") is None:
        raise UsageError(_unknown_revision(git, pack_dir, rev, Path(top)))
    inside = pack_dir.resolve().relative_to(Path(top).resolve()).as_posix()
    if _git(git, Path(top), "cat-file", "-e", f"{rev}:{inside}/{PACK_FILE}") is None:
        yield None  # the pack was not in the repository then: everything in it is new
        return
    with tempfile.TemporaryDirectory(prefix="mazmorra-since-") as tmp:
        archive = Path(tmp) / "rev.tar"
        with archive.open("wb") as fh:
            made = subprocess.run(
                [git, "archive", "--format=tar", rev, "--", inside], cwd=top, stdout=fh, stderr=subprocess.PIPE
            )
        if made.returncode != 0:
            raise UsageError(f"git archive {rev} -- {inside}: {made.stderr.decode(errors='replace').strip()}")
        with tarfile.open(archive) as tar:
            _extract(tar, Path(tmp) / "tree", Path(top), rev)
        yield Path(tmp) / "tree" / inside


def _unknown_revision(git: str, pack_dir: Path, rev: str, top: Path) -> str:
    """Why `rev` names nothing, with the tags there are: those nearest to it by name, else the newest."""
    import difflib

    listed = _git(git, pack_dir, "tag", "--sort=-creatordate") or ""
    tags = [t for t in listed.splitlines() if t]
    where = f"the git repository at {rel(top)}" if rel(top) != "." else "this git repository"
    said = f"unknown revision '{rev}': not a folder, nor a commit, tag or branch of {where}"
    if not tags:
        return said + " (it has no tags)"
    near = difflib.get_close_matches(rev, tags, n=5, cutoff=0.5)
    shown = near or tags[:5]
    more = "" if near or len(tags) <= 5 else f" (and {len(tags) - 5} older)"
    return said + f"; {'nearest' if near else 'newest'} tags: {', '.join(shown)}{more}"


def _extract(tar: tarfile.TarFile, dest: Path, top: Path, rev: str) -> None:
    """The revision's files into `dest`, never a file outside it: a symbolic link the revision tracks
    to an absolute path or out of the folder (or a device, or an absolute name) refuses the revision,
    each such file named at its path in the repository (`revision.link`), before anything is written."""
    problems = []
    members = tar.getmembers()
    for member in members:
        try:
            tarfile.data_filter(member, str(dest))
        except tarfile.FilterError as exc:
            if member.issym() or member.islnk():
                msg = (
                    f"revision {rev}: '{member.name}' is a link to '{member.linkname}', outside the revision's "
                    "folder; an earlier revision is read without leaving it: make it a plain file, or a link "
                    "to a file inside the pack"
                )
            else:
                msg = f"revision {rev}: {exc}; an earlier revision holds plain files and folders only"
            where = os.path.relpath(top / member.name)  # not rel(): it would follow today's link
            problems.append(Problem("revision.link", msg, Loc(where)))
    if problems:
        raise ContentError(problems)
    tar.extractall(dest, members=members, filter="data")


def _git(git: str, cwd: Path, *args: str) -> str | None:
    """git's one line of output, or None when it fails."""
    done = subprocess.run([git, *args], cwd=cwd, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


@dataclass(frozen=True)
class Revision:
    """An earlier revision of a pack, brought out: as given (`rev`) and the folder it is in."""

    rev: str
    folder: Path | None  # None: the pack was not in that revision
