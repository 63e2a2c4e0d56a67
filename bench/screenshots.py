"""Benchmark: `mazmorra i18n screenshots` on a sample pack, as a ratio to drawing the same pictures
one at a time (a PDF per picture, as the gallery draws), measured in the same run; warm (the faces
in the face cache, as after any build) and cold (an empty cache).

    python bench/screenshots.py [--pack expedicion] [--repeat 3]

The figure is the CPU time of this process (`-j1`), the best of --repeat runs. Target: batched
below the one-at-a-time baseline, warm below cold.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(pack_dir: Path, out: Path, batch: int, cold: bool, repeat: int) -> float:
    from mazmorra.build.pipeline import BuildOptions, Loaded, build
    from mazmorra.commands.i18n import _screenshot_sinks
    from mazmorra.i18n.catalogues.potemplate import template_messages
    from mazmorra.i18n.pictures import wanted_pictures
    from mazmorra.load import load_pack
    from mazmorra.render import screenshots
    from mazmorra.render.sinks.table import Outputs

    pack = load_pack(pack_dir)
    wanted = wanted_pictures(pack, [m.component for m in template_messages(pack)])
    opts = BuildOptions(langs=(pack.spec.source_language,), draft=True, outputs=Outputs(pdf=False), out_dir=out)
    screenshots.BATCH, best = batch, float("inf")
    for _ in range(repeat):
        if cold:
            shutil.rmtree(out, ignore_errors=True)
        t0 = time.process_time()
        build(pack_dir, opts, also=partial(_screenshot_sinks, out / "shots", wanted), loaded=Loaded(pack))
        best = min(best, time.process_time() - t0)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", default="expedicion")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mazmorra-bench-shots-") as tmp:
        pack_dir = Path(tmp) / "content" / args.pack
        shutil.copytree(REPO / "content" / args.pack, pack_dir)
        out = Path(tmp) / "output"
        timed(pack_dir, out, 1, False, 1)  # imports and the face cache filled
        one = timed(pack_dir, out, 1, False, args.repeat)
        batched = timed(pack_dir, out, 24, False, args.repeat)
        cold = timed(pack_dir, out, 24, True, args.repeat)
    print(f"{args.pack}: one picture at a time {one:.2f} s CPU (baseline)")
    print(f"  batched, warm  {batched:.2f} s  ratio {batched / one:.2f}  (target < 1)")
    print(f"  batched, cold  {cold:.2f} s  ratio {cold / one:.2f}  (warm/cold {batched / cold:.2f}, target < 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
