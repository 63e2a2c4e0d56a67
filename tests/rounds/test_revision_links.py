"""A git revision that tracks a symbolic link leaving its folder (an absolute path, a climb out) is
refused with each such link's path (`revision.link`), by `diff --since` and `build --changed-since`
alike, before anything is extracted or written; a link inside the pack is an ordinary file."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def linked_repo(root: Path, links: dict[str, str]) -> Path:
    """A git repository holding muestras with `links` (name in the pack -> target) committed."""
    pack = root / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    for name, target in links.items():
        (pack / name).symlink_to(target)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "round 1")
    return pack


@pytest.mark.parametrize(
    "command", [("diff", "muestras", "--since", "HEAD"), ("build", "muestras", "--changed-since", "HEAD")]
)
def test_links_leaving_the_revision_are_refused_each_at_its_path(tmp_path: Path, command: tuple[str, ...]) -> None:
    linked_repo(tmp_path, {"notes.txt": "/etc/hostname", "up.txt": "../../../../../etc/passwd"})
    res = run_cli(*command, cwd=tmp_path)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text and "AbsoluteLinkError" not in text, text
    assert (
        "content/muestras/notes.txt: error: revision HEAD: 'content/muestras/notes.txt' is a link to '/etc/hostname'"
        in text
    )
    assert "content/muestras/up.txt: error" in text and "'../../../../../etc/passwd'" in text, text
    assert text.count("(revision.link)") == 2, text
    assert not (tmp_path / "output").exists()


def test_a_link_inside_the_pack_is_read_as_its_file(tmp_path: Path) -> None:
    linked_repo(tmp_path, {"copia.yaml": "decks/cartas.yaml"})
    res = run_cli("diff", "muestras", "--since", "HEAD", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "revision.link" not in res.stdout + res.stderr
