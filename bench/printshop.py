"""Benchmark: print-shop files (issue 21). The expedition pack built for DriveThruCards' layout (one
PDF per deck, back before front, every copy) in RGB and in CMYK with PDF/X-1a, in the same run:
build time and file sizes, and their ratios.

    python bench/printshop.py [--repeat 3] [--lang en]

Each build is the real command line (`mazmorra build expedicion --printer NAME -j1`) in a fresh
process; the time is the best of --repeat. The RGB profile is DriveThruCards' with `colour: rgb`
and `pdf: 1.4` (a pack's own profile, written into a temporary copy of the pack), so the two differ
only in colour: the ICC conversions, K-only neutrals, the embedded output profile and the preflight.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RGB = "name: DriveThruCards in RGB\nextends: drivethrucards\npdf: '1.4'\ncolour:\n  space: rgb\n  icc: null\n"


def build(project: Path, printer: str, lang: str, repeat: int) -> tuple[float, int, int]:
    """(best seconds, total bytes, files) of `mazmorra build expedicion --printer printer`."""
    best = float("inf")
    out = project / "output"
    for _ in range(repeat):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mazmorra", "build", "expedicion", "--printer", printer, "--lang", lang, "-j", "1"],
            cwd=project,
            check=True,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - start)
    pdfs = list((out / "expedicion").rglob("*.pdf"))
    return best, sum(p.stat().st_size for p in pdfs), len(pdfs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        pack = project / "content" / "expedicion"
        shutil.copytree(REPO / "content" / "expedicion", pack)
        (pack / "printers").mkdir()
        (pack / "printers" / "dtc-rgb.yaml").write_text(RGB, encoding="utf-8")
        rgb = build(project, "dtc-rgb", args.lang, args.repeat)
        cmyk = build(project, "drivethrucards", args.lang, args.repeat)
    print(f"expedicion ({args.lang}), DriveThruCards layout, best of {args.repeat}, one process each:")
    for name, (secs, size, n) in (("RGB, PDF 1.4", rgb), ("CMYK, PDF/X-1a", cmyk)):
        print(f"  {name:<15} {secs:6.2f} s  {size / 1e6:6.2f} MB in {n} PDFs ({size / n / 1e3:.0f} kB each)")
    print(f"  CMYK / RGB: time {cmyk[0] / rgb[0]:.2f}×, size {cmyk[1] / rgb[1]:.2f}×")


if __name__ == "__main__":
    main()
