"""What each store between builds costs a cold build and saves a designer's save (issue 38, item 1).

    python bench/stores.py [--cards 1000] [--pairs 3] [--stores faces,chunks,...] [--json out.json]
    python bench/stores.py --sample expedicion --stores "svg picture"

A store is one folder of the build's cache (`<out>/.cache/`: faces, chunks, forms, templates,
colour-only) or one kind of entry of the early stages' memo in its checks/ folder (yaml, yaml items,
font, po, glossary, house, svg picture; the kinds index is shipped with the package since issue 38). For each store, builds with every store (`all`) and builds with
that one turned off (every read misses, nothing written: bench/_child.py `stores_off`) run in fresh
processes, paired and alternated (`all` first, then the other first), on a synthetic pack of
`--cards` distinct cards (bench/synth.py), or with `--sample expedicion` on a copy of that sample
pack (for the stores a synthetic pack does not exercise: its trick cards print an SVG picture), a save
then editing one of its trick cards (bench/designer.py's `_edit_card`):

- cold: `build -j1` into an empty output folder;
- save: one card saved with a value never built before (bench/designer.py's counter), then
  `build -j1` into the folder the cold build left.

The figure is CPU seconds (user + system, from wait4). Printed per store: cold with it − cold
without it (whole builds: a shared machine moves one by ±10 %, more than most stores cost), the CPU
its own reads and writes took inside the cold build with every store (`time.process_time` around
them; the face cache's encoding counts as its own; keys, which every store hashes, are printed
apart), save without it − save with it (what it saves a designer), medians with the per-pair
min..max, and a verdict (`judge`). A store name that turns no read or write away is said to be
unexercised (the synthetic pack has no glossary), never reported as costing nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from designer import _edit_card, _edit_synth  # noqa: E402
from synth import make_pack  # noqa: E402

STORES = (
    "faces",
    "chunks",
    "forms",
    "templates",
    "colour-only",
    "yaml",
    "yaml items",
    "font",
    "po",
    "glossary",
    "house",
    "svg picture",
)
SAMPLES = {"expedicion": _edit_card}  # sample packs `--sample` measures on, and how a save edits each


def build(pack: Path, out: Path, off: str | None) -> tuple[float, dict[str, float]]:
    """One `build -j1` of `pack` into `out` in a fresh process with store `off` turned off: its CPU
    seconds, and the CPU seconds each other store's reads and writes took inside it. A store that
    turned no read or write away is one this build does not exercise (`Unused`)."""
    env = {"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/"), "CI": "1"}
    env["MZ_BENCH_STORES_OFF"] = off or ""
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_child.py"), "mazmorra", str(pack), "es", str(out), "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    report = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"build failed with {off or 'every store'} off:\n{err[-3000:]}")
    found = json.loads(report.strip().splitlines()[-1])["stores_off"]
    if off and not (found["reads"] or found["writes"]):
        raise Unused(off)
    return usage.ru_utime + usage.ru_stime, found["seconds"]


class Unused(Exception):
    """A store the build never read nor wrote: this pack does not exercise it (or the tool has no store
    of that name any more)."""


def measure(
    pack: Path, root: Path, store: str, pairs: int, saves: Iterator[int], edit: Callable[[Path, int], None]
) -> dict[str, list[float]]:
    """`pairs` paired rounds of cold and save builds, with every store and without `store`; "inside"
    is the CPU the store's own reads and writes took in each cold build with every store, "keys" what
    hashing the keys of every store took there."""
    runs: dict[str, list[float]] = {
        "cold all": [],
        "cold off": [],
        "save all": [],
        "save off": [],
        "inside": [],
        "keys": [],
    }
    for p in range(pairs):
        order = [("all", None), ("off", store)] if p % 2 == 0 else [("off", store), ("all", None)]
        for side, off in order:
            out = root / f"out-{side}"
            shutil.rmtree(out, ignore_errors=True)
            cpu, spent = build(pack, out, off)
            runs[f"cold {side}"].append(cpu)
            if off is None:
                runs["inside"].append(spent.get(store, 0.0))
                runs["keys"].append(spent.get("keys", 0.0))
        edit(pack, next(saves))  # a value no build has seen: a face neither side's cache holds
        for side, off in order:
            runs[f"save {side}"].append(build(pack, root / f"out-{side}", off)[0])
    return runs


def judge(inside: list[float], cold: float, gain: list[float]) -> str:
    """A store's verdict: what its own reads and writes cost a cold build (timed inside the build: a
    lower bound, precise) against what it saves a save (the paired difference, counted only when every
    pair shows it, since a shared machine moves one whole build by more than most stores cost)."""
    spent, g = statistics.median(inside), statistics.median(gain)
    if min(gain) > 0 and g > spent:
        return f"pays its way (saves a save {g / max(spent, 1e-3):.0f}x what it costs a cold build)"
    if spent < 0.01 * cold:
        return "costs a cold build under 1 %; no gain measured on this pack"
    return "DOES NOT PAY (costs a cold build 1 % or more, saves a save less)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--sample", choices=sorted(SAMPLES), help="a copy of this sample pack instead of synthetic cards")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--stores", default=",".join(STORES))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    stores = [s for s in args.stores.split(",") if s]
    unknown = sorted(set(stores) - set(STORES))
    if unknown:
        raise SystemExit(f"unknown stores {unknown}; known: {', '.join(STORES)}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="mz-stores-") as tmp:
        root = Path(tmp)
        if args.sample:
            pack = root / "p" / "content" / args.sample
            shutil.copytree(HERE.parent / "content" / args.sample, pack)
            edit, what = SAMPLES[args.sample], f"the {args.sample} sample pack"
        else:
            pack, edit, what = make_pack(root / "p", args.cards), _edit_synth, f"{args.cards} cards"
        saves = itertools.count()
        build(pack, root / "warm-up", None)  # the first process of a run pays for the disk's cold caches
        print(
            f"{what}, es, build -j1, CPU s (user + sys), {args.pairs} pairs a store; "
            "cost = cold with − cold without; saves = save without − save with"
        )
        for store in stores:
            try:
                runs = measure(pack, root, store, args.pairs, saves, edit)
            except Unused:
                print(f"{store:12s} never read nor written by this build: not measured", flush=True)
                results[store] = {"verdict": "not exercised"}
                continue
            cost = [a - o for a, o in zip(runs["cold all"], runs["cold off"])]
            gain = [o - a for a, o in zip(runs["save all"], runs["save off"])]
            cold = statistics.median(runs["cold all"])
            c, g = statistics.median(cost), statistics.median(gain)
            verdict = judge(runs["inside"], cold, gain)
            results[store] = {**runs, "cost": cost, "gain": gain, "verdict": verdict}
            inside, save = statistics.median(runs["inside"]), statistics.median(runs["save all"])
            print(
                f"{store:12s} cold {cold:5.2f} s, costs {c:+.3f} [{min(cost):+.3f}..{max(cost):+.3f}] "
                f"({100 * c / cold:+.1f} %), its reads and writes {inside:.3f} s; "
                f"save {save:5.2f} s, saves {g:+.3f} [{min(gain):+.3f}..{max(gain):+.3f}]: {verdict}",
                flush=True,
            )
        keys = [k for r in results.values() for k in r.get("keys", [])]
        if keys:
            print(f"keys hashed for every store: {statistics.median(keys):.3f} s a cold build")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
