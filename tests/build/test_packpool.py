"""`mazmorra build -j N` of several packs: the packs shared out over one pool of processes
(build/packpool.py), reported in order as one process reports them, each pack still all or nothing."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import WAIT, line_of, run_cli, tree_snapshot, wait_until

from mazmorra.build import packpool
from mazmorra.build.packpool import languages, plan, weight

pytestmark = pytest.mark.slow  # not in the fast tier: pools of worker processes building several packs

PACKS = ("engranajes", "generada", "grimorio")  # none as heavy as the other two together


def _report(stderr: str) -> list[str]:
    """The lines a build reports per pack (the ✓ lines without their time, the summaries of failures)."""
    lines = [re.sub(r" in [0-9.]+ s$", "", line) for line in stderr.splitlines()]
    return [line for line in lines if line.startswith(("✓", "✗")) or "error(s)" in line]


def _takers(monkeypatch: pytest.MonkeyPatch, into: Path, meet: bool = False) -> Callable[[], list[list[str]]]:
    """Every pack build noted in `into` as "pid pack jobs" (a forked worker inherits the patch); with
    `meet`, this process starts its first pack only once another process has taken one. The lines
    read so far, split."""
    real, here = packpool.build_one, str(os.getpid())

    def taken() -> list[list[str]]:
        return [line.split() for line in into.read_text().splitlines()] if into.exists() else []

    def noted(pack_dir: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        with into.open("a") as f:
            f.write(f"{os.getpid()} {pack_dir.name} {kwargs.get('jobs')}\n")
        if meet and str(os.getpid()) == here:
            wait_until(lambda: any(pid != here for pid, _, _ in taken()), "the forked worker to take a pack")
        return real(pack_dir, *args, **kwargs)

    monkeypatch.setattr(packpool, "build_one", noted)
    return taken


def test_packs_shared_out_write_the_same_bytes_and_report_as_one_process(pack_copy, monkeypatch, tmp_path) -> None:
    for name in PACKS:
        project = pack_copy(name).parents[1]
    taken = _takers(monkeypatch, tmp_path / "takers")
    one = run_cli("build", "-j", "1", "--out", "one", cwd=project)
    assert one.returncode == 0, one.stderr
    assert [pid for pid, _, _ in taken()] == [str(os.getpid())] * 3  # -j1: this process, one pack after another
    (tmp_path / "takers").unlink()
    two = run_cli("build", "-j", "2", "--out", "two", cwd=project)
    assert two.returncode == 0, two.stderr
    assert sorted(name for _, name, _ in taken()) == sorted(PACKS)
    assert {jobs for _, _, jobs in taken()} == {"1"}  # each pack at -j1 in whichever process took it
    pdfs = {k: v for k, v in tree_snapshot(project / "one").items() if k.endswith(".pdf")}
    assert len(pdfs) >= 3 * 2 and pdfs == {
        k: v for k, v in tree_snapshot(project / "two").items() if k.endswith(".pdf")
    }
    assert _report(two.stderr) == _report(one.stderr) and len(_report(one.stderr)) == 3
    for name in PACKS:
        assert f"rendered {name}/en/" in two.stderr  # the pool's processes said what they rendered
    assert two.stdout.replace("two/", "one/") == one.stdout  # every output listed, in the same order


def test_the_pool_uses_its_processes(pack_copy, monkeypatch, tmp_path) -> None:
    """The forked worker takes packs while this process builds its own (which waits for it to: however
    late a busy machine starts the worker, it is not left idle)."""
    for name in PACKS:
        project = pack_copy(name).parents[1]
    taken = _takers(monkeypatch, tmp_path / "takers", meet=True)
    res = run_cli("build", "-j", "2", cwd=project)
    assert res.returncode == 0, res.stderr
    pids = [pid for pid, _, _ in taken()]
    assert len(pids) == 3 and len(set(pids)) == 2 and str(os.getpid()) in pids


def test_a_broken_pack_in_the_pool_leaves_the_others_built(pack_copy) -> None:
    for name in PACKS:
        project = pack_copy(name).parents[1]
    broken = project / "content" / "grimorio" / "pack.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("languages:", "languajes:", 1), encoding="utf-8")
    res = run_cli("build", "-j", "2", cwd=project)
    assert res.returncode == 1, res.stderr
    assert "not built: grimorio" in res.stderr and "Traceback" not in res.stderr
    line = line_of(broken, "languajes:")
    assert f"content/grimorio/pack.yaml:{line}:" in res.stderr and "[pack.languajes]" in res.stderr  # file:line, field
    for name in ("engranajes", "generada"):
        assert f"✓ {name}:" in res.stderr and list((project / "output" / name).rglob("*.pdf"))
    assert not (project / "output" / "grimorio").exists()
    assert not list(project.rglob(".mazmorra-tmp-*"))


def test_a_command_line_a_pooled_pack_cannot_take_is_a_usage_error(pack_copy) -> None:
    """grimorio has French, the others do not: the first pack in order that cannot take the command
    line stops it with a usage error, as one process would (what the pool built meanwhile is kept)."""
    for name in PACKS:
        project = pack_copy(name).parents[1]
    res = run_cli("build", "-j", "2", "--lang", "fr", cwd=project)
    assert res.returncode == 2, res.stderr
    assert "error: pack 'engranajes' has no language 'fr' (it has es, en)" in res.stderr
    assert "Traceback" not in res.stderr and "✓" not in res.stderr
    assert not list(project.rglob(".mazmorra-tmp-*"))


def test_the_plan_builds_a_heavy_pack_alone_and_shares_the_rest(tmp_path: Path) -> None:
    sizes = {"big": 9000, "a": 3000, "b": 2000, "c": 1000}
    for name, size in sizes.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "cards.yaml").write_text("x" * size)
        (tmp_path / name / "art.png").write_bytes(b"\0" * 100_000)  # not a source: weighs nothing
    big, a, b, c = dirs = [tmp_path / name for name in sizes]
    weights = {d: weight(d) for d in dirs}
    assert weights[big] == 9001
    assert plan(weights, 2) == ([big], [a, b, c])  # big alone takes as long as the rest together
    assert plan(weights, 4) == ([big], [a, b, c])  # a takes 3001 of 15004: less than a core's share
    assert plan(weights, 8) == (dirs, [])  # fewer than two packs left to share: one after another
    assert plan(weights, 1) == (dirs, [])
    assert plan({big: 9001, a: 3001}, 2) == ([big, a], [])


def test_the_languages_warmed_before_the_pool_forks_come_from_each_pack_yaml(tmp_path: Path) -> None:
    for name, text in {
        "a": "id: a\nlanguages: [es, en]\n",
        "b": "id: b\nlanguages: [en, fr]\n",
        "c": "id: [\n",
    }.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "pack.yaml").write_text(text)
    assert languages([tmp_path / n for n in "abc"]) == ["es", "en", "fr"]  # c's pack.yaml is broken: its build says so


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_make_builds_every_stale_pack_in_one_command(pack_copy, jobs: str) -> None:
    """The Makefile's one `mazmorra build --changed-only` of every stale pack, as make runs it."""
    for name in PACKS:
        project = pack_copy(name).parents[1]
    args = ["build", *PACKS, "--changed-only", "-j", jobs]
    first = run_cli(*args, cwd=project)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("✓") == 3
    again = run_cli(*args, cwd=project)
    assert again.returncode == 0 and "0 laid out" in again.stderr and "rendered" not in again.stderr


def _group_alive(group: int) -> bool:
    """Whether some process of the process group is still there."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_ctrl_c_stops_the_pool_and_leaves_only_whole_packs(pack_copy) -> None:
    """A real build of three packs at -j2, Ctrl-C (SIGINT to its process group, as a terminal sends
    it) once the pool is at work: exit 130, no process of it left, no temporary file once any command
    runs, and every PDF there is whole (a pack the pool finished before the interrupt is kept)."""
    import signal
    import subprocess
    import sys

    from pypdf import PdfReader

    for name in PACKS:
        project = pack_copy(name).parents[1]
    env = {k: v for k, v in os.environ.items() if k != "MAZMORRA_JOBS"} | {"CI": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazmorra", "build", "-j", "2"],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the terminal's Ctrl-C goes to all of it
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "rendered" in line:
                break
        os.killpg(proc.pid, signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(timeout=WAIT) == 130, rest
        assert "interrupted" in rest and "Traceback" not in rest
        wait_until(lambda: not _group_alive(proc.pid), "every process of the interrupted build to end")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert run_cli("kinds", cwd=project).returncode == 0  # any command sweeps what a stopped build left
    assert not list(project.rglob(".mazmorra-tmp*"))
    for pdf in (project / "output").rglob("*.pdf") if (project / "output").exists() else []:
        assert len(PdfReader(str(pdf)).pages) > 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_output_a_pooled_pack_cannot_write_stops_the_build_as_in_one_process(pack_copy, jobs: str) -> None:
    for name in PACKS:
        project = pack_copy(name).parents[1]
    (project / "output").mkdir()
    (project / "output" / "generada").write_text("a file where the pack's folder goes")
    res = run_cli("build", "-j", jobs, cwd=project)
    assert res.returncode == 1, res.stderr
    assert "error:" in res.stderr and "output/generada" in res.stderr and "Traceback" not in res.stderr
    assert "internal error" not in res.stderr
    assert not list(project.rglob(".mazmorra-tmp*"))


def test_pooled_packs_are_reported_in_order_as_soon_as_their_turn_comes(pack_copy, monkeypatch, tmp_path) -> None:
    """grimorio, the heaviest and so taken first (and the last in order), waits until the other
    process has built the other two: they are reported while it is still being built, in order."""
    from contextlib import nullcontext

    from mazmorra.build.args import BuildArgs
    from mazmorra.build.packpool import build_all

    dirs = [pack_copy(name) for name in PACKS]
    real = packpool.build_one

    def slow(pack_dir: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        others = [tmp_path / f"done-{name}" for name in PACKS if name != "grimorio"]
        if pack_dir.name == "grimorio":
            wait_until(lambda: all(p.exists() for p in others), "the other process to build the other two")
        built = real(pack_dir, *args, **kwargs)
        (tmp_path / f"done-{pack_dir.name}").write_text(repr(time.time()))  # whichever process built it
        return built

    monkeypatch.setattr(packpool, "build_one", slow)
    reported: list[tuple[str, float]] = []
    build_all(
        dirs,
        BuildArgs(jobs=2, out_dir=tmp_path / "output"),
        lambda total, label: nullcontext(lambda what, k: None),
        lambda built: reported.append((built.name, time.time())),
    )
    assert [name for name, _ in reported] == list(PACKS)
    grimorio_done = float((tmp_path / "done-grimorio").read_text())
    assert reported[0][1] < grimorio_done and reported[1][1] < grimorio_done
