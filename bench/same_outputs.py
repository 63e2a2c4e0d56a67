"""Every sample pack built by two versions of mazmorra in every layout, export and printer profile:
are the files byte-identical? For a change that must not change what is printed (a refactor).

    python bench/same_outputs.py --before REV [--only NAME,NAME] [--keep DIR]

REV is a git revision of this repository: it is checked out into a temporary worktree and run with
this checkout's virtual environment (`PYTHONPATH` points at its `cli/`); the current checkout is the
"after". Both build the same content (a copy of this checkout's `content/`, outside git), so only the
code differs. Each
variant is one `mazmorra build` of every pack, both languages, into its own folder; every file is
compared by SHA-256, hidden folders (caches, make's dependency files and stamps) left out. Prints one
line per variant and every file that differs or exists on one side only; exit 1 if any does.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# name -> the options of `mazmorra build` it adds (every pack, every language).
VARIANTS: dict[str, list[str]] = {
    "default": [],
    "fold": ["--layout", "fold"],
    "letter": ["--page", "letter"],
    "a3-landscape": ["--page", "a3", "--landscape"],
    "short-duplex": ["--duplex", "short", "--back-offset", "1,-0.5"],
    "no-backs": ["--duplex", "none", "--cut-lines", "--gutter", "2", "--no-crop-marks"],
    "greyscale": ["--greyscale"],
    "ink-saver": ["--ink-saver", "--bleed", "0"],
    "stamp": ["--stamp", "--set", "watermark=PLAYTEST"],
    "card-pdfs": ["--no-pdf", "--card-pdfs"],
    "png": ["--no-pdf", "--png", "--dpi", "60"],
    "png-tgc": ["--no-pdf", "--png-profile", "tgc"],
    "tts": ["--no-pdf", "--tts", "--dpi", "60", "--tts-url", "https://example.org/decks/{lang}"],
    "gallery": ["--no-pdf", "--gallery", "--draft"],
    "cut-file": ["--no-pdf", "--cut-file"],
    **{
        f"printer-{name}": ["--printer", name]
        for name in (
            "drivethrucards",
            "thegamecrafter",
            "makeplayingcards",
            "printerstudio",
            "home-a4",
            "home-letter",
        )
    },
}


def packs(content: Path) -> list[str]:
    return sorted(str(p) for p in content.iterdir() if (p / "pack.yaml").is_file())


def build(cli: Path, content: Path, out: Path, options: list[str]) -> str:
    """One variant built by the package under `cli`; its stderr's last lines if it failed, else ''."""
    env = {**os.environ, "PYTHONPATH": str(cli), "CI": "1", "NO_COLOR": "1", "MAZMORRA_JOBS": "2"}
    done = subprocess.run(
        [sys.executable, "-m", "mazmorra", "build", *packs(content), "--out", str(out), *options],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        return "\n".join((done.stdout + done.stderr).splitlines()[-15:])
    return ""


def digests(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if p.is_file() and not any(part.startswith(".") for part in rel.parts):
            out[rel.as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="a git revision of this repository")
    ap.add_argument("--only", default="", help="comma list of variants (default: all)")
    ap.add_argument("--keep", type=Path, help="build into this folder and keep it (the before builds are reused)")
    args = ap.parse_args()
    wanted = [v for v in args.only.split(",") if v] or list(VARIANTS)
    unknown = [v for v in wanted if v not in VARIANTS]
    if unknown:
        ap.error(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    work = args.keep or Path(tempfile.mkdtemp(prefix="same-outputs-"))
    rev = subprocess.run(
        ["git", "rev-parse", args.before], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()
    content = work / "content"  # a copy outside git: a stamp's version is the pack's, not the checkout's
    shutil.rmtree(content, ignore_errors=True)
    shutil.copytree(REPO / "content", content)
    made_of = hashlib.sha256(repr(sorted(digests(content).items())).encode()).hexdigest()
    tree = work / "before-tree"
    if not tree.exists():
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(tree), args.before], cwd=REPO, check=True)
    failed = 0
    try:
        for name in wanted:
            sides = {}
            for side, cli in (("before", tree / "cli"), ("after", REPO / "cli")):
                out = work / side / name
                mark = out / ".built-by"
                marked = f"{rev} {made_of} {VARIANTS[name]}"
                if side == "before" and mark.is_file() and mark.read_text() == marked:
                    sides[side] = digests(out)  # kept from an earlier run (--keep) of the same revision
                    continue
                shutil.rmtree(out, ignore_errors=True)
                error = build(cli, content, out, VARIANTS[name])
                if not error and side == "before":
                    mark.write_text(marked)
                if error:
                    print(f"{name}: the {side} build failed:\n{error}")
                    failed += 1
                    break
                sides[side] = digests(out)
            else:
                before, after = sides["before"], sides["after"]
                differ = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
                only = sorted(before.keys() ^ after.keys())
                same = len(before.keys() & after.keys()) - len(differ)
                print(f"{name}: {same} identical, {len(differ)} differ, {len(only)} on one side only")
                for k in differ:
                    print(f"  differs: {k}")
                for k in only:
                    print(f"  only {'before' if k in before else 'after'}: {k}")
                failed += bool(differ or only)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO, check=False)
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
