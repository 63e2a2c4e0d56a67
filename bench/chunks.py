"""Benchmark: how many pages a chunk holds (render/draw/chunks.py), by file size and time.

    python bench/chunks.py [--cards 2000] [--sizes 16,32,64,128] [--repeat 2]

A synthetic line of --cards distinct cards (bench/synth.py) built in Spanish, in this process at
-j1 with every face already in the face cache and no chunk cache (the builds differ only in drawing
and writing), once drawn whole (one chunk: the baseline, measured in this run) and once per chunk size. Prints,
per size: the deck's PDF in bytes and against the whole file, the build's time against the
baseline's, and the time the merges took. Best of --repeat.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synth import make_pack  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--sizes", default="16,32,64,128")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    from mazmorra.build.pipeline import BuildOptions, build
    from mazmorra.render.draw import chunks

    merging = [0.0]
    plain_merge = chunks.merge

    def timed_merge(parts: list[Path], target: Path) -> None:
        t0 = time.perf_counter()
        plain_merge(parts, target)
        merging[0] += time.perf_counter() - t0

    chunks.merge = timed_merge  # type: ignore[assignment]
    with tempfile.TemporaryDirectory(prefix="mz-chunks-") as tmp:
        pack = make_pack(Path(tmp), args.cards)
        out = Path(tmp) / "output"
        opts = BuildOptions(langs=("es",), out_dir=out, jobs=1)

        def one(pages: int) -> tuple[float, float, int, int]:
            os.environ["MAZMORRA_CHUNK_PAGES"] = str(pages)
            best = (float("inf"), 0.0, 0, 0)
            for _ in range(args.repeat):
                merging[0] = 0.0
                shutil.rmtree(out / ".cache" / "chunks", ignore_errors=True)  # every chunk drawn, none taken
                t0 = time.perf_counter()
                result = build(pack, opts)
                took = time.perf_counter() - t0
                (pdf,) = result.outputs
                if took < best[0]:
                    best = (took, merging[0], pdf.stat().st_size, result.pages)
            return best

        one(100_000)  # the face cache filled: every build below draws from it
        whole = one(100_000)
        print(
            f"{args.cards} cards, es: {whole[3]} pages; whole (one chunk): {whole[2]:,} bytes, build {whole[0]:.2f} s"
        )
        for size in [int(s) for s in args.sizes.split(",")]:
            took, merge, size_b, _ = one(size)
            print(
                f"C = {size:>4}: {size_b:>11,} bytes ({size_b / whole[2]:.2f}x the whole), "
                f"build {took:.2f} s ({took / whole[0]:.2f}x), merge {merge:.2f} s"
            )


if __name__ == "__main__":
    main()
