"""Benchmark: what the `print.colour-only` check adds to laying a pack out.

    python bench/colouronly.py [--pack expedicion] [--repeat 3]

Every deck of the pack laid out in Spanish (templates, text fitting, ops; no PDF drawn) twice in this
process, with the check (as every build runs it) and with it switched off (the baseline, measured in
the same run): seconds and the ratio. Best of --repeat runs; figures move on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import layout_context  # noqa: E402


def lay_out_all(pack_dir: Path) -> int:
    """Lay out every component of the pack in Spanish; the number of faces laid out."""
    from mazmorra.layout import lay_out
    from mazmorra.layout.textbox import _text_block
    from mazmorra.load import load_pack

    _text_block.cache_clear()
    p = load_pack(pack_dir)
    ctx = layout_context(p, "es")
    faces = 0
    for deck in p.decks:
        for item in lay_out(deck, ctx).items():
            faces += 1 + (item.back is not None)
    return faces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="expedicion")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from mazmorra.layout import colouronly

    pack = HERE.parent / "content" / args.pack
    checked, add = colouronly.ColourOnly.add, colouronly.ColourOnly.add
    best = {"with the check": float("inf"), "baseline (check off)": float("inf")}
    faces = 0
    for _ in range(args.repeat):  # interleaved: both sides see the same machine
        for name in best:
            colouronly.ColourOnly.add = checked if name == "with the check" else (lambda self, face, comps: None)  # type: ignore[method-assign, assignment]
            t0 = time.perf_counter()
            faces = lay_out_all(pack)
            best[name] = min(best[name], time.perf_counter() - t0)
    colouronly.ColourOnly.add = add  # type: ignore[method-assign]
    for name, seconds in best.items():
        print(f"{name:22s} {seconds:7.2f} s  ({faces} faces)")
    print(f"ratio                  {best['with the check'] / best['baseline (check off)']:7.3f}")


if __name__ == "__main__":
    main()
