"""SVG path data (`<path d="M 0 0 L 10 0 …">`) read into absolute move, line, cubic-curve and close
commands in mm, every mistake named by the command it is in.

Our own small reader for the letters and numbers (so a mistake is said in words, with where it is);
svglib, already a dependency for icons, converts elliptical arcs to cubic curves (imported only when a
path has an arc: checking a pack imports no drawing library).
"""

from __future__ import annotations

import re

Command = tuple[str | float, ...]
ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_TOKEN = re.compile(r"\s*,?\s*([MLHVCSQTAZmlhvcsqtaz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
MAX_COMMANDS = 20_000


def parse_path(d: str, ox: float = 0.0, oy: float = 0.0) -> tuple[Command, ...]:
    """Path data -> ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",), moved by (ox, oy)."""
    tokens = _tokens(d)
    if not tokens or not isinstance(tokens[0], str) or tokens[0] not in "Mm":
        raise ValueError('path data starts with a move, M x y (e.g. d="M 0 0 L 10 0 L 5 8 Z")')
    out: list[Command] = []
    x = y = sx = sy = 0.0
    last_c: tuple[float, float] | None = None  # the previous cubic's second control point (for S)
    last_q: tuple[float, float] | None = None  # the previous quadratic's control point (for T)
    i = 0
    letter = ""
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, str):
            letter, i = tok, i + 1
        elif letter in ("", "Z", "z"):
            raise ValueError(f"path data: the number {tok:g} follows no command letter")
        n = ARGS[letter.upper()]
        nums = tokens[i : i + n]
        if len(nums) < n or any(isinstance(v, str) for v in nums):
            raise ValueError(
                f"path data: '{letter}' takes {n} number{'s' if n != 1 else ''} "
                f"({_HELP[letter.upper()]}); found {' '.join(f'{v:g}' if isinstance(v, float) else v for v in nums) or 'none'}"
            )
        i += n
        v = [float(t) for t in nums]
        rel = letter.islower()
        up = letter.upper()
        bx, by = (x, y) if rel else (0.0, 0.0)
        cur_c, cur_q = None, None
        if up == "M":
            x, y = bx + v[0], by + v[1]
            sx, sy = x, y
            out.append(("M", x + ox, y + oy))
            letter = "l" if rel else "L"  # more pairs after a move are lines
        elif up == "L":
            x, y = bx + v[0], by + v[1]
            out.append(("L", x + ox, y + oy))
        elif up == "H":
            x = bx + v[0]
            out.append(("L", x + ox, y + oy))
        elif up == "V":
            y = by + v[0]
            out.append(("L", x + ox, y + oy))
        elif up in "CS":
            if up == "C":
                c1 = (bx + v[0], by + v[1])
                rest = v[2:]
            else:
                c1 = (2 * x - last_c[0], 2 * y - last_c[1]) if last_c else (x, y)
                rest = v
            c2 = (bx + rest[0], by + rest[1])
            x, y = bx + rest[2], by + rest[3]
            out.append(("C", c1[0] + ox, c1[1] + oy, c2[0] + ox, c2[1] + oy, x + ox, y + oy))
            cur_c = c2
        elif up in "QT":
            if up == "Q":
                q = (bx + v[0], by + v[1])
                end = (bx + v[2], by + v[3])
            else:
                q = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                end = (bx + v[0], by + v[1])
            c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))  # a quadratic curve as a cubic one
            c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
            x, y = end
            out.append(("C", c1[0] + ox, c1[1] + oy, c2[0] + ox, c2[1] + oy, x + ox, y + oy))
            cur_q = q
        elif up == "A":
            rx, ry, phi, large, sweep = abs(v[0]), abs(v[1]), v[2], v[3], v[4]
            if large not in (0, 1) or sweep not in (0, 1):
                raise ValueError("path data: an arc's two flags (the 4th and 5th numbers of 'A') are 0 or 1")
            end = (bx + v[5], by + v[6])
            if rx < 1e-9 or ry < 1e-9:
                out.append(("L", end[0] + ox, end[1] + oy))
            else:
                from svglib.utils import bezier_arc_from_end_points

                for seg in bezier_arc_from_end_points(x, y, rx, ry, phi, int(large), int(sweep), *end):
                    out.append(("C", *(c + (ox if k % 2 == 0 else oy) for k, c in enumerate(seg[2:]))))
            x, y = end
        else:  # Z
            out.append(("Z",))
            x, y = sx, sy
        last_c, last_q = cur_c, cur_q
        if len(out) > MAX_COMMANDS:
            raise ValueError(f"path data: more than {MAX_COMMANDS} commands; draw it as an <image> instead")
    return tuple(out)


_HELP = {
    "M": "x y",
    "L": "x y",
    "H": "x",
    "V": "y",
    "C": "x1 y1 x2 y2 x y",
    "S": "x2 y2 x y",
    "Q": "x1 y1 x y",
    "T": "x y",
    "A": "rx ry rotation large-arc sweep x y",
    "Z": "nothing",
}


def _tokens(d: str) -> list[str | float]:
    out: list[str | float] = []
    pos = 0
    text = d.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            bad = text[pos:].strip()[:12]
            raise ValueError(
                f"path data: cannot read '{bad}' (at character {pos + 1}): use the letters "
                "M L H V C S Q T A Z and numbers"
            )
        tok = m.group(1)
        out.append(tok if tok.isalpha() else float(tok))
        pos = m.end()
    return out


def bounds(commands: tuple[Command, ...]) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of every point a path names (curves' control points included: generous)."""
    xs = [float(c[k]) for c in commands for k in range(1, len(c), 2)]
    ys = [float(c[k]) for c in commands for k in range(2, len(c), 2)]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def flattened(commands: tuple[Command, ...], steps: int = 8) -> list[list[tuple[float, float]]]:
    """The path as polygons (one per subpath), each curve cut into `steps` straight pieces."""
    out: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for c in commands:
        kind, v = c[0], [float(t) for t in c[1:]]
        if kind == "M":
            if len(cur) > 1:
                out.append(cur)
            cur = [(v[0], v[1])]
        elif kind == "L":
            cur.append((v[0], v[1]))
        elif kind == "C" and cur:
            (x0, y0), (x1, y1, x2, y2, x3, y3) = cur[-1], v
            for k in range(1, steps + 1):
                t = k / steps
                a, b, cc, dd = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3
                cur.append((a * x0 + b * x1 + cc * x2 + dd * x3, a * y0 + b * y1 + cc * y2 + dd * y3))
        elif kind == "Z" and cur:
            out.append(cur)
            cur = [cur[0]]
    if len(cur) > 1:
        out.append(cur)
    return out
