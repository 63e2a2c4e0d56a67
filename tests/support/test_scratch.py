"""The scratch folder beside output/ is shared by builds that run at once: one build removing it
while empty never makes another fail to get its temporary file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from mazmorra.support import atomic


def test_a_scratch_folder_removed_under_a_build_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / atomic.TMP_DIR
    target = tmp_path / "output" / "pack" / "es" / "deck.pdf"
    real = tempfile.mkstemp
    calls = []

    def racing(*args: object, **kwargs: object) -> tuple[int, str]:
        calls.append(kwargs.get("dir"))
        if len(calls) == 1:  # another build's sweep removed the empty folder just now
            Path(str(kwargs["dir"])).rmdir()
            raise FileNotFoundError(kwargs["dir"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", racing)
    tmp = atomic.temp_path(target, scratch)
    assert tmp.parent == scratch and tmp.is_file() and len(calls) == 2
    assert not target.parent.exists()  # the output folder is still made only when a file is committed


def test_a_live_build_s_temporaries_survive_a_sweep_and_a_dead_one_s_do_not(tmp_path: Path) -> None:
    scratch = tmp_path / atomic.TMP_DIR
    scratch.mkdir()
    mine = scratch / f"{atomic.TMP_PREFIX}{os.getpid()}-a.pdf"
    dead = scratch / f"{atomic.TMP_PREFIX}999999999-b.pdf"  # no process has this id
    mine.write_bytes(b"%PDF")
    dead.write_bytes(b"%PDF")
    atomic.sweep_stale(scratch)
    assert mine.exists() and not dead.exists() and scratch.is_dir()
    mine.unlink()
    atomic.sweep_stale(scratch)
    assert not scratch.exists()
