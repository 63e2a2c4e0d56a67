"""Benchmarks of issue 15: start-up, `mazmorra serve` (edit -> page latency, idle CPU) and -j.

Each runs real processes as a designer does: the installed command, a server on 127.0.0.1 driven by
a headless Chromium (tests/cdp.py), the files edited on disk. Times are wall-clock; the page
records when the new image has loaded (Date.now() in its `load` event) and the edit when it was
written (time.time() here), both on this machine's clock.
"""

from __future__ import annotations

import json
import os
import resource
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))
ENV = {"CI": "1", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_COLOR": "1"}


def _mz(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None, python: str = sys.executable) -> float:
    t0 = time.perf_counter()
    res = subprocess.run(
        [python, "-m", "mazmorra", *args], cwd=cwd, env={**ENV, **(env or {})}, capture_output=True, text=True
    )
    seconds = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"mazmorra {' '.join(args)} failed:\n{res.stderr[-3000:]}")
    return seconds


def startup(repeat: int = 7) -> dict[str, float]:
    """Median wall time of `mazmorra --help`, `--version` and `validate` of the smallest sample pack."""
    out = {}
    for name, args in (("help", ("--help",)), ("version", ("--version",)), ("validate", ("validate", "muestras"))):
        runs = [_mz(*args) for _ in range(repeat)]
        out[name] = statistics.median(runs)
    return out


def parallel(root: Path, big_pack: Path, repeat: int = 2) -> dict[str, float]:
    """Best wall time of `mazmorra build` of every sample pack and of a synthetic pack (both
    languages) with -j1 and -j2, each from a clean output folder."""
    out = {}
    for label, args, cwd in (("samples", (), REPO), ("synthetic", (str(big_pack),), REPO)):
        for jobs in ("1", "2"):
            best = float("inf")
            for _ in range(repeat if label == "samples" else 1):
                target = root / f"par-{label}-{jobs}"
                shutil.rmtree(target, ignore_errors=True)
                best = min(best, _mz("build", *args, "-j", jobs, "--out", str(target), cwd=cwd))
            out[f"{label}_j{jobs}"] = best
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def preview(
    root: Path, python: str = sys.executable, name: str = "serve", checkout: Path = REPO, idle: bool = True
) -> dict[str, float]:
    """`mazmorra serve` on a copy of the expedition pack: one card's name edited -> its new image
    loaded in the page (median of several edits); a colour of the family's shared palette template
    edited -> the page updated with every affected face; CPU the idle server uses."""
    from cdp import Browser

    project = root / name
    shutil.copytree(checkout / "content" / "expedicion", project / "content" / "expedicion")  # as both sides read it
    shutil.copytree(checkout / "cli" / "mazmorra" / "templates", project / "templates")
    port = _free_port()
    proc = subprocess.Popen(
        [python, "-m", "mazmorra", "serve", "expedicion", "--port", str(port)],
        cwd=project,
        env={**ENV, "MAZMORRA_TEMPLATES": str(project / "templates")},
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    out: dict[str, float] = {}
    try:
        _wait_line(proc, "previewing")
        deck = project / "content" / "expedicion" / "decks" / "artimanas.yaml"
        with Browser(root / f"chromium-{name}") as b:
            b.open(url)
            b.wait_for("document.documentElement.dataset.status === 'ok'", timeout=30)
            b.js(
                "window.__loaded = []; document.addEventListener('load', e => { if (e.target.tagName === 'IMG')"
                " window.__loaded.push([e.target.closest('article').id, e.target.getAttribute('src'), Date.now()]); },"
                " true); 0"
            )
            name = "Mala racha"
            card_ms = []
            for i in range(5):
                new = f"Mala racha {i + 1}"
                text = deck.read_text(encoding="utf-8")
                b.js("window.__loaded = []; 0")
                t0 = time.time()
                deck.write_text(text.replace(f"name: {name}\n", f"name: {new}\n"), encoding="utf-8")
                name = new
                loaded = b.wait_for(
                    "window.__loaded.filter(x => x[0] === 'c-mala-racha' && x[1].includes('front'))[0]", timeout=10
                )
                if not loaded:
                    raise SystemExit("the edited card's new image never loaded in the page")
                card_ms.append(loaded[2] - t0 * 1000)
                time.sleep(0.3)
            out["card_ms"] = statistics.median(card_ms)
            out["card_ms_max"] = max(card_ms)
            out.update({f"card_ms_{i}": ms for i, ms in enumerate(card_ms)})  # each edit (a figure of many runs)

            palette = project / "templates" / "expedition-palette.j2"
            before = json.loads(urllib.request.urlopen(url + "status.json").read())["version"]
            t0 = time.time()
            palette.write_text(palette.read_text(encoding="utf-8").replace('"#4d5b3a"', '"#4d5b3b"'), encoding="utf-8")
            b.wait_for(f"Number(document.documentElement.dataset.version) > {before}", timeout=30)
            shown = (  # the pictures in view: the others load (lazily) when scrolled to
                "[...document.querySelectorAll('img.thumb')].filter(i => { const r = i.getBoundingClientRect();"
                " return r.bottom > 0 && r.top < innerHeight; })"
            )
            if not b.wait_for(
                f"{shown}.length > 0 && {shown}.every(i => i.complete && i.naturalWidth > 0)", timeout=30
            ):
                raise SystemExit("the page did not show the faces after the template edit")
            out["template_ms"] = time.time() * 1000 - t0 * 1000
            status = json.loads(urllib.request.urlopen(url + "status.json").read())
            out["template_build_ms"] = status["seconds"] * 1000

        if idle:  # the CPU the idle server uses (10 s)
            time.sleep(2)  # the browser is gone; nothing left to do
            cpu0, t0 = _cpu_seconds(proc.pid), time.monotonic()
            time.sleep(10)
            out["idle_cpu_percent"] = 100 * (_cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    return out


def _wait_line(proc: subprocess.Popen[str], needle: str, timeout: float = 120) -> None:
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        if select.select([proc.stderr], [], [], 0.5)[0]:
            line = proc.stderr.readline()
            seen.append(line)
            if needle in line:
                return
            if not line and proc.poll() is not None:
                break
    raise SystemExit(f"serve did not start:\n{''.join(seen)}")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    """`python bench/live.py --before COMMIT [--repeat 7] [--preview]`: start-up (`--help`, `--version`,
    `validate muestras`) and, with --preview, the live preview's latencies, before and after side by
    side: runs alternated, medians with their spread (min-max), wall and CPU, ratio after / before."""
    import argparse
    import tempfile

    from designer import _checkout

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--before", required=True, help="a commit of this repository, or another checkout's Python")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--preview", action="store_true", help="also the live preview (headless Chromium), once each")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mz-live-") as tmp:
        before = args.before if Path(args.before).exists() else _checkout(args.before, Path(tmp))
        sides = {"before": before, "after": sys.executable}
        for name, cmd in (
            ("--help", ("--help",)),
            ("--version", ("--version",)),
            ("validate", ("validate", "muestras")),
        ):
            wall: dict[str, list[float]] = {s: [] for s in sides}
            cpu: dict[str, list[float]] = {s: [] for s in sides}
            for python in sides.values():
                _mz(*cmd, python=python)  # not measured: each side's bytecode written once
            for i in range(args.repeat):
                for side in sides if i % 2 == 0 else reversed(list(sides)):
                    c0 = _children_cpu()
                    wall[side].append(_mz(*cmd, python=sides[side]))
                    cpu[side].append(_children_cpu() - c0)
            parts = []
            for label, runs in (("wall", wall), ("cpu", cpu)):
                med = {s: statistics.median(v) for s, v in runs.items()}
                spread = "; ".join(
                    f"{s} {med[s] * 1000:.0f} [{min(v) * 1000:.0f}-{max(v) * 1000:.0f}] ms" for s, v in runs.items()
                )
                parts.append(f"{label}: {spread}; after / before = {med['after'] / med['before']:.2f}")
            print(f"start-up {name:<10} " + " | ".join(parts), flush=True)
        if args.preview:
            checkout = Path(tmp) / "before" if not Path(args.before).exists() else REPO
            got = {s: preview(Path(tmp), py, f"serve-{s}", checkout) for s, py in sides.items()}
            for key in ("card_ms", "card_ms_max", "template_ms", "idle_cpu_percent"):
                print(f"preview {key:<16} " + "; ".join(f"{s} {v[key]:.0f}" for s, v in got.items()), flush=True)


if __name__ == "__main__":
    main()
