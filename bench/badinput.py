"""Benchmark: how fast each case of the bad-input corpus (tests/fixtures/) is refused or built, as a
ratio to building the valid base pack it is made from, in the same run (the time budgets the tests
no longer assert).

    python bench/badinput.py [--repeat 3] [--case deep-nesting]

Each case is composed as the test composes it and built through the real command line, in this
process (warm imports); the figure is the best of --repeat runs. Target: every case within 20× the
base build, the 100,000-row workbook and the 8 MiB file included.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from conftest import run_cli  # noqa: E402
from test_fixtures import CASES, FIXTURES, compose, generate  # noqa: E402


def timed(case: str, root: Path, repeat: int) -> float:
    import yaml

    best = float("inf")
    for i in range(repeat):
        project = root / f"{case}-{i}"
        if case == "_base":
            compose_base(project)
        else:
            pack = compose(case, project)
            expected = yaml.safe_load((FIXTURES / case / "expected.yaml").read_text(encoding="utf-8"))
            if "generate" in expected:
                generate(expected["generate"], pack)
        t0 = time.perf_counter()
        run_cli("build", "fixture", "--lang", "es", cwd=project)
        best = min(best, time.perf_counter() - t0)
    return best


def compose_base(project: Path) -> None:
    import shutil

    shutil.copytree(FIXTURES / "_base", project / "content" / "fixture")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case", action="append", help="only these cases (repeatable)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        base = timed("_base", root, args.repeat)
        print(f"{'case':<26} {'seconds':>8} {'x base':>7}")
        print(f"{'(valid base pack)':<26} {base:>8.3f} {1.0:>7.2f}")
        for case in args.case or CASES:
            t = timed(case, root, args.repeat)
            print(f"{case:<26} {t:>8.3f} {t / base:>7.2f}")


if __name__ == "__main__":
    main()
