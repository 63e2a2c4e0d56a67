"""Benchmark: what storing a cold build's faces costs the face cache, per storage, in one run.

    python bench/facestore.py [--entries 4000] [--heap-mb 140] [--repeat 3]

A 2,000-card line in two languages lays out 4,000 faces and stores each. Measured with a large live
heap, as a build has when it stores them (creating a file costs much more then): the cache as it is
(layout/cache/facepacks.py: appended to one pack file per process) against the storage it replaced,
measured here as the baseline (one file per entry, written under a temporary name and renamed), and
that storage on a background thread (what the build would still pay in CPU). Prints each one's
wall, user and system seconds (best of --repeat) and the ratio of CPU seconds to the baseline's.
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _one_file_each(root: Path) -> Callable[[str, bytes], None]:
    """The storage before pack files: one file per entry, written whole and renamed into place."""
    made: set[str] = set()

    def put(k: str, data: bytes) -> None:
        folder = f"{root}/{k[:2]}"
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        tmp = f"{root}/.tmp-{os.getpid()}-{k[:20]}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, f"{folder}/{k[2:]}")

    return put


def _threaded(put: Callable[[str, bytes], None]) -> tuple[Callable[[str, bytes], None], Callable[[], None]]:
    """`put` on a background thread, and the join a process must wait for before it exits."""
    jobs: queue.Queue[tuple[str, bytes] | None] = queue.Queue()

    def drain() -> None:
        while (job := jobs.get()) is not None:
            put(*job)

    worker = threading.Thread(target=drain)
    worker.start()

    def join() -> None:
        jobs.put(None)
        worker.join()

    return lambda k, data: jobs.put((k, data)), join


def _measure(store: Callable[[str, bytes], None], done: Callable[[], None], entries: int) -> tuple[float, float, float]:
    import marshal

    value = marshal.dumps(tuple((float(i), 2.0, "word " * 4, "sans", 8.0, "#222222") for i in range(40)))
    keys = [f"{i:064x}" for i in range(entries)]
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    for k in keys:
        store(k, value)
    done()
    r1, t1 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    return t1 - t0, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=4000)
    parser.add_argument("--heap-mb", type=int, default=140)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from mazmorra.layout.cache import facecache
    from mazmorra.layout.cache.facecache import FaceCache

    heap: list[Any] = [[float(i)] * 30 for i in range(args.heap_mb * 1024 * 1024 // 300)]  # live, as a build's
    best: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="mz-facestore-") as tmp:
        for n in range(args.repeat):
            runs: dict[str, Callable[[Path], tuple[Callable[[str, bytes], None], Callable[[], None]]]] = {
                "one file per entry (baseline)": lambda root: (_one_file_each(root), lambda: None),
                "one file per entry, on a thread": lambda root: _threaded(_one_file_each(root)),
                "pack file (layout/cache/facepacks.py)": lambda root: (
                    lambda c: (lambda k, data: c.put(k, data), lambda: None)
                )(FaceCache(root, root.parent / "s", packed=True)),
            }
            for name, make in runs.items():
                root = Path(tmp) / f"{n}-{len(best)}-{abs(hash(name))}"
                root.mkdir()
                facecache.drop_views()
                store, done = make(root)
                got = _measure(store, done, args.entries)
                if name not in best or sum(got[1:]) < sum(best[name][1:]):
                    best[name] = got
                shutil.rmtree(root)
    base = sum(best["one file per entry (baseline)"][1:])
    print(f"{args.entries} entries stored, {args.heap_mb} MB live heap, best of {args.repeat}:")
    for name, (wall, user, system) in best.items():
        print(
            f"  {name:34s} wall {wall:6.3f} s  user {user:6.3f} s  sys {system:6.3f} s  "
            f"cpu / baseline = {(user + system) / base:.2f}"
        )
    del heap


if __name__ == "__main__":
    main()
