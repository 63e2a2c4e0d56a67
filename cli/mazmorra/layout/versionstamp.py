"""The version stamp of a playtest build (`build --stamp`): one line of small print on every face
saying which version of the pack and of the component it shows, so a card on the table can be told
from the one before it and matched with its source.

Its text is the pack's version (pack.yaml `version:`, else the git describe of the pack's folder)
and a short hash of what the component prints (its localised data: not where it stands in its file,
not the comments around it), e.g. `0.3 · 7f3a9c`. A template places it with `<stamp/>`; on a face
whose template does not, the layout tries places along the safe area's edge, bottom centre first,
and stamps the first one where it passes every print check (legible size, contrast, safe area,
overlaps). Drawn last, over everything, so nothing covers it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.contracts import CircleOp, Face, Op, PolyOp, TextOp
from mazmorra.errors import Problem
from mazmorra.layout.elements.attrs import AT, FaceContext, Owner, choice, length, located, number, opt_colour
from mazmorra.model.printspec import PrintSpec
from mazmorra.model.units import PT_PER_MM

HASH_LEN = 6  # hex digits: a changed component keeps its old hash once in 16 million
SEP = " · "
FONT = fonts.DEFAULT
ALIGN = ("center", "left", "right")
ATTRS = frozenset({"x", "y", "w", "size", "color", "align"})
ASCENT, DESCENT = 0.8, 0.3  # of the font size: the line's top and bottom from its baseline (generous)
INKS = ("#4d4d4d", "#e6e6e6", "#000000", "#ffffff")  # greys first: small print, not a headline
STEPS = (0.25, 30.0, 0.5)  # mm: the layout looks inwards from the safe area's edge in steps this long on a face
# smaller than 30 mm, this long on a larger one (fewer tries: a card has room to spare)
REACH = (4.0, 0.25, 8.0)  # mm, and how far: at least 4, a quarter of the face's shorter side, at most 8


def pack_version(pack_root: Path, declared: str | None) -> str | None:
    """The version a stamp prints: pack.yaml's `version:`, else `git describe --tags --always` of
    the pack's folder, `-dirty(…)` naming what of the pack's own folder is not committed (one file's
    name, else how many); None when neither is known (no git, not a work tree)."""
    if declared:
        return declared
    found = _git(pack_root, "describe", "--tags", "--always")
    if not found or len(found) > 80:
        return None
    return found + _dirty(pack_root)


def _dirty(pack_root: Path) -> str:
    """`-dirty(cartas.yaml)`, `-dirty(3 files)`, or "" when the pack's folder is as committed: the
    files outside it (a round's notes, another pack) are not what its cards print."""
    listed = _git(pack_root, "-c", "core.quotepath=off", "status", "--porcelain", "--untracked-files=all", "--", ".")
    changed = [line[3:].rstrip("/").rsplit("/", 1)[-1] for line in (listed or "").splitlines() if line[3:]]
    if not changed:
        return ""
    return f"-dirty({changed[0][:40]})" if len(changed) == 1 else f"-dirty({len(changed)} files)"


def _git(cwd: Path, *args: str) -> str | None:
    """git's output in `cwd` (its last newline dropped); None when git is missing or fails."""
    git = shutil.which("git")
    if git is None:
        return None
    try:  # a pack from elsewhere may come with its repository: run none of its hooks, write nothing to it
        run = subprocess.run(
            [git, "-c", "core.fsmonitor=false", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout.rstrip("\n") if run.returncode == 0 else None


def digest(data: Mapping[str, Any]) -> str:
    """A short hash of what a component prints: its data as canonical JSON (keys sorted), so the
    same content gives the same hash on every run and machine, and any change of it another."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=_plain, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_LEN]


def _plain(value: Any) -> Any:
    """What JSON cannot write, in an order that does not vary from run to run (a set's does)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


def stamp_text(version: str | None, data: Mapping[str, Any]) -> str:
    """`<version> · <hash>`, or the hash alone when the version is unknown."""
    printed = {k: v for k, v in data.items() if k != "copies"}  # how many print is not what each prints
    return f"{version}{SEP}{digest(printed)}" if version else digest(printed)


def printed_in(face: Face, text: str) -> bool:
    """Whether a face already prints a stamp's hash (its template wrote `{{ stamp }}` in a text)."""
    tail = text.rsplit(SEP, 1)[-1]
    return any(isinstance(op, TextOp) and tail in op.text for op in face.ops)


def stamp_element(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<stamp x y w size color align>: where the version stamp goes. It is drawn last, over
    everything (`stamp_face`), and only in a build that stamps; its attributes are checked always."""
    if el.get("rotate") is not None:
        raise ValueError("<stamp> does not turn: place it along an edge of the safe area")
    _size(el, ctx.printing)
    opt_colour(el, "color")
    choice(el, "align", ALIGN)
    for name in ("x", "y", "w"):
        length(el, name, 0)
    if ctx.stamp_at is not None:
        raise ValueError("a face has one <stamp>")
    ctx.stamp_at = (el, ox, oy, ctx.overlapping > 0 or el.get("overlap") == "ok")


def _size(el: ET.Element | None, printing: PrintSpec) -> float:
    floor = printing.min_size.label
    size = number(el, "size", floor) if el is not None else floor
    if size < floor - 1e-9:
        raise ValueError(
            f"<stamp size='{size:g}'> is below the smallest legible size for a label ({floor:g} pt, "
            "pack.yaml print: min_size: label:)"
        )
    return size


def stamp_face(face: Face, ctx: FaceContext, text: str) -> Face | None:
    """The face with its version stamp drawn last: where its template's <stamp> says, else at the
    first place along the safe area's edge where it passes the print checks (the hash alone when
    the whole text fits nowhere); failing that, the first where it may lie across frames, plates
    and rings (overlap="ok") but keeps clear of text, icons and pictures. None: no room anywhere."""
    from mazmorra.layout.printcheck.contrast import colour_under, contrast
    from mazmorra.layout.printcheck.facecheck import clear_area, contrast_of, room_findings
    from mazmorra.layout.printcheck.ink import inks
    from mazmorra.layout.printcheck.inkindex import Index

    printing, icons = ctx.printing, ctx.icons
    safe = printing.safe_mm if ctx.safe_margin is None else ctx.safe_margin
    missing = fonts.missing_chars(text, FONT)
    if missing:  # a version: from pack.yaml, or a tag's name
        message = f"the version stamp “{text}”: {fonts.missing_message(missing, FONT)}"
        ctx.problems.append(Problem("text.missing-glyph", message, None, ctx.component, lang=ctx.lang, once=True))
    drawn = inks(face.ops, ctx.owners)
    index = Index(drawn)
    need = printing.contrast.text

    def grounds(x: float, baseline: float, width: float, size: float) -> list[str | None]:
        """The colours under the run, along the middle of its x-height (where the check looks);
        None where a picture is."""
        y = baseline - size / PT_PER_MM * 0.3
        return [colour_under(face, index, x + width * k / 4, y, icons, len(drawn)) for k in range(5)]

    def ink_for(x: float, baseline: float, width: float, size: float) -> str | None:
        """The first of INKS the run reads in against everything under it; None when none does,
        or a picture is under it."""
        under = grounds(x, baseline, width, size)
        if None in under:
            return None
        return next((c for c in INKS if all(contrast(c, g) >= need - 1e-9 for g in under if g)), None)

    def best_ink(x: float, baseline: float, width: float, size: float) -> str:
        """The colour a template's <stamp> takes when none passes everywhere: the one that stands
        out most from what it can see under it."""
        under = [g for g in grounds(x, baseline, width, size) if g] or ["#ffffff"]
        return ink_for(x, baseline, width, size) or max(INKS, key=lambda c: min(contrast(c, g) for g in under))

    placed = ctx.stamp_at
    if placed is not None:
        el, ox, oy, marked = placed
        with located(el):
            size = _size(el, printing)
            width = fonts.width(text, FONT, size) / PT_PER_MM
            x0 = ox + length(el, "x", safe)
            w = length(el, "w", face.w - safe - x0)
            align = choice(el, "align", ALIGN)
            x = {"left": x0, "right": x0 + w - width}.get(align, x0 + (w - width) / 2)
            em = size / PT_PER_MM
            baseline = face.h - safe - em * DESCENT - 0.05  # the bottom of the safe area, by default
            if el.get("y") is not None:
                baseline = oy + length(el, "y") + em * ASCENT
            chosen = opt_colour(el, "color") or best_ink(x, baseline, width, size)
        op = TextOp(x, baseline, text, FONT, size, chosen)
        return _drawn(face, ctx, op, Owner(ctx.new_part(), el.get(AT), "stamp", overlap=marked))
    size = _size(None, printing)
    em = size / PT_PER_MM
    # Three passes: clear of everything; then across frames and plates (rectangles, rules) but clear of
    # any other shape a template lets overlap (a pointer, a ring); then across those too.
    for shapes, marks in ((True, True), (False, True), (False, False)):
        for words in dict.fromkeys((text, text.rsplit(SEP, 1)[-1])):
            width = fonts.width(words, FONT, size) / PT_PER_MM
            for x, baseline in _places(face, width, em, safe):
                op = TextOp(x, baseline, words, FONT, size, INKS[0])
                if not clear_area(face, drawn, op, icons, safe):
                    continue  # the cheapest checks first: the safe area, then the colour, then the pixels
                if marks and _crosses_marks(face, x, baseline - em * ASCENT, x + width, baseline + em * DESCENT):
                    continue
                colour = ink_for(x, baseline, width, size)
                if colour is None or next(room_findings(face, drawn, op, icons, safe, shapes), None) is not None:
                    continue
                if contrast_of(face, drawn, op := replace(op, color=colour), printing, icons):
                    continue
                return _drawn(face, ctx, op, Owner(ctx.new_part(), None, "stamp", overlap=not shapes))
    return None


def _crosses_marks(face: Face, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether the box (mm) meets a polygon or a circle of the face: shapes a stamp should not
    cross even where the template lets things overlap them."""
    for op in face.ops:
        if isinstance(op, PolyOp) and op.points:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            box = (min(xs), min(ys), max(xs), max(ys))
        elif isinstance(op, CircleOp):
            box = (op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r)
        else:
            continue
        if box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]:
            return True
    return False


def _drawn(face: Face, ctx: FaceContext, op: TextOp, owner: Owner) -> Face:
    """The face with `op` drawn over everything, owned by `owner` for the print checks."""
    ctx.owners[len(face.ops)] = owner
    return replace(face, ops=(*face.ops, op))


def _places(face: Face, width: float, em: float, safe: float) -> Iterator[tuple[float, float]]:
    """Where a run `width` mm long may go, as (x, baseline), best first: along the bottom of the
    safe area (centre, right, left), then along its top, each a little further inwards in turn."""
    least, share, most = REACH
    fine, small, coarse = STEPS
    short = min(face.w, face.h)
    step = fine if short < small else coarse
    offsets = [k * step for k in range(round(min(max(least, share * short), most) / step) + 1)]
    if face.shape == "round":
        r = min(face.w, face.h) / 2 - safe
        half = width / 2 + em * 0.1
        if half >= r:
            return
        reach = math.sqrt(r * r - half * half)  # the lowest (highest) a run of that width stays inside
        cx, cy = face.w / 2, face.h / 2
        for d in offsets:
            yield cx - width / 2, cy + reach - em * DESCENT - 0.05 - d
        for d in offsets:
            yield cx - width / 2, cy - reach + em * ASCENT + 0.25 + d
        return
    xs = (
        (face.w - width) / 2,
        face.w - safe - width - 0.05,
        safe + em * 0.1 + 0.05,
    )
    for d in offsets:
        for x in xs:
            yield x, face.h - safe - em * DESCENT - 0.05 - d
    for d in offsets:
        for x in xs:
            yield x, safe + em * ASCENT + 0.25 + d
