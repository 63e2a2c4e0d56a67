"""Benchmark: synthetic decks of distinct cards built by mazmorra vs. plain ReportLab, measured in
the same run; plus the time to build every sample pack.

    python bench/run.py [--sizes 100,1000,10000] [--repeat 3]

Each measurement runs in a fresh process (so peak memory is its own); the best of --repeat runs
is reported. Targets: >= 300 distinct cards/s on one core, <= 1.5x the baseline, 10,000 cards
under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from synth import make_pack  # noqa: E402


def child(*args: str) -> dict:
    res = subprocess.run(
        [sys.executable, str(HERE / "_child.py"), *args],
        capture_output=True,
        text=True,
        env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    if res.returncode != 0:
        raise SystemExit(f"benchmark child failed: {' '.join(args)}\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def make_timing(root: Path) -> dict[str, float]:
    """Clean `make` of every sample pack with one job and with two (one process per deck and language)."""
    import shutil

    proj = root / "make"
    shutil.copytree(REPO / "content", proj / "content")
    shutil.copy(REPO / "Makefile", proj / "Makefile")
    shutil.copy(REPO / "pyproject.toml", proj / "pyproject.toml")
    bin_dir = proj / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "mazmorra").write_text(f'#!/bin/sh\nexec {sys.executable} -m mazmorra "$@"\n')
    (bin_dir / "mazmorra").chmod(0o755)
    (proj / ".venv" / ".installed").touch()
    env = {"CI": "1", "PATH": "/usr/bin:/bin"}
    times = {}
    for jobs in ("1", "2"):
        shutil.rmtree(proj / "output", ignore_errors=True)
        t0 = time.perf_counter()
        res = subprocess.run(["make", f"-j{jobs}"], cwd=proj, env=env, capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"make -j{jobs} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
        times[jobs] = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(["make"], cwd=proj, env=env, check=True, capture_output=True)
    times["noop"] = time.perf_counter() - t0
    return times


def best(runs: list[dict]) -> dict:
    top = min(runs, key=lambda r: r["seconds"])
    return {**top, "peak_mb": max(r["peak_mb"] for r in runs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="mz-bench-") as tmp:
        root = Path(tmp)
        print(
            f"{'cards':>6} {'mazmorra s':>10} {'cards/s':>8} {'peak MB':>8} {'baseline s':>10} "
            f"{'base MB':>8} {'ratio':>6} {'pages':>6}"
        )
        for n in sizes:
            pack = make_pack(root, n)
            dump = root / f"ops{n}.pickle"
            subprocess.run(
                [sys.executable, str(HERE / "_child.py"), "dump", str(pack), "es", str(dump)],
                check=True,
            )
            repeat = 1 if n >= 10000 else args.repeat
            mz, base = [], []
            for _ in range(repeat):  # interleaved, so both see the same machine state
                mz.append(child("mazmorra", str(pack), "es", str(root / "out")))
                base.append(child("baseline", str(dump), str(root / f"base{n}.pdf")))
            m, b = best(mz), best(base)
            row = {
                "cards": n,
                "seconds": round(m["seconds"], 3),
                "cards_per_s": round(n / m["seconds"], 1),
                "peak_mb": round(m["peak_mb"], 1),
                "baseline_seconds": round(b["seconds"], 3),
                "baseline_peak_mb": round(b["peak_mb"], 1),
                "ratio": round(m["seconds"] / b["seconds"], 2),
                "pages": m["pages"],
            }
            rows.append(row)
            print(
                f"{n:>6} {row['seconds']:>10.2f} {row['cards_per_s']:>8.0f} {row['peak_mb']:>8.0f} "
                f"{row['baseline_seconds']:>10.2f} {row['baseline_peak_mb']:>8.0f} {row['ratio']:>6.2f} "
                f"{row['pages']:>6}",
                flush=True,
            )
        t0 = time.perf_counter()
        res = subprocess.run(
            [sys.executable, "-m", "mazmorra", "build", "--out", str(root / "samples")],
            cwd=REPO,
            capture_output=True,
            text=True,
            env={"CI": "1", "PATH": "/usr/bin:/bin"},
        )
        samples = time.perf_counter() - t0
        if res.returncode != 0:
            raise SystemExit(f"sample build failed:\n{res.stderr}")
        pdfs = len(list((root / "samples").rglob("*.pdf")))
        print(f"all sample packs: {pdfs} PDFs in {samples:.2f} s (one process, every language)")
        mk = make_timing(root)
        print(
            f"make, all sample packs from clean: -j1 {mk['1']:.2f} s, -j2 {mk['2']:.2f} s "
            f"(speed-up {mk['1'] / mk['2']:.2f}x); make with nothing changed: {mk['noop']:.2f} s"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "decks": rows,
                    "samples_seconds": round(samples, 2),
                    "make_seconds": {k: round(v, 2) for k, v in mk.items()},
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
