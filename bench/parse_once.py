"""Benchmark: card text parsed once (model/cardtext.py `parse`), against a revision that parsed it in
every stage.

    python bench/parse_once.py [--before 6c6efa2] [--pack content/expedicion] [--repeat 3]

The revision is checked out into a temporary git worktree and both versions run, one fresh process
each time, with this checkout's virtual environment (`PYTHONPATH` points at each one's `cli/`), on the
same pack: validate, then in every language of the pack localise, the glossary, glyph coverage and
house-style checks, the template literals, and the layout of every deck (no drawing), as a build
runs them.

1. **Card-text passes**: how often the card-text parser's expressions (TOKEN, SPAN, EMPHASIS) scan a
   string, how often TOKEN scans a whole text (a string with a space: the paragraph splitter scans
   single words) and how many distinct texts those are, and how often a text is split into
   paragraphs (`split_blocks`): counted by wrapping them before any other module imports them. Each
   ratio is after / before.
2. **Time** of those stages, best of --repeat fresh processes each, imports and loading excluded:
   after / before.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
_SCANS = ("finditer", "sub", "subn", "findall", "search", "split", "match", "fullmatch")


class _Counting:
    """A compiled expression that counts each scan of a string (the rest passes through)."""

    def __init__(self, pattern: re.Pattern[str], name: str, seen: Counter[str]) -> None:
        self._pattern, self._name, self._seen = pattern, name, seen
        self._texts: set[str] = set()

    def __getattr__(self, attr: str) -> Any:
        real = getattr(self._pattern, attr)
        if attr not in _SCANS:
            return real

        def scan(*args: Any, **kw: Any) -> Any:
            self._seen[self._name] += 1
            text = args[1 if attr in ("sub", "subn") else 0] if args else ""  # sub(repl, string)
            if self._name == "TOKEN" and " " in text:  # a whole text: the paragraph splitter scans single words
                self._seen["TOKEN, whole texts"] += 1
                self._texts.add(text)
                self._seen["texts"] = len(self._texts)
            return real(*args, **kw)

        return scan


def _count(seen: Counter[str]) -> None:
    """Wrap the parser's expressions and its paragraph splitter before any stage imports them."""
    from mazmorra.model import cardtext

    for name in ("TOKEN", "SPAN", "EMPHASIS"):
        setattr(cardtext, name, _Counting(getattr(cardtext, name), name, seen))
    real: Callable[[str], Any] = cardtext.split_blocks

    def split_blocks(text: str) -> Any:
        seen["split_blocks"] += 1
        return real(text)

    cardtext.split_blocks = split_blocks  # type: ignore[assignment]


def _stages(pack_dir: Path) -> float:
    """Validate, localise, check and lay out every deck in every language; seconds taken (not loading)."""
    sys.path.insert(0, str(REPO / "bench"))
    from _common import layout_context

    from mazmorra.assets.icons import IconSet
    from mazmorra.i18n.checks.coverage import coverage_problems
    from mazmorra.i18n.checks.glossary import glossary_problems
    from mazmorra.i18n.checks.house import house_problems
    from mazmorra.i18n.checks.literals import literal_problems
    from mazmorra.i18n.labels import choice_labels
    from mazmorra.layout import Templates, lay_out
    from mazmorra.load import load_pack
    from mazmorra.support.paths import templates_dir
    from mazmorra.validate import validate

    pack = load_pack(pack_dir)
    t0 = time.perf_counter()
    validate(pack, IconSet.for_pack(pack.root))
    templates = Templates(pack.root, templates_dir())
    used = sorted({t for d in pack.decks for k in d.kinds for t in (k.template, k.back_template) if t})
    printed = templates.labels(used)
    for lang in pack.spec.languages:
        ctx = layout_context(pack, lang)  # localises the pack in `lang`
        glossary_problems(pack, ctx.localisation, ctx.labels, printed)
        coverage_problems(pack, ctx.localisation, ctx.labels, [*printed, *choice_labels(pack.kinds())])
        house_problems(pack, ctx.localisation)
        for deck in pack.decks:
            for _ in lay_out(deck, ctx).items():
                pass
    literal_problems(templates.files(used), pack.spec.languages)
    return time.perf_counter() - t0


def child(pack: Path, counting: bool) -> None:
    seen: Counter[str] = Counter()
    if counting:
        _count(seen)
    seconds = _stages(pack)
    print(json.dumps({"seconds": seconds, "counts": dict(seen)}))


def _run(cli: Path, pack: Path, counting: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(cli)}
    args = [sys.executable, __file__, "--child", str(pack)] + (["--count"] if counting else [])
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True, cwd=REPO).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", default="6c6efa2")
    ap.add_argument("--pack", type=Path, default=REPO / "content" / "expedicion")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        child(args.child, args.count)
        return
    pack = args.pack.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), args.before], cwd=REPO, check=True)
        try:
            sides = {"before": old / "cli", "after": REPO / "cli"}
            counts = {side: _run(cli, pack, True)["counts"] for side, cli in sides.items()}
            times: dict[str, list[float]] = {side: [] for side in sides}
            for _ in range(args.repeat):  # alternated, so neither always runs on a cooler machine
                for side, cli in sides.items():
                    times[side].append(_run(cli, pack, False)["seconds"])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=REPO, check=True)
    print(f"pack {pack.name}: validate, localise, glossary, coverage, house style, literals, layout (every language)")
    print(f"{'card-text passes':<20}{'before':>10}{'after':>10}{'after/before':>14}")
    for name in ("texts", "TOKEN, whole texts", "TOKEN", "SPAN", "EMPHASIS", "split_blocks"):
        b, a = counts["before"].get(name, 0), counts["after"].get(name, 0)
        print(f"{name:<20}{b:>10}{a:>10}{(a / b if b else float('nan')):>14.2f}")
    b, a = min(times["before"]), min(times["after"])
    print(f"{'seconds (best of ' + str(args.repeat) + ')':<20}{b:>10.3f}{a:>10.3f}{a / b:>14.2f}")


if __name__ == "__main__":
    main()
