"""Cold `build -j1` counted in instructions, this checkout against another commit (issue 38).

    python bench/instructions.py [--before REV] [--small 5] [--large 300] [--domdiv] [--ceiling] [--json out.json]

CPU seconds on a shared 2-core machine move by ±15 % between runs of the same pair (bench/cold.py
pairs and alternates to live with it); the number of instructions a build executes does not: run
twice, the same build counts the same to within 0.1 %. Each side's cold build (a fresh process into
an empty output folder, as bench/cold.py runs it) is run once under valgrind's cachegrind without
its cache simulation (`I refs`), for a small and a large synthetic deck; their difference over the
difference in cards is the **per-card** count, the small deck's count less its cards the **fixed**
count (start-up, imports, fonts, templates). Printed: after / before for each, and for 1,000 and
10,000 cards as fixed + n × per-card, beside bench/cold.py's target (<= 0.9).

Instructions are not seconds: a cache miss costs more than an add, and valgrind counts what runs in
the interpreter and in C alike. Use it to tell whether a change removed work, and bench/cold.py for
what the build costs in time.

With --ceiling, this checkout also builds each deck with bench/ceiling/artimana.xml.j2 in the pack's
own templates/ (the shipped template less every element that is the same on every card of a type):
what a card would cost if a template's fixed elements cost nothing per card, against the before
side's whole card, i.e. the best any per-template constant layer (checks or drawing once per
template) could do. Needs valgrind (`apt-get install valgrind`); about 30 s per 100 cards a
side under it.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cold import _env  # noqa: E402
from designer import _checkout  # noqa: E402
from synth import make_pack  # noqa: E402

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(python_path: str | None, pack: Path, lang: str, out: Path) -> int:
    """The instructions one cold build executes, counted by cachegrind (no cache simulation)."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "mazmorra",
        "build",
        str(pack),
        "--lang",
        lang,
        "--out",
        str(out),
        "-j",
        "1",
    ]
    proc = subprocess.run(cmd, env=_env(python_path), cwd=out.parent, capture_output=True, text=True)
    found = _REFS.search(proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    shutil.rmtree(out, ignore_errors=True)
    return int(found.group(1).replace(",", ""))


_CEILING = HERE / "ceiling" / "artimana.xml.j2"
_SHIPPED = HERE.parent / "cli" / "mazmorra" / "templates" / "artimana.xml.j2"
_FIELDS = re.compile(r"\bcard\.\w+")


def _check_ceiling() -> None:
    """The stripped template is kept by hand: every card field the shipped one prints, it prints too
    (a field it lacks would make the ceiling look cheaper than any constant layer could)."""
    lacking = set(_FIELDS.findall(_SHIPPED.read_text(encoding="utf-8"))) - set(
        _FIELDS.findall(_CEILING.read_text(encoding="utf-8"))
    )
    if lacking:
        raise SystemExit(
            f"{_CEILING} lacks {', '.join(sorted(lacking))} of {_SHIPPED}: copy its variable elements again"
        )


def _ceiling_pack(pack: Path, into: Path) -> Path:
    """A copy of `pack` whose own templates/ overrides the shipped artimana template with the stripped one."""
    bare = shutil.copytree(pack, into / "content" / pack.name)
    (bare / "templates").mkdir(exist_ok=True)
    shutil.copy(_CEILING, bare / "templates" / _CEILING.name)
    return bare


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", default="870e1a6", help="a commit of this repository")
    ap.add_argument("--small", type=int, default=5, help="cards of the small deck")
    ap.add_argument("--large", type=int, default=300, help="cards of the large deck")
    ap.add_argument("--domdiv", action="store_true", help="also domdiv's dividers (real rules text), whole")
    ap.add_argument("--ceiling", action="store_true", help="also this checkout with the fixed elements taken out")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="mz-instr-") as tmp:
        root = Path(tmp)
        _checkout(args.before, root)
        sides: dict[str, str | None] = {"before": str(root / "before" / "cli"), "after": None}
        if args.ceiling:
            sides["ceiling"] = None  # this checkout again, on the stripped template
            _check_ceiling()
        counts: dict[str, dict[int, int]] = {side: {} for side in sides}
        for n in (args.small, args.large):
            pack = make_pack(root, n)
            packs = {"before": pack, "after": pack}
            if args.ceiling:
                packs["ceiling"] = _ceiling_pack(pack, root / "ceiling")
            for side, path in sides.items():
                # once untimed: a fresh checkout compiles its bytecode on its first run (the ceiling is "after" again)
                if n == args.small and side != "ceiling":
                    subprocess.run(
                        [sys.executable, "-m", "compileall", "-q", path or str(HERE.parent / "cli")],
                        env=_env(path),
                        check=True,
                        capture_output=True,
                    )
                counts[side][n] = instructions(path, packs[side], "es", root / f"out-{side}")
        per_card: dict[str, float] = {
            s: (c[args.large] - c[args.small]) / (args.large - args.small) for s, c in counts.items()
        }
        fixed: dict[str, float] = {s: c[args.small] - args.small * per_card[s] for s, c in counts.items()}
        print(
            f"per card: after / before = {per_card['after'] / per_card['before']:.3f} "
            f"({per_card['after'] / 1e6:.2f} M against {per_card['before'] / 1e6:.2f} M instructions)\n"
            f"fixed: after / before = {fixed['after'] / fixed['before']:.3f} "
            f"({fixed['after'] / 1e9:.2f} G against {fixed['before'] / 1e9:.2f} G)",
            flush=True,
        )

        def against_before(side: str, n: int) -> float:
            return (fixed[side] + n * per_card[side]) / (fixed["before"] + n * per_card["before"])

        for n in (1000, 10000):
            ratio = against_before("after", n)
            print(f"{n} cards (fixed + n x per card): after / before = {ratio:.3f} (bench/cold.py's target <= 0.9)")
            results[str(n)] = round(ratio, 4)
        if args.ceiling:
            print(
                f"ceiling (fixed elements free): per card {per_card['ceiling'] / 1e6:.2f} M "
                f"({per_card['ceiling'] / per_card['after']:.3f} of this checkout's), "
                f"fixed {fixed['ceiling'] / 1e9:.2f} G"
            )
            for n in (1000, 10000):
                ratio = against_before("ceiling", n)
                print(f"{n} cards at the ceiling: / before = {ratio:.3f}")
                results[f"ceiling_{n}"] = round(ratio, 4)
        results.update(
            per_card=per_card, fixed=fixed, counts={s: {str(k): v for k, v in c.items()} for s, c in counts.items()}
        )
        if args.domdiv:
            from domdiv import convert, install

            lib = install(HERE / ".scratch" / "domdiv")
            pack, count = convert(lib, root)
            spec = pack / "pack.yaml"  # as bench/cold.py: 870e1a6 reads format 1 only
            spec.write_text(spec.read_text(encoding="utf-8").replace("format: 2\n", ""), encoding="utf-8")
            whole = {side: instructions(path, pack, "en", root / f"out-{side}") for side, path in sides.items()}
            print(f"domdiv's {count} dividers: after / before = {whole['after'] / whole['before']:.3f}")
            results["domdiv"] = whole
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
