"""What several benchmarks share: the layout context a build makes, and timing stages 1 and 2.

The scripts run as `python bench/<name>.py`, so this folder is on sys.path and they import it as
`from _common import …`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mazmorra.layout import LayoutContext
    from mazmorra.model.content import Pack


def layout_context(pack: Pack, lang: str, draft: bool = False) -> LayoutContext:
    """The layout context a build makes for one pack and language (icons of the pack; a draft when
    asked: missing translations fall back instead of failing)."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.i18n.labels import Labels
    from mazmorra.i18n.localise import localise
    from mazmorra.layout import LayoutContext, Templates
    from mazmorra.support.paths import templates_dir

    return LayoutContext(
        pack,
        localise(pack, lang),
        Templates(pack.root, templates_dir()),
        IconSet.for_pack(pack.root),
        Labels(pack.root, templates_dir(), lang),
        Path("output"),
        draft,
    )


def best_load(pack: Path, repeat: int, valid: bool = False) -> float:
    """The best of `repeat` runs of load_pack and validate on the pack, in this process (warm
    imports); with `valid`, the pack must have no problem."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.load import load_pack
    from mazmorra.validate import validate

    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        loaded = load_pack(pack)
        problems = validate(loaded, IconSet.for_pack(pack))
        best = min(best, time.perf_counter() - t0)
        assert not (valid and problems), problems[:3]
    return best


def sizes_and_repeat(default: str = "1000,10000") -> tuple[list[int], int]:
    """--sizes N,N… and --repeat R from the command line."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=default)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    return [int(s) for s in args.sizes.split(",")], args.repeat
