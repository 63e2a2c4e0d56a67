"""Helpers that lay one deck out ahead of the build (layout/ahead.py, `build -j N` with fewer
documents than jobs): the same bytes and the same report as one process, every face counted once,
and a helper that fails changes nothing but the time."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import WAIT, calls_of, edit, wait_until

from mazmorra.build.pipeline import BuildOptions, BuildResult, build
from mazmorra.layout import ahead, face

pytestmark = pytest.mark.slow  # not in the fast tier: helper processes laying decks out ahead of whole builds

DECK = "artimanas"  # expedicion's largest deck: 49 tricks


def _build(pack: Path, out: str, jobs: int) -> BuildResult:
    opts = BuildOptions(langs=("en",), decks=(DECK,), out_dir=pack.parents[1] / out, jobs=jobs)
    return build(pack, opts)


def _pdf(pack: Path, out: str) -> bytes:
    return (pack.parents[1] / out / "expedicion" / "en" / "tricks.pdf").read_bytes()  # the deck's English name


@pytest.fixture
def helped(pack_copy, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """expedicion, its 49-card deck worth helpers."""
    monkeypatch.setattr(ahead, "MIN_COMPONENTS", 4)
    pack: Path = pack_copy("expedicion")
    monkeypatch.chdir(pack.parents[1])
    return pack


def _share(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process waits at its first card until the helpers have taken half the deck: they share
    the work however busy the machine is."""
    real = ahead.Ahead.reached

    def reached(self: ahead.Ahead, i: int) -> None:
        deadline = time.monotonic() + WAIT
        while i == 0 and self._pids and self._next.value > self.count // 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        return real(self, i)

    monkeypatch.setattr(ahead.Ahead, "reached", reached)


def test_helpers_lay_the_deck_out_ahead_and_the_pdf_is_the_same_bytes(helped: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    alone = _build(helped, "one", jobs=1)
    _share(monkeypatch)
    here = calls_of(
        monkeypatch, face, "_lay_face", lambda *a: f"{a[1].component}/{a[1].side}"
    )  # faces this process lays out itself
    two = _build(helped, "two", jobs=3)  # two helpers
    assert _pdf(helped, "one") == _pdf(helped, "two")
    assert sorted(two.laid_out) == sorted(alone.laid_out) and len(two.laid_out) == len(set(two.laid_out)) >= 49
    assert len(here) <= len(alone.laid_out) - 24, here  # the helpers laid half the deck out, or more
    assert [p.format() for p in two.warnings] == [p.format() for p in alone.warnings]


def test_a_warm_build_with_helpers_lays_out_nothing_and_an_edit_exactly_that_card(helped: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _share(monkeypatch)
    _build(helped, "output", jobs=2)
    assert _build(helped, "output", jobs=2).laid_out == []
    deck = helped / "decks" / f"{DECK}.yaml"  # its last card, which a helper lays out: its value
    edit(
        deck,
        '  value: 1\n  effect: "Cuando un rival gane un becario',
        '  value: 2\n  effect: "Cuando un rival gane un becario',
    )
    again = _build(helped, "output", jobs=2)
    assert again.laid_out == ["en/entrevista-exclusiva/front"], again.laid_out


def test_a_helper_that_fails_changes_nothing_but_the_time(helped: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A helper that stops after three cards (an exception in its layout): this process lays out
    what it left, and counts every face once."""
    alone = _build(helped, "one", jobs=1)
    parent, real, done = os.getpid(), face._lay_face, [0]

    def failing(*args):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            done[0] += 1
            if done[0] > 3:
                raise RuntimeError("a helper's bug")
        return real(*args)

    monkeypatch.setattr(face, "_lay_face", failing)
    res = _build(helped, "two", jobs=2)
    assert _pdf(helped, "one") == _pdf(helped, "two")
    assert sorted(res.laid_out) == sorted(alone.laid_out)
    assert [p.format() for p in res.warnings] == [p.format() for p in alone.warnings]


@pytest.mark.parametrize("refused", ["fork", "shared memory"])
def test_a_system_that_refuses_helpers_builds_the_deck_alone(helped: Path, monkeypatch, refused: str) -> None:  # type: ignore[no-untyped-def]
    alone = _build(helped, "one", jobs=1)

    def no(*args: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    if refused == "fork":
        monkeypatch.setattr(ahead.os, "fork", no)
    else:
        monkeypatch.setattr(ahead.multiprocessing, "get_context", no)
    res = _build(helped, "two", jobs=2)
    assert _pdf(helped, "one") == _pdf(helped, "two")
    assert sorted(res.laid_out) == sorted(alone.laid_out)


def _cards(log: Path) -> int:
    """Cards the helpers started, as noted in log."""
    return len(log.read_text().splitlines()) if log.exists() else 0


def _stopped(pid: int) -> bool:
    """Whether the process has stopped itself (SIGSTOP): its state in /proc is T."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


def _procs_in(folder: Path) -> list[int]:
    """The live processes working in `folder` (a build and its helpers: forks keep its working folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if Path(os.readlink(entry / "cwd")) == folder and (entry / "stat").read_text().split()[2] != "Z":
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see processes")
def test_a_build_killed_outright_leaves_no_helper_behind(pack_copy) -> None:
    """A real `build -j 2` process (the 49-card deck worth helpers), stopped at its first chunk and
    killed (SIGKILL: no cleanup runs): its helper stops on its own after the card it is on, long
    before it would have laid out its share; nothing reaches output/."""
    import signal
    import subprocess
    import sys

    project = pack_copy("expedicion").parents[1].resolve()
    cards = project / "helper-cards"  # a line per card a helper starts
    env = dict(os.environ, CI="1", MAZMORRA_STOP_AT="chunk", MAZMORRA_CHUNK_PAGES="4")
    env.pop("MAZMORRA_JOBS", None)
    argv = ["mazmorra", "build", "expedicion", "-d", DECK, "--lang", "es", "-j", "2"]
    code = f"""
import os, sys, time
from mazmorra.layout import ahead, face
ahead.MIN_COMPONENTS = 4
parent, real = os.getpid(), face._lay_face
def slow(*args):  # a helper takes 0.5 s a card: its share would take ~15 s, were it not to stop
    if os.getpid() != parent:
        with open({str(cards)!r}, "a") as f:
            f.write("card\\n")
        time.sleep(0.5)
    return real(*args)
face._lay_face = slow
sys.argv = {argv!r}
from mazmorra.commands import main
main()
"""
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=project, env=env, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: proc.poll() is not None or _stopped(proc.pid), "the build to stop at its first chunk")
        assert proc.poll() is None, "the build ended before its first chunk was written"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    started = _cards(cards)
    wait_until(lambda: _procs_in(project) == [], "the helper to stop")  # after the card it is on
    assert _cards(cards) <= started + 1, "the helper went on laying out cards once the build was killed"
    assert not list((project / "output").rglob("*.pdf"))
