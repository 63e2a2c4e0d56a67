"""Benchmark: what the `print.colour-only` check adds to laying a pack out.

    python bench/colouronly.py [--pack expedicion] [--repeat 3]

Every deck of the pack laid out in Spanish (templates, text fitting, ops; no PDF drawn) with the check
switched off: the baseline, measured in this run. Then the check alone over the same faces, deck by
deck as a build feeds it, and each deck's templates probed field by field (colourprobe: the check's
share that does not depend on the number of cards). Prints each (best of --repeat) and the ratio
(layout + check + probes) / layout.
Timing the check by itself keeps the figure steady on a shared machine, where two whole layouts
differ by tens of percent from one run to the next.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import layout_context  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="expedicion")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from mazmorra.layout import faces as deck_layout
    from mazmorra.layout import lay_out
    from mazmorra.layout.printcheck import colouronly
    from mazmorra.layout.text.textbox import _text_block
    from mazmorra.load import load_pack

    pack = load_pack((HERE.parent / "content" / args.pack).resolve())
    ctx = layout_context(pack, "es")
    add = colouronly.ColourOnly.add
    decks: list[list[tuple]] = []  # each deck's faces, as the check is handed them
    probe = deck_layout._DeckLayout._probe
    layouts: list[object] = []  # each deck's layout, to probe its templates afterwards

    def collect(self, face, components, key="") -> None:  # type: ignore[no-untyped-def]
        decks[-1].append((face, components))

    def keep(self, check) -> None:  # type: ignore[no-untyped-def]
        layouts.append(self)

    layout = check = probes = float("inf")
    for _ in range(args.repeat):
        colouronly.ColourOnly.add = collect  # type: ignore[method-assign]
        deck_layout._DeckLayout._probe = keep  # type: ignore[method-assign]
        _text_block.cache_clear()
        decks.clear()
        layouts.clear()
        t0 = time.perf_counter()
        for deck in pack.decks:
            decks.append([])
            for _item in lay_out(deck, ctx).items():
                pass
        layout = min(layout, time.perf_counter() - t0)
        colouronly.ColourOnly.add = add  # type: ignore[method-assign]
        deck_layout._DeckLayout._probe = probe  # type: ignore[method-assign]
        t0 = time.perf_counter()
        for faces in decks:
            found = colouronly.ColourOnly("es", pack)
            for face, components in faces:
                found.add(face, components)
        check = min(check, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for laid in layouts:
            probe(laid, colouronly.ColourOnly("es", pack))  # type: ignore[arg-type]
        probes = min(probes, time.perf_counter() - t0)
    n = sum(len(f) for f in decks)
    print(f"layout, check off   {layout:7.3f} s  ({n} faces)")
    print(f"the check alone     {check:7.3f} s")
    print(f"templates probed    {probes:7.3f} s  ({len(layouts)} decks)")
    print(f"ratio               {(layout + check + probes) / layout:7.3f}")


if __name__ == "__main__":
    main()
