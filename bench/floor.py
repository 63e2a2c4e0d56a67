"""How low a cold build can go: the cold `-j1` build of a synthetic deck beside the same build with
parts of its work taken away, and beside plain ReportLab drawing the same lines.

    python bench/floor.py [--sizes 1000] [--repeat 5] [--json out.json]

Variants, each `mazmorra build PACK --lang es -j1` in a fresh process (bench/_child.py), into a
fresh output folder unless said otherwise:

- **cold**: the build as shipped, with an empty face cache (bench/run.py's cold figure);
- **no cache**: the face cache turned off (`MAZMORRA_FACE_CACHE=0`): nothing stored for the next build;
- **no cache, no checks**: and the print checks (contrast, overlaps, safe area) skipped, which no
  shipped build can do (`MZ_BENCH_WITHOUT_CHECKS=1`, a bench-only switch in bench/_child.py);
- **warm**: the cold run's folder built again, every face from the cache: the build with its layout
  already done (loading, validating, drawing and writing remain);
- **baseline**: plain ReportLab drawing the final lines (bench/_child.py baseline).

Runs are paired and alternated (the order rotates each round), medians with min-max, wall and CPU
seconds (the baseline's CPU includes reading its pickled input, which its wall time leaves out). The last lines say what the layout of a card may cost for a cold build to meet a ratio
(issue 27: 1.6) when everything else costs what the warm build does, against what it costs now.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run import HERE, child  # also puts bench/ on sys.path
from synth import make_pack

TARGET = 1.6
VARIANTS = ("cold", "no cache", "no cache, no checks", "warm", "baseline")
ENV = {
    "no cache": {"MAZMORRA_FACE_CACHE": "0"},
    "no cache, no checks": {"MAZMORRA_FACE_CACHE": "0", "MZ_BENCH_WITHOUT_CHECKS": "1"},
}


def measure(root: Path, n: int, repeat: int) -> dict[str, list[dict]]:
    pack = make_pack(root, n)
    dump = root / f"ops{n}.pickle"
    subprocess.run([sys.executable, str(HERE / "_child.py"), "dump", str(pack), "es", str(dump)], check=True)
    runs: dict[str, list[dict]] = {v: [] for v in VARIANTS}
    for i in range(repeat):
        order = VARIANTS[i % len(VARIANTS) :] + VARIANTS[: i % len(VARIANTS)]
        if order.index("warm") < order.index("cold"):  # warm needs this round's cold folder: swap them
            order = tuple("cold" if v == "warm" else "warm" if v == "cold" else v for v in order)
        for v in order:
            out = root / f"{v.replace(' ', '').replace(',', '-')}{n}-{i}"
            if v == "baseline":
                runs[v].append(child("baseline", str(dump), str(root / f"base{n}.pdf")))
            elif v == "warm":
                runs[v].append(child("mazmorra", str(pack), "es", str(root / f"cold{n}-{i}")))
            else:
                runs[v].append(child("mazmorra", str(pack), "es", str(out), env=ENV.get(v)))
    return runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    report: dict[str, dict] = {}
    print(
        "cold -j1 build with parts of its work taken away, medians of paired alternated fresh processes "
        "(wall = the whole process, start-up included; ratio = wall / baseline wall)"
    )
    with tempfile.TemporaryDirectory(prefix="mz-floor-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            runs = measure(Path(tmp), n, args.repeat)
            med = {v: statistics.median(r["process_seconds"] for r in rs) for v, rs in runs.items()}
            cpu = {v: statistics.median(r["cpu_seconds"] for r in rs) for v, rs in runs.items()}
            base = med["baseline"]
            print(f"\n{n} cards, {args.repeat} rounds")
            print(f"  {'variant':<22} {'wall s':>7} {'min-max':>13} {'cpu s':>7} {'ratio':>6}")
            for v, rs in runs.items():
                walls = sorted(r["process_seconds"] for r in rs)
                print(
                    f"  {v:<22} {med[v]:>7.2f} {walls[0]:>6.2f}-{walls[-1]:<6.2f} {cpu[v]:>7.2f} {med[v] / base:>6.2f}"
                )
            allowed = TARGET * base - med["warm"]  # what layout may add to the warm build
            spent = med["cold"] - med["warm"]
            print(
                f"  layout's share (cold - warm): {spent:.2f} s, {spent / n * 1000:.2f} ms a card; for a cold ratio "
                f"of {TARGET} it may take {allowed:.2f} s ({max(allowed, 0) / n * 1000:.2f} ms a card): "
                + (
                    f"{spent / allowed:.1f}x less than now"
                    if allowed > 0
                    else "nothing: the warm build alone misses it"
                )
            )
            report[str(n)] = {
                "median_seconds": {v: round(t, 3) for v, t in med.items()},
                "median_cpu_seconds": {v: round(t, 3) for v, t in cpu.items()},
                "ratio": {v: round(t / base, 2) for v, t in med.items()},
                "layout_seconds": round(spent, 3),
                "layout_allowed_seconds": round(allowed, 3),
            }
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
