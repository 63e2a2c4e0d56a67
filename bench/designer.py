"""Benchmark of issue 27: what a designer waits for, before and after, measured side by side.

    python bench/designer.py [--before COMMIT | --before /work/main/.venv/bin/python] [--pairs 5] [--cards 2000] [--no-preview]

"before" runs another checkout's tool (its Python, with that checkout installed in it, and that
checkout's Makefile; or a commit of this repository, extracted to a temporary folder and run by this
checkout's Python with its source first on the path); "after" runs this one. Every figure is a pair of runs alternated (before then
after, after then before, ...) on copies of the same content, so both see the same machine; each is
reported as the median with its spread (min-max) and the ratio after / before (below 1: faster).
Without --before, only this checkout is measured (with and without its face cache, MAZMORRA_FACE_CACHE=0).

Targets (issue 27, the preview's tightened by issue 38): one card saved -> its deck's PDF (`build
--changed-only`) <= 1 s; the preview's card edit -> image <= 150 ms, shared template edit -> page <= 1.5 s; a 2,000-card line in two
languages <= 8 s from clean and <= 3 s after a one-card save; no-op `make` <= 0.3 s; all sample
packs by `make -j2` from clean no slower than one `mazmorra build` of the same content.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from synth import make_pack  # noqa: E402

ENV = {"CI": "1", "NO_COLOR": "1", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


CPU: list[float] = []  # the CPU seconds (user + system, every process it ran) of each measured command, in order


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _start() -> tuple[float, float]:
    return time.perf_counter(), _cpu()


def _took(t0: tuple[float, float]) -> float:
    """Wall seconds since t0; the CPU seconds the command used go to CPU (a shared machine's wall
    time moves with its load, CPU time much less)."""
    CPU.append(_cpu() - t0[1])
    return time.perf_counter() - t0[0]


class Side:
    """One tool under test: its Python (the checkout installed in it) and its Makefile."""

    def __init__(self, name: str, python: str, makefile: Path, env: dict[str, str] | None = None):
        self.name, self.python, self.makefile, self.env = name, python, makefile, env or {}

    def run(self, *args: str, cwd: Path) -> float:
        t0 = _start()
        res = subprocess.run(
            [self.python, "-m", "mazmorra", *args], cwd=cwd, env={**ENV, **self.env}, capture_output=True, text=True
        )
        took = _took(t0)
        if res.returncode != 0:
            raise SystemExit(f"{self.name}: mazmorra {' '.join(args)} failed:\n{res.stderr[-3000:]}")
        return took

    def project(self, root: Path, packs: list[Path]) -> Path:
        """A project folder of its own: the packs, the Makefile, a .venv whose mazmorra is this side's."""
        proj = root / self.name
        for pack in packs:
            shutil.copytree(pack, proj / "content" / pack.name)
        shutil.copy(self.makefile, proj / "Makefile")
        shutil.copy(self.makefile.parent / "pyproject.toml", proj / "pyproject.toml")  # what .venv/.installed follows
        shutil.copytree(self.makefile.parent / "requirements", proj / "requirements")
        bin_dir = proj / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        (bin_dir / "mazmorra").write_text(f'#!/bin/sh\nexec {self.python} -m mazmorra "$@"\n')
        (bin_dir / "mazmorra").chmod(0o755)
        (bin_dir / "python").write_text(f'#!/bin/sh\nexec {self.python} "$@"\n')
        (bin_dir / "python").chmod(0o755)
        (proj / ".venv" / ".installed").touch()
        return proj

    def make(self, proj: Path, *args: str) -> float:
        t0 = _start()
        res = subprocess.run(["make", *args], cwd=proj, env={**ENV, **self.env}, capture_output=True, text=True)
        took = _took(t0)
        if res.returncode != 0:  # said, and left out of the figures (main's make -j2 can fail: #27's notes)
            print(f"{self.name}: make {' '.join(args)} FAILED:\n{res.stderr[-600:]}", flush=True)
            return float("nan")
        return took


CPU_TIMES: dict[int, dict[str, list[float]]] = {}  # id of a paired() result -> the same runs' CPU seconds


def paired(sides: list[Side], pairs: int, one: Callable[[Side, int], float]) -> dict[str, list[float]]:
    """`one(side, i)` for every side, `pairs` times, the order of the sides alternated each time; the
    wall times (the CPU times of the same runs in CPU_TIMES)."""
    times: dict[str, list[float]] = {s.name: [] for s in sides}
    cpu: dict[str, list[float]] = {s.name: [] for s in sides}
    for i in range(pairs):
        for side in sides if i % 2 == 0 else list(reversed(sides)):
            before = len(CPU)
            times[side.name].append(one(side, i))
            cpu[side.name].append(sum(CPU[before:]))
    CPU_TIMES[id(times)] = cpu
    return times


def line(what: str, times: dict[str, list[float]], target: float | None = None, unit: str = "s") -> str:
    """One figure: each side's median [min-max], the ratio of the last to the first, the target."""
    scale = 1000 if unit == "ms" else 1
    parts = []
    for name, runs in times.items():
        runs = [r for r in runs if r == r] or [float("nan")]  # a failed run (NaN) is not a time
        med = statistics.median(runs) * scale
        parts.append(f"{name} {med:.2f} [{min(runs) * scale:.2f}-{max(runs) * scale:.2f}] {unit}")
    names = list(times)
    if len(names) > 1:
        first, last = statistics.median(times[names[0]]), statistics.median(times[names[-1]])
        parts.append(f"{names[-1]} / {names[0]} = {last / first:.2f}")
    if target is not None:
        med = statistics.median(times[names[-1]])
        parts.append(f"target <= {target * scale:g} {unit}: {'ok' if med <= target else 'MISSED'}")
    out = f"{what:<44} wall: " + "; ".join(parts)
    cpu = CPU_TIMES.get(id(times))
    if cpu is not None:
        out += f"\n{'':<44} cpu:  " + "; ".join(
            f"{name} {statistics.median(runs):.2f} [{min(runs):.2f}-{max(runs):.2f}] s" for name, runs in cpu.items()
        )
        names = list(cpu)
        if len(names) > 1:
            out += f"; {names[-1]} / {names[0]} = {statistics.median(cpu[names[-1]]) / statistics.median(cpu[names[0]]):.2f}"
    return out


def _next_value(text: str, field: str, i: int, top: int, low: int = 0) -> str:
    """`text` with one card's `field` (a digit from `low` to `top`) set to a value that card never had in
    this run: save i edits the (i mod n)-th card, one step further round its range each time round, so
    every save is a face the cache has never seen (up to n × (top - low) saves), not a value it holds
    from the save before last."""
    found = list(re.finditer(rf"^  {field}: (\d+)$", text, flags=re.MULTILINE))
    if not found:
        raise SystemExit(f"the benchmark's card edit found no {field}")
    m = found[i % len(found)]
    rounds = i // len(found)
    if rounds >= top - low:
        raise SystemExit(f"the benchmark's card edit ran out of new values for {field} ({i} saves)")
    value = low + (int(m.group(1)) - low + 1) % (top - low + 1)
    return f"{text[: m.start(1)]}{value}{text[m.end(1) :]}"


def _edit_card(pack: Path, i: int) -> None:
    """Save one card of the expedition's trick deck with a value it never had (both languages print it)."""
    deck = pack / "decks" / "artimanas.yaml"
    text = _next_value(deck.read_text(encoding="utf-8"), "centre_value", i, 9, 1)
    time.sleep(0.02)  # a save after the last build, not within its clock tick
    deck.write_text(text, encoding="utf-8")


def _edit_synth(pack: Path, i: int) -> None:
    deck = pack / "decks" / "cartas.yaml"
    text = _next_value(deck.read_text(encoding="utf-8"), "value", i, 5)
    time.sleep(0.02)
    deck.write_text(text, encoding="utf-8")


def _checkout(rev: str, into: Path) -> str:
    """The tool as it was at commit `rev` of this repository (git archive, outside any worktree), run by
    this checkout's Python with that source first on its path: a Python to pass as --before."""
    commit = subprocess.check_output(["git", "-C", str(REPO), "rev-parse", "--verify", f"{rev}^{{commit}}"], text=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit.strip()], check=True, capture_output=True
    )
    src = into / "before"
    src.mkdir()
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    python = into / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH={src / "cli"} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    return str(python)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--before",
        help="a commit of this repository, or the Python of a checkout to compare with (its Makefile beside it)",
    )
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--no-preview", action="store_true")
    ap.add_argument("--preview-rounds", type=int, default=2, help="servers started per side for the preview figures")
    ap.add_argument("--only", default="card,line,make,preview", help="which figures: card,line,make,preview")
    args = ap.parse_args()
    after = Side("after", sys.executable, REPO / "Makefile")
    keep = tempfile.TemporaryDirectory(prefix="mz-before-")  # a commit's checkout, for as long as this runs
    content = REPO / "content"  # the sample packs both sides build
    if args.before and not Path(args.before).exists():  # a commit (or tag, branch) of this repository
        args.before = _checkout(args.before, Path(keep.name))
        content = Path(keep.name) / "before" / "content"  # as that commit has them: its tool can read them
    if args.before:
        checkout = Path(
            subprocess.check_output([args.before, "-c", "import mazmorra; print(mazmorra.__file__)"], text=True).strip()
        )
        before = Side("before", args.before, checkout.parents[2] / "Makefile")
    else:
        before = Side("no-cache", sys.executable, REPO / "Makefile", {"MAZMORRA_FACE_CACHE": "0"})
    sides = [before, after]
    print(f"{before.name}: {before.python}; after: {after.python}; {args.pairs} alternated pairs\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="mz-designer-") as tmp:
        root = Path(tmp)

        only = set(args.only.split(","))
        # 1. One card saved -> its deck's PDF, as make runs it (the pack built once before).
        if "card" in only:
            projects = {s.name: s.project(root / "card", [content / "expedicion"]) for s in sides}
            for s in sides:
                s.run("build", "expedicion", "--out", "output", cwd=projects[s.name])

            # each side edits its own copy, each save a value that card never had (never a cache hit)
            counts = {s.name: 0 for s in sides}

            def card_own(side: Side, i: int) -> float:
                proj = projects[side.name]
                _edit_card(proj / "content" / "expedicion", counts[side.name])
                counts[side.name] += 1
                return side.run("build", "expedicion", "--changed-only", "--out", "output", cwd=proj)

            print(
                line("one card saved -> deck PDF (build --changed-only)", paired(sides, args.pairs, card_own), 1.0),
                flush=True,
            )

        # 2. A line of N distinct cards in two languages: from clean, then one card saved.
        if "line" in only:
            synth = make_pack(root / "synth-src", args.cards)
            big = {s.name: s.project(root / "big", [synth]) for s in sides}

            def clean(side: Side, i: int) -> float:
                proj = big[side.name]
                shutil.rmtree(proj / "output", ignore_errors=True)  # the face cache too: a cold build
                return side.run("build", synth.name, "--out", "output", "-j", "2", cwd=proj)

            saves = {s.name: 0 for s in sides}

            def save(side: Side, i: int) -> float:
                proj = big[side.name]
                _edit_synth(proj / "content" / synth.name, saves[side.name])
                saves[side.name] += 1
                return side.run("build", synth.name, "--changed-only", "--out", "output", "-j", "2", cwd=proj)

            n = max(1, args.pairs // 2)
            print(line(f"{args.cards} cards x 2 languages, from clean (-j2)", paired(sides, n, clean), 8.0), flush=True)
            print(line(f"{args.cards} cards x 2 languages, one card saved", paired(sides, n, save), 3.0), flush=True)

        # 3. make: every sample pack from clean with -j2 against one `mazmorra build -j2` of the same;
        if "make" in only:
            # then a no-op make.
            samples = sorted(p for p in content.iterdir() if (p / "pack.yaml").is_file())
            makes = {s.name: s.project(root / "make", samples) for s in sides}

            def make_clean(side: Side, i: int) -> float:
                shutil.rmtree(makes[side.name] / "output", ignore_errors=True)
                return side.make(makes[side.name], "-j2")

            def one_build(side: Side, i: int) -> float:
                shutil.rmtree(makes[side.name] / "output", ignore_errors=True)
                return side.run("build", "--out", "output", "-j", "2", cwd=makes[side.name])

            def noop(side: Side, i: int) -> float:
                return side.make(makes[side.name])

            m = max(1, args.pairs // 2)
            made = paired(sides, m, make_clean)
            built = paired(sides, m, one_build)
            print(line("all samples: make -j2 from clean", made), flush=True)
            print(line("all samples: one mazmorra build -j2 from clean", built), flush=True)
            for s in sides:
                ratio = statistics.median(made[s.name]) / statistics.median(built[s.name])
                ok = "ok" if ratio <= 1.0 else "MISSED"
                print(
                    f"{'':<44} {s.name}: make -j2 / one build = {ratio:.2f} (target <= 1: {ok if s is after else '-'})"
                )
            make_clean(before, 0), make_clean(after, 0)  # built, for the no-op
            print(line("no-op make", paired(sides, args.pairs, noop), 0.3), flush=True)

        # 4. The live preview (headless Chromium): card edit -> image; shared template edit -> page.
        if not args.no_preview and "preview" in only:
            import live

            # Servers alternated (before, after, after, before, …), `--preview-rounds` each: the card
            # figure is the median of every edit of every round; the template figure of every round.
            got: dict[str, list[dict[str, float]]] = {s.name: [] for s in sides}
            for i in range(args.preview_rounds):
                for s in sides if i % 2 == 0 else list(reversed(sides)):
                    run = live.preview(root, s.python, f"serve-{s.name}-{i}", content.parent, idle=i == 0)
                    got[s.name].append(run)
            edits = {
                name: [v / 1000 for r in runs for k, v in r.items() if k.removeprefix("card_ms_").isdigit()]
                for name, runs in got.items()
            }
            print(line("preview: card edit -> image (every edit)", edits, 0.150, "ms"), flush=True)
            pages = {name: [r["template_ms"] / 1000 for r in runs] for name, runs in got.items()}
            print(line("preview: template edit -> page", pages, 1.5, "ms"), flush=True)
            idle = ", ".join(f"{name} {runs[0]['idle_cpu_percent']:.2f} %" for name, runs in got.items())
            print(f"{'preview: idle CPU (10 s)':<44} {idle} (target ~0)", flush=True)


if __name__ == "__main__":
    main()
