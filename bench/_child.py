"""One measured run in a fresh process: `mazmorra` (the whole pipeline) or `baseline` (plain ReportLab).

Prints one JSON line: seconds, peak RSS in MB, faces and pages.
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import sys
import time
from pathlib import Path
from typing import Any


def peak_mb() -> float:
    """The largest resident size of this process or of any process it forked (-j2's layout)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def rss_mb() -> float:
    """This process's resident size now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def hwm_mb() -> float:
    """This process's peak resident size so far (Linux VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def watch_stages() -> dict[str, float]:
    """Peak memory (VmHWM) at the stage boundaries of one build: after loading, after validating,
    when the first page is drawn, when the PDF starts being saved and at the end."""
    import mazmorra.build.pipeline as pipeline
    from mazmorra.render.draw import pdfpages

    marks: dict[str, float] = {}

    def wrap(owner, name, before=None, after=None):  # type: ignore[no-untyped-def]
        real = getattr(owner, name)

        def hooked(*args, **kwargs):  # type: ignore[no-untyped-def]
            if before and before not in marks:
                marks[before] = hwm_mb()
            res = real(*args, **kwargs)
            if after and after not in marks:
                marks[after] = hwm_mb()
            return res

        setattr(owner, name, hooked)

    wrap(pipeline, "load_pack", after="loaded")
    wrap(pipeline, "validate", after="validated")
    wrap(pdfpages.PdfPages, "page", before="first page")
    wrap(pdfpages.PdfPages, "save", before="save", after="saved")
    try:  # a document drawn in chunks (render/draw/chunks.py) saves, or merges, by its own method
        from mazmorra.render.draw import chunks

        wrap(chunks.ChunkedPages, "save", before="save", after="saved")
    except ImportError:  # a checkout from before chunks
        pass
    return marks


def stores_off(off: set[str]) -> dict[str, Any]:
    """Builds in this process neither read nor write the stores named in `off`: a cache folder's
    name (faces, chunks, forms, templates, colour-only, checks) or an entry kind of the early stages'
    memo in checks/ (yaml, yaml items, kinds, font, po, glossary, house, svg picture): every read misses, nothing
    is written, so the build does what it would do with no such store. Returned, filled in as the
    build runs: how many reads and writes were turned away (none: no store has that name now), and
    the CPU seconds (`time.process_time`) every other store's reads and writes took, by store, with
    the face cache's encoding under "faces" and the keys every store hashes under "keys"."""
    import mazmorra.layout.cache.facecache as facecache
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.support.memo import Memo

    get, put, key = FaceCache.get, FaceCache.put, Memo.key
    memo_get_, memo_put_ = Memo.get, Memo.put
    encode, face_key, canonical = facecache.encode, facecache.key, facecache.canonical
    kinds: dict[str, str] = {}
    spent: dict[str, float] = {}
    report: dict[str, Any] = {"reads": 0, "writes": 0, "seconds": spent}
    clock = time.process_time

    def clocked(name, fn, *args):  # type: ignore[no-untyped-def]
        t0 = clock()
        try:
            return fn(*args)
        finally:
            spent[name] = spent.get(name, 0.0) + clock() - t0

    def face_get(self, k):  # type: ignore[no-untyped-def]
        if self.root.name in off:
            report["reads"] += 1
            return None
        if self.root.name == "checks":  # timed by the memo, under its entry kinds
            return get(self, k)
        return clocked(self.root.name, get, self, k)

    def face_put(self, k, value):  # type: ignore[no-untyped-def]
        if self.root.name in off:
            report["writes"] += 1
        elif self.root.name == "checks":
            put(self, k, value)
        else:
            clocked(self.root.name, put, self, k, value)

    def memo_key(self, *parts):  # type: ignore[no-untyped-def]
        k = clocked("keys", key, self, *parts)
        kinds[k] = parts[0]
        return k

    def memo_get(self, kind, k):  # type: ignore[no-untyped-def]
        if kind in off:
            report["reads"] += 1
            self.missed.append(kind)
            return None
        return clocked(kind, memo_get_, self, kind, k)

    def memo_put(self, k, value):  # type: ignore[no-untyped-def]
        if kinds.get(k) in off:
            report["writes"] += 1
        else:
            clocked(kinds.get(k, "checks"), memo_put_, self, k, value)

    FaceCache.get, FaceCache.put = face_get, face_put  # type: ignore[method-assign]
    Memo.key, Memo.get, Memo.put = memo_key, memo_get, memo_put  # type: ignore[method-assign]
    facecache.encode = lambda *a: clocked("faces", encode, *a)  # type: ignore[assignment]
    facecache.key = lambda *a: clocked("keys", face_key, *a)  # type: ignore[assignment]
    facecache.canonical = lambda *a: clocked("keys", canonical, *a)  # type: ignore[assignment]
    return report


def run_mazmorra(pack: Path, lang: str, out: Path, jobs: str = "1") -> dict:
    """`mazmorra build PACK --lang LANG -j JOBS` through the real command line; "seconds" is the time
    of the build itself (validate to write: the command has loaded the pack before), the parent also times the whole process."""
    import mazmorra.build.pipeline as pipeline
    from mazmorra.commands import main

    timed: dict = {}
    real = pipeline.build

    def build(*args, **kwargs):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        res = real(*args, **kwargs)
        timed.update(seconds=time.perf_counter() - t0, faces=res.faces, pages=res.pages)
        return res

    pipeline.build = build
    if os.environ.get("MZ_BENCH_WITHOUT_CHECKS"):  # bench/floor.py: what the build costs without its print checks
        import mazmorra.layout.face as face

        face._print_checks = lambda *args, **kwargs: []
    if os.environ.get("MZ_BENCH_DRAW_EVERY_PAGE"):  # bench/run.py's "warm": faces from the cache, every page drawn
        try:
            from mazmorra.render.draw import chunks

            chunks.chunk_store = lambda: None  # no chunk cache: no page copied from an earlier build
        except ImportError:  # a checkout from before chunks: it draws every page anyway
            pass
    if "MZ_BENCH_STORES_OFF" in os.environ:  # bench/stores.py: what a store costs and saves ("": none off)
        timed["stores_off"] = stores_off(set(os.environ["MZ_BENCH_STORES_OFF"].split(",")) - {""})
    if os.environ.get("MZ_BENCH_STAGES"):
        timed["stages_mb"] = watch_stages()
    sys.argv = ["mazmorra", "build", str(pack), "--lang", lang, "--out", str(out), "-j", jobs]
    try:
        main()
    except SystemExit as exc:
        if exc.code:
            raise
    return timed


def dump_ops(pack: Path, lang: str, dump: Path) -> None:
    """Lay the pack out with mazmorra (untimed) and save what the baseline has to draw."""
    from _common import layout_context

    from mazmorra.layout import lay_out
    from mazmorra.load import load_pack

    p = load_pack(pack)
    ctx = layout_context(p, lang)
    icons = ctx.icons
    job = lay_out(p.decks[0], ctx)
    items = list(job.items())
    faces = [(i.front.w, i.front.h, i.front.bleed, i.front.background, i.front.ops) for i in items]
    back = items[0].back
    dump.write_bytes(
        pickle.dumps(
            {
                "faces": faces,
                "back": (back.background, back.ops),
                "icons": {k: str(v) for k, v in icons.files.items()},
            }
        )
    )


def run_baseline(dump: Path, out: Path) -> dict:
    """The same frames, icons and final text drawn with plain ReportLab calls, 6 cards a sheet, backs."""
    from reportlab import rl_config
    from reportlab.graphics import renderPDF
    from reportlab.lib.colors import HexColor
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import svg2rlg

    from mazmorra.assets.fonts import FONT_DIR, FONTS
    from mazmorra.contracts import CircleOp, IconOp, LineOp, RectOp, TextOp

    t_load = time.perf_counter()
    data = pickle.loads(dump.read_bytes())
    load_seconds = time.perf_counter() - t_load  # reading mazmorra's layout: not the baseline's work
    t0 = time.perf_counter()
    rl_config.useA85 = 0
    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont("Mz-" + name, str(FONT_DIR / file)))
    k = 72 / 25.4
    page_h = 297 * k
    c = Canvas(str(out), pagesize=(210 * k, page_h), invariant=1, initialFontName="Mz-sans")
    forms: dict[str, tuple[str, float]] = {}

    def draw(ops, bg, x0, y0, w, h, b):
        c.saveState()
        p = c.beginPath()
        p.rect((x0 - b) * k, page_h - (y0 + h + b) * k, (w + 2 * b) * k, (h + 2 * b) * k)
        c.clipPath(p, stroke=0, fill=0)
        if bg:
            c.setFillColor(HexColor(bg))
            c.rect(
                (x0 - b) * k,
                page_h - (y0 + h + b) * k,
                (w + 2 * b) * k,
                (h + 2 * b) * k,
                stroke=0,
                fill=1,
            )
        for op in ops:
            if isinstance(op, TextOp):
                c.setFillColor(HexColor(op.color))
                c.setFont("Mz-" + op.font, op.size)
                c.drawString((x0 + op.x) * k, page_h - (y0 + op.y) * k, op.text)
            elif isinstance(op, RectOp):
                if op.fill:
                    c.setFillColor(HexColor(op.fill))
                if op.stroke:
                    c.setStrokeColor(HexColor(op.stroke))
                    c.setLineWidth(op.stroke_width * k)
                c.roundRect(
                    (x0 + op.x) * k,
                    page_h - (y0 + op.y + op.h) * k,
                    op.w * k,
                    op.h * k,
                    op.radius * k,
                    stroke=1 if op.stroke else 0,
                    fill=1 if op.fill else 0,
                )
            elif isinstance(op, CircleOp):
                if op.fill:
                    c.setFillColor(HexColor(op.fill))
                if op.stroke:
                    c.setStrokeColor(HexColor(op.stroke))
                    c.setLineWidth(op.stroke_width * k)
                c.circle(
                    (x0 + op.cx) * k,
                    page_h - (y0 + op.cy) * k,
                    op.r * k,
                    stroke=1 if op.stroke else 0,
                    fill=1 if op.fill else 0,
                )
            elif isinstance(op, LineOp):
                c.setStrokeColor(HexColor(op.stroke))
                c.setLineWidth(op.stroke_width * k)
                c.line(
                    (x0 + op.x1) * k,
                    page_h - (y0 + op.y1) * k,
                    (x0 + op.x2) * k,
                    page_h - (y0 + op.y2) * k,
                )
            elif isinstance(op, IconOp):
                if op.name not in forms:
                    d = svg2rlg(data["icons"][op.name])
                    d.initialFontName = "Mz-sans"
                    c.beginForm(op.name, 0, 0, d.width, d.height)
                    renderPDF.draw(d, c, 0, 0)
                    c.endForm()
                    forms[op.name] = (op.name, d.width)
                name, width = forms[op.name]
                c.saveState()
                c.translate((x0 + op.x) * k, page_h - (y0 + op.y + op.size) * k)
                s = op.size * k / width
                c.scale(s, s)
                c.doForm(name)
                c.restoreState()
        c.restoreState()

    faces = data["faces"]
    cells = [(39 + col * 69, 10.5 + row * 94) for row in range(3) for col in range(2)]
    pages = 0
    for start in range(0, len(faces), 6):
        chunk = faces[start : start + 6]
        for (x, y), (w, h, b, bg, ops) in zip(cells, chunk):
            draw(ops, bg, x, y, w, h, b)
        c.showPage()
        for i, (w, h, b, _, _) in enumerate(chunk):
            x, y = cells[i ^ 1]
            draw(data["back"][1], data["back"][0], x, y, w, h, b)
        c.showPage()
        pages += 2
    c.save()
    return {"seconds": time.perf_counter() - t0, "faces": 2 * len(faces), "pages": pages, "load_seconds": load_seconds}


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "mazmorra":
        result = run_mazmorra(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), *sys.argv[5:])
    elif mode == "dump":
        dump_ops(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
        sys.exit(0)
    else:
        result = run_baseline(Path(sys.argv[2]), Path(sys.argv[3]))
    result["peak_mb"] = peak_mb()
    print(json.dumps(result))
