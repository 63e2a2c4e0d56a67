"""The same work in domdiv and in mazmorra: domdiv's own 773 Dominion dividers (its default run), and
the same dividers converted to a mazmorra pack, each built in fresh processes, paired and alternated.

    python bench/domdiv.py [--pairs 3] [--scratch DIR] [--json out.json]

domdiv (https://github.com/sumpfork/dominiontabs, ReportLab too) is installed only for this bench, with
`pip install --target` into the scratch folder (default: bench/.scratch/domdiv, git-ignored), never into
the locked environment; it runs with that folder alone on its path, so it draws with the ReportLab it
pins. The conversion reads the cards domdiv itself would print (its card database, filtered and sorted
by its default options) and writes one generic card per divider: the name, the cost and the set on the
title line, the card's text (domdiv's markup made plain) in the body, at domdiv's divider size.

What differs, so the ratio is "the same cards through each tool's default path", not the same drawing:
domdiv draws a tab, set and cost icons and the text on 3 dividers a Letter page, no backs; mazmorra
draws its generic card (frame, title, fitted and hyphenated text, a shared back) with bleed and crop
marks on A4 with duplex backs. Printed: wall and CPU seconds (user + system of the process and its
children, from wait4), peak memory (ru_maxrss), pages and file size, medians with min-max, the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOMDIV = "domdiv==4.9.3"  # the version measured; any later one re-measures

# Runs with only domdiv's folder on sys.path: domdiv's cards as it would print them, as JSON.
_DUMP = """
import json, re, sys
from domdiv import config_options, db, main
opts = config_options.clean_opts(config_options.parse_opts([]))
cards = main.filter_sort_cards(db.read_card_data(opts), opts)
main.calculate_layout(opts, cards)
def plain(text):
    text = re.sub(r"<(br|n|line)\\s*/?>", " ", text or "")
    text = re.sub(r"<[^>]+>", "", text).replace("{", "(").replace("}", ")").replace("*", "")
    return " ".join(text.split())
out = [
    {"name": c.name, "cost": str(c.cost), "set": str(c.cardset), "types": [str(t) for t in c.types],
     "text": plain(c.description)}
    for c in cards
]
size = [round(opts.dividerWidth / 72 * 25.4, 1), round(opts.dividerBaseHeight / 72 * 25.4, 1)]
json.dump({"cards": out, "size_mm": size}, sys.stdout)
"""


def install(scratch: Path) -> Path:
    """domdiv and what it needs, in scratch/lib (once)."""
    lib = scratch / "lib"
    if not (lib / "domdiv").is_dir():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(lib), DOMDIV],
            check=True,
        )
    return lib


def _clean_env(lib: Path | None) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "MAZMORRA_JOBS": "1", "HOME": os.environ.get("HOME", "/")}
    if lib is not None:
        env["PYTHONPATH"] = str(lib)
        env["PYTHONNOUSERSITE"] = "1"
    return env


def convert(lib: Path, root: Path) -> tuple[Path, int]:
    """domdiv's dividers as a mazmorra pack (root/content/domdiv); returns it and the count."""
    res = subprocess.run(
        [sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(lib)!r}); exec({_DUMP!r})"],
        capture_output=True,
        text=True,
        env=_clean_env(lib),
        check=True,
    )
    data = json.loads(res.stdout)
    pack = root / "content" / "domdiv"
    (pack / "decks").mkdir(parents=True, exist_ok=True)
    w, h = data["size_mm"]
    (pack / "pack.yaml").write_text(
        "id: domdiv\nname: Dominion dividers (converted from domdiv)\nsource_language: en\nlanguages: [en]\n"
        f"page: a4\ncard_size: {w}x{h}mm\nbleed: 3mm\nformat: 2\n"
        "decks:\n  - id: dividers\n    kind: card\n    name: Dividers\n    file: decks/dividers.yaml\n"
    )
    entries = []
    for i, card in enumerate(data["cards"]):
        title = f"{card['name']} ({card['cost']})"[:80]
        text = f"{card['set']} · {' – '.join(card['types'])}. {card['text']}"[:800]
        entries.append({"id": f"d{i + 1:04d}", "name": title, "text": text})
    (pack / "decks" / "dividers.yaml").write_text(json.dumps(entries, ensure_ascii=False, indent=0))
    return pack, len(entries)


def measured(cmd: list[str], env: dict[str, str], cwd: Path) -> dict[str, float]:
    """One process: wall and CPU seconds, peak memory (its own, from wait4's rusage)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err[-3000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--scratch", type=Path, default=HERE / ".scratch" / "domdiv")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    lib = install(args.scratch)
    with tempfile.TemporaryDirectory(prefix="mz-domdiv-") as tmp:
        root = Path(tmp)
        pack, count = convert(lib, root)
        runs: dict[str, list[dict[str, float]]] = {"domdiv": [], "mazmorra": []}
        dd_pdf = root / "domdiv.pdf"
        mz_out = root / "out"
        domdiv_cmd = [
            sys.executable,
            "-S",
            "-c",
            f"import sys; sys.path.insert(0, {str(lib)!r}); from domdiv.main import main; sys.exit(main())",
            "--outfile",
            str(dd_pdf),
        ]
        mz_cmd = [sys.executable, "-m", "mazmorra", "build", str(pack), "--out", str(mz_out), "-j1"]
        for i in range(args.pairs):  # paired, alternated: each order as often as the other
            order = ("domdiv", "mazmorra") if i % 2 == 0 else ("mazmorra", "domdiv")
            for which in order:
                if which == "domdiv":
                    runs[which].append(measured(domdiv_cmd, _clean_env(lib), root))
                else:
                    shutil.rmtree(mz_out, ignore_errors=True)  # cold: an empty face cache every time
                    runs[which].append(measured(mz_cmd, _clean_env(None), root))
        mz_pdf = mz_out / "domdiv" / "en" / "dividers.pdf"
        report = {
            "dividers": count,
            "pairs": args.pairs,
            **{
                who: {
                    "wall": [round(r["wall"], 3) for r in rs],
                    "cpu": [round(r["cpu"], 3) for r in rs],
                    "peak_mb": round(max(r["peak_mb"] for r in rs), 1),
                    "bytes": (dd_pdf if who == "domdiv" else mz_pdf).stat().st_size,
                    "pages": pages(dd_pdf if who == "domdiv" else mz_pdf),
                }
                for who, rs in runs.items()
            },
        }
    dd, mz = report["domdiv"], report["mazmorra"]
    print(f"domdiv's {count} dividers, {args.pairs} paired alternated cold runs (median, min-max):")
    for who, r in (("domdiv", dd), ("mazmorra", mz)):
        print(
            f"  {who:>8}: wall {spread(r['wall'])} s, CPU {spread(r['cpu'])} s, peak {r['peak_mb']:.0f} MB, "
            f"{r['pages']} pages, {r['bytes'] / 1e6:.2f} MB"
        )
    speed = statistics.median(dd["wall"]) / statistics.median(mz["wall"])
    cpu = statistics.median(dd["cpu"]) / statistics.median(mz["cpu"])
    print(
        f"  domdiv / mazmorra: wall {speed:.2f}x, CPU {cpu:.2f}x, memory {dd['peak_mb'] / mz['peak_mb']:.2f}x, "
        f"file size {dd['bytes'] / mz['bytes']:.1f}x (above 1: mazmorra does the same cards with less)"
    )
    report["ratios"] = {
        "wall": round(speed, 2),
        "cpu": round(cpu, 2),
        "memory": round(dd["peak_mb"] / mz["peak_mb"], 2),
        "size": round(dd["bytes"] / mz["bytes"], 1),
    }
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
