"""Cold `build -j1` CPU of this checkout against another commit, paired and alternated (issue 38).

    python bench/cold.py [--sizes 1000,10000] [--pairs 5] [--before REV] [--domdiv] [--json out.json]

Each run is a fresh process `python -m mazmorra build PACK --lang es -j1` into an empty output folder
(no face cache, nothing stored by an earlier build). "after" is this checkout; "before" is commit REV
(default 870e1a6, the commit before the face cache; `--after REV` likewise instead of this checkout), extracted with `git archive` and run by this
checkout's Python with its source first on the path. Pairs alternate (before first, then after first)
so both sides see the same machine state. The figure is CPU seconds (user + system of the process and
its children, from wait4), which a shared machine moves much less than the wall time; printed: the
ratio after / before of the medians first, then each side's median and min-max over the pairs.
`--domdiv` also measures domdiv's 773 dividers converted to a pack (bench/domdiv.py: real rules text).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from designer import _checkout  # noqa: E402
from synth import make_pack  # noqa: E402


def _env(python_path: str | None) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "HOME": os.environ.get("HOME", "/"), "CI": "1"}
    if python_path:
        env["PYTHONPATH"] = python_path
    return env


def cold(python_path: str | None, pack: Path, lang: str, out: Path) -> dict[str, float]:
    """One cold build in a fresh process: its CPU and wall seconds and peak memory (wait4)."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "mazmorra", "build", str(pack), "--lang", lang, "--out", str(out), "-j", "1"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=_env(python_path), cwd=out.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err[-3000:]}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "peak_mb": usage.ru_maxrss / 1024}


def paired(
    sides: dict[str, str | None], pack: Path, lang: str, pairs: int, root: Path
) -> dict[str, list[dict[str, float]]]:
    """`pairs` cold builds of each side, the order alternated every pair."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    names = list(sides)
    for i in range(pairs):
        for name in names if i % 2 == 0 else list(reversed(names)):
            runs[name].append(cold(sides[name], pack, lang, root / f"out-{name}"))
    return runs


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def report(what: str, runs: dict[str, list[dict[str, float]]]) -> dict[str, object]:
    before = [r["cpu"] for r in runs["before"]]
    after = [r["cpu"] for r in runs["after"]]
    ratio = statistics.median(after) / statistics.median(before)
    pair_ratios = sorted(a / b for a, b in zip(after, before))
    print(
        f"{what}: cold -j1 CPU after / before = {ratio:.2f} (per pair {pair_ratios[0]:.2f}-{pair_ratios[-1]:.2f}; "
        f"target <= 0.9); CPU s after {spread(after)}, before {spread(before)}; wall s after "
        f"{spread([r['wall'] for r in runs['after']])}, before {spread([r['wall'] for r in runs['before']])}; "
        f"peak MB after {max(r['peak_mb'] for r in runs['after']):.0f}, before {max(r['peak_mb'] for r in runs['before']):.0f}",
        flush=True,
    )
    return {"ratio": round(ratio, 3), "after_cpu": after, "before_cpu": before}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--before", default="870e1a6", help="a commit of this repository")
    ap.add_argument("--after", help="a commit to measure instead of this checkout (extracted like --before)")
    ap.add_argument("--domdiv", action="store_true", help="also domdiv's dividers (real rules text)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="mz-cold-") as tmp:
        root = Path(tmp)
        before_python = _checkout(args.before, root)
        before_path = str(root / "before" / "cli")
        assert Path(before_python).exists()
        sides: dict[str, str | None] = {"before": before_path, "after": None}
        if args.after:
            (root / "after").mkdir()
            _checkout(args.after, root / "after")
            sides["after"] = str(root / "after" / "before" / "cli")
        for n in [int(s) for s in args.sizes.split(",") if s]:
            pack = make_pack(root, n)
            pairs = max(3, args.pairs // 2) if n >= 10000 else args.pairs
            results[str(n)] = report(f"{n} synthetic cards", paired(sides, pack, "es", pairs, root))
        if args.domdiv:
            from domdiv import convert, install

            lib = install(HERE / ".scratch" / "domdiv")
            pack, count = convert(lib, root)
            spec = pack / "pack.yaml"  # `format: 2` is newer than 870e1a6, which refuses it: both read format 1
            spec.write_text(spec.read_text(encoding="utf-8").replace("format: 2\n", ""), encoding="utf-8")
            results["domdiv"] = report(f"domdiv's {count} dividers", paired(sides, pack, "en", args.pairs, root))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
