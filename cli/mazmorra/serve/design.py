"""Design mode of the live preview: a face with the outline of every text box, its trim line and
its safe-area line drawn over it, for the page's "Design" toggle only (never in any output file)."""

from __future__ import annotations

from dataclasses import replace

from mazmorra.contracts import Face, Op, RectOp

BOX = "#e0218a"  # text boxes: magenta, a colour no card uses for its own lines
TRIM = "#d62728"
SAFE = "#1f77b4"
WIDTH = 0.25  # mm


def with_guides(face: Face, safe: float) -> Face:
    """The face with its design guides on top: text boxes (solid), trim (dashed red) and the safe
    area (dashed blue), `safe` mm inside the trim unless the face has its own margin."""
    margin = face.safe if face.safe is not None else safe
    guides: list[Op] = [RectOp(x, y, w, h, None, BOX, WIDTH) for x, y, w, h in face.outlines]
    guides.append(RectOp(0.0, 0.0, face.w, face.h, None, TRIM, WIDTH, dash=(1.5, 1.0)))
    if 0 < margin < min(face.w, face.h) / 2:
        inner = (margin, margin, face.w - 2 * margin, face.h - 2 * margin)
        guides.append(RectOp(*inner, None, SAFE, WIDTH, dash=(1.0, 1.0)))
    return replace(face, ops=(*face.ops, *guides))
