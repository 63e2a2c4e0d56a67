"""Benchmark: `mazmorra generate` per map, and printing a map as a poster, each against a baseline
measured in the same run.

    python bench/generate.py [--seeds 200] [--repeat 3]

1. Generation: the sample pack's tables rolled into --seeds maps (seeds 0, 1, 2 …), time per map.
   Baseline: the same number of dice rolls on the same tables with the same random source, without
   the procedure (placing pieces, doors, checking overlaps): what rolling alone costs.
2. Poster: the sample map (41 × 35 squares at 25 mm) imposed and drawn over A4 pages. Baseline: the
   same face drawn once on a single page of its own size (what any PDF of it costs).
The best of --repeat runs is kept.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "cli"))

from _common import layout_context  # noqa: E402

from mazmorra.kinds.dicedungeon import DungeonRules  # noqa: E402
from mazmorra.kinds.dicedungeon.dice_table import DiceTable  # noqa: E402
from mazmorra.kinds.dicedungeon.generator import Generator  # noqa: E402
from mazmorra.layout import lay_out  # noqa: E402
from mazmorra.load import load_pack  # noqa: E402
from mazmorra.render.draw.pdfpages import DocMeta, PdfPages  # noqa: E402
from mazmorra.render.impose import ImposeOptions, impose  # noqa: E402
from mazmorra.render.raster import FacePages  # noqa: E402

PACK = REPO / "content" / "generada"


def best(repeat: int, run):  # type: ignore[no-untyped-def]
    return min((run() for _ in range(repeat)), key=lambda r: r[0])


def generation(seeds: int, repeat: int) -> None:
    pack = load_pack(PACK)
    tables = {c.id: t for c, t in pack.of(DiceTable)}
    rules = DungeonRules()

    def maps() -> tuple[float, list[float], list[int]]:
        times, rolls = [], []
        t0 = time.perf_counter()
        for seed in range(seeds):
            t = time.perf_counter()
            dungeon = Generator(tables, rules, seed).run()
            dungeon.data(f"dungeon-{seed}")
            times.append(time.perf_counter() - t)
            rolls.append(len(dungeon.rolls))
        return time.perf_counter() - t0, times, rolls

    total, times, rolls = best(repeat, maps)
    by_role = [t for t in tables.values() if t.dice is not None]

    def rolling() -> tuple[float]:
        t0 = time.perf_counter()
        for seed, n in zip(range(seeds), rolls):
            rng = random.Random(seed)
            for i in range(n):
                table = by_role[i % len(by_role)]
                assert table.dice is not None
                table.row_for(table.dice.roll(rng)[1])
        return (time.perf_counter() - t0,)

    (base,) = best(repeat, rolling)
    ms = [t * 1000 for t in times]
    print(
        f"generate: {seeds} maps, {total / seeds * 1000:.2f} ms per map (median {statistics.median(ms):.2f}, "
        f"p95 {sorted(ms)[int(0.95 * len(ms))]:.2f}, max {max(ms):.2f}); {statistics.mean(rolls):.0f} rolls per map"
    )
    print(f"  baseline, the same dice rolled alone: {base / seeds * 1000:.3f} ms per map; ratio {total / base:.1f}×")


def poster(repeat: int) -> None:
    pack = load_pack(PACK)
    ctx = layout_context(pack, "es")
    icons = ctx.icons
    (item,) = list(lay_out(pack.deck("mapas"), ctx).items())
    face = item.front
    sheet = ImposeOptions(page="a4")

    def tiled() -> tuple[float, int, int]:
        t0 = time.perf_counter()
        pages = impose(sheet, [(face.w, face.h)], [False], face.bleed)
        buf = io.BytesIO()
        pdf = PdfPages(buf, sheet.size, DocMeta("bench", "", "", "es"), icons)
        pdf.begin(pages)
        pdf.push(item)
        pdf.save()
        return time.perf_counter() - t0, pdf.pages, len(buf.getvalue())  # pages printed: blank tiles left out

    def whole() -> tuple[float, int]:
        t0 = time.perf_counter()
        single = FacePages(icons, "es")
        single.face_page(face, face.w + 2 * face.bleed, face.h + 2 * face.bleed, face.bleed, face.bleed)
        data = single.pdf()
        return time.perf_counter() - t0, len(data)

    took, pages, size = best(repeat, tiled)
    base, base_size = best(repeat, whole)
    print(
        f"poster: the sample map ({face.w:g} × {face.h:g} mm, {len(face.ops)} ops) on A4: {pages} pages in "
        f"{took * 1000:.0f} ms, {size / 1024:.0f} KiB"
    )
    print(
        f"  baseline, the face drawn once on one page: {base * 1000:.0f} ms, {base_size / 1024:.0f} KiB; "
        f"ratio {took / base:.2f}× time, {size / base_size:.2f}× size"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    generation(args.seeds, args.repeat)
    poster(args.repeat)


if __name__ == "__main__":
    main()
