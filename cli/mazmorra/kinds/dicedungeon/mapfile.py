"""A generated map as content: its YAML entry in a deck file (written the same way every time, so the
same map is the same bytes) and an SVG preview of its plan."""

from __future__ import annotations

import json
import re
from html import escape  # not xml.sax.saxutils: it imports urllib.request, http and ssl
from typing import Any

from mazmorra.kinds.dicedungeon.plan import STEP

_PLAIN = re.compile(r"^[a-z][a-z0-9_-]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def scalar(value: Any) -> str:
    """One YAML scalar: numbers and plain words as they are, anything else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if value is None:
        return "null"
    text = str(value)
    return text if _PLAIN.match(text) and text not in _YAML_WORDS else json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """A value on one line: {a: 1, b: [2, 3]}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def map_entry(data: dict[str, Any], command: str) -> str:
    """The map as one entry of a deck file: scalars first, then one line per area, door, exit and roll."""
    lines = [f"- id: {scalar(data['id'])}", f"  # rolled by `{command}`: the same seed and tables give this map again"]
    lists = []
    for key, value in data.items():
        if key == "id":
            continue
        if isinstance(value, list):
            lists.append((key, value))
        else:
            lines.append(f"  {key}: {flow(value)}")
    for key, items in lists:
        if not items:
            lines.append(f"  {key}: []")
            continue
        lines.append(f"  {key}:")
        lines += [f"    - {flow(item)}" for item in items]
    return "\n".join(lines) + "\n"


def with_entry(deck_text: str, starts: list[tuple[str, int]], comp_id: str, entry: str) -> str:
    """The deck file's text with `entry` in place of the component `comp_id` (whose lines run from its
    own start to the next component's), or added at the end. `starts`: (id, 1-based line) in order."""
    lines = deck_text.splitlines(keepends=True)
    for i, (cid, line) in enumerate(starts):
        if cid == comp_id:
            end = starts[i + 1][1] - 1 if i + 1 < len(starts) else len(lines)
            block = entry + ("\n" if i + 1 < len(starts) else "")
            return "".join(lines[: line - 1]) + block + "".join(lines[end:])
    if not starts:  # an empty deck (or `[]`): the file is the map, after any leading comments
        head = "".join(ln for ln in lines if ln.lstrip().startswith("#") or not ln.strip())
        return head + entry
    text = deck_text if deck_text.endswith("\n") else deck_text + "\n"
    return text + "\n" + entry


COLOURS = {
    "entrance": "#7fb3d5",
    "corridor": "#e8dcc2",
    "special-corridor": "#f5cba7",
    "corner": "#e8dcc2",
    "junction": "#e8dcc2",
    "stairs-down": "#7fb3d5",
    "stairs-up": "#7fb3d5",
    "special-end": "#f5cba7",
    "room": "#d5c4a1",
    "special-room": "#f0b27a",
    "lair": "#e6a0a0",
    "quest": "#f7dc6f",
}
PX = 10  # preview pixels per square


def preview_svg(data: dict[str, Any], walls: list[dict[str, Any]]) -> str:
    """The map's plan as a small SVG: areas coloured by type and numbered, walls, doors (secret ones
    dashed) and the unexplored ways on; no words, so it reads the same in every language."""
    cols, rows, dw = data["cols"], data["rows"], data["door_width"]
    w, h = cols * PX + 2 * PX, rows * PX + 2 * PX
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f"<title>{escape(str(data['id']), quote=False)} ({data.get('seed')})</title>",
        f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
        f'<g transform="translate({PX} {PX})" font-family="sans-serif" font-size="7">',
    ]
    for a in data["areas"]:
        (x, y), (aw, ah) = a["at"], a["size"]
        out.append(
            f'<rect x="{x * PX}" y="{y * PX}" width="{aw * PX}" height="{ah * PX}" fill="{COLOURS[a["type"]]}" '
            'stroke="#b3a68c" stroke-width="0.5"/>'
        )
        out.append(f'<text x="{x * PX + 1.5}" y="{y * PX + 7.5}" fill="#333333">{a["n"]}</text>')
    for wall in walls:
        r0, r1 = _span(wall["r"])
        c0, c1 = _span(wall["c"])
        side = wall["side"]
        if side in ("n", "s"):
            y = (r0 + (side == "s")) * PX
            out.append(
                f'<line x1="{c0 * PX}" y1="{y}" x2="{(c1 + 1) * PX}" y2="{y}" stroke="#222222" stroke-width="1.5"/>'
            )
        else:
            x = (c0 + (side == "e")) * PX
            out.append(
                f'<line x1="{x}" y1="{r0 * PX}" x2="{x}" y2="{(r1 + 1) * PX}" stroke="#222222" stroke-width="1.5"/>'
            )
    for d in data["doors"]:
        out.append(_gap(d["at"], d["side"], dw, "#8b5a2b", d.get("secret", False)))
    for e in data["exits"]:
        out.append(_arrow(e["at"], e["side"], e.get("width", dw)))
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def _span(value: str) -> tuple[int, int]:
    a, _, b = value.partition("-")
    return int(a), int(b or a)


def _gap(at: list[int], side: str, width: int, colour: str, secret: bool) -> str:
    x, y = at
    t = 3.0
    box: tuple[float, float, float, float]
    if side in ("n", "s"):
        yy = (y + (side == "s")) * PX - t / 2
        box = (x * PX, yy, width * PX, t)
    else:
        xx = (x + (side == "e")) * PX - t / 2
        box = (xx, y * PX, t, width * PX)
    style = 'fill="#ffffff" stroke-dasharray="2 1.5"' if secret else f'fill="{colour}"'
    return (
        f'<rect x="{box[0]:g}" y="{box[1]:g}" width="{box[2]:g}" height="{box[3]:g}" {style} '
        f'stroke="{colour}" stroke-width="0.8"/>'
    )


def _arrow(at: list[int], side: str, width: int) -> str:
    dx, dy = STEP[side]
    x, y = at
    along = (1, 0) if side in ("n", "s") else (0, 1)
    cx = (x + 0.5 + along[0] * (width - 1) / 2) * PX + dx * PX * 0.5
    cy = (y + 0.5 + along[1] * (width - 1) / 2) * PX + dy * PX * 0.5
    tip = (cx + dx * PX * 0.4, cy + dy * PX * 0.4)
    a = (cx - dx * PX * 0.2 + dy * PX * 0.4, cy - dy * PX * 0.2 + dx * PX * 0.4)
    b = (cx - dx * PX * 0.2 - dy * PX * 0.4, cy - dy * PX * 0.2 - dx * PX * 0.4)
    pts = " ".join(f"{px:g},{py:g}" for px, py in (tip, a, b))
    return f'<polygon points="{pts}" fill="#2e86c1"/>'
