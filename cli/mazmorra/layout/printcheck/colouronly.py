"""Colour is never the only carrier of game information (rule `print.colour-only`).

Faces of a deck that show the same shapes, texts and icons in the same places and differ only in
colour are told apart by colour alone. Each such pair is looked at as a greyscale print and as a
player with deuteranopia, protanopia or tritanopia sees it (Machado, Oliveira & Fernandes 2009, "A
Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), severity
1.0, applied in linear RGB): where every colour that tells them apart falls within `SAME` ΔE*ab
(CIE 1976) of its counterpart, the two read as the same component, and the later one is reported at
the field that gives it its colour.
"""

from __future__ import annotations

import hashlib
import marshal
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache

from mazmorra.contracts import CircleOp, Face, IconOp, ImageOp, Op, PolyOp, RectOp, RotateOp, TextOp
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.model.content import Component, Pack
from mazmorra.support.reuse import ByIdentity

SAME = 10.0  # ΔE*ab under which two printed colours read as one (about five just-noticeable steps)
PAINTS = ("fill", "stroke", "color")  # the fields of an op that hold a colour

Matrix = tuple[tuple[float, float, float], ...]
GREY: Matrix = ((0.2126, 0.7152, 0.0722),) * 3  # relative luminance (sRGB primaries) on all three channels
# Machado et al. 2009, table of simulation matrices, severity 1.0
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA: Matrix = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
TRITANOPIA: Matrix = ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900))
VIEWS: dict[str, Matrix] = {
    "greyscale": GREY,
    "deuteranopia": DEUTERANOPIA,
    "protanopia": PROTANOPIA,
    "tritanopia": TRITANOPIA,
}

Shape = tuple[object, ...]
Mark = tuple[str, bytes]  # a small mark: its kind ("square", "'cube' icon") and a hash of the rest of it
# What the check keeps of a face: its small marks with their colours, its shape's hash, its colours.
Summary = tuple[list[tuple[Mark, str]], bytes, tuple[str, ...]]
_NO_MARKS: list[tuple[Mark, str]] = []  # shared by every face without small marks: never changed


def _hashed(value: object) -> bytes:
    """A shape's or a mark's hash: from its compact bytes (marshal's version 2 writes equal plain values,
    str, numbers, tuples, as equal bytes, with no references and no interning flags), else its repr."""
    try:
        data = b"m" + marshal.dumps(value, 2)  # type: ignore[arg-type]  # anything: ValueError below
    except ValueError:  # something marshal cannot write (an enum): its repr, which tells values apart
        data = b"r" + repr(value).encode("utf-8")
    return hashlib.blake2b(data, digest_size=16).digest()


def summary(face: Face, colours: set[str]) -> Summary:
    """What the check needs of a face (plain data, kept between builds beside the face cache): its
    small marks in the game's (lower-case) `colours`, its shape without colours (hashed) and its colours."""
    shape, painted = split(face)
    return [((str(m[0]), _hashed(m)), c) for m, c in small_marks(face, colours)], _hashed(shape), painted


def split(face: Face) -> tuple[Shape, tuple[str, ...]]:
    """The face with its colours taken out (what it shows by shape, text and place) and its colours,
    in drawing order."""
    colours: list[str] = [face.background or ""]

    kept = _STRIPPED.table

    def strip(op: Op) -> Shape:
        hit = kept.get(id(op))  # ByIdentity.get, inline: asked for every op of every face
        if hit is not None and hit[0] is op:
            shape, own = hit[1]
        else:
            mine: list[str] = []
            shape, own = _STRIPPED.put(op, (_strip(op, mine), tuple(mine)))
        colours.extend(own)
        return shape

    shape = (face.side, face.w, face.h, face.shape, face.background is None, tuple(strip(o) for o in face.ops))
    return shape, tuple(colours)


_STRIPPED: ByIdentity[tuple[Shape, tuple[str, ...]]] = ByIdentity(4096)  # an op many faces share, stripped once


def _strip(op: Op, colours: list[str]) -> Shape:
    """One op without its colours, which go to `colours` in drawing order."""
    if isinstance(op, RotateOp):
        return ("rotate", op.angle, op.cx, op.cy, tuple(_strip(o, colours) for o in op.ops))
    name, values, paints = _fields(type(op))
    out: list[object] = [name, *values(op)]
    for k in paints:
        value = out[k]
        colours.append(value or "")  # type: ignore[arg-type]
        out[k] = value is None  # painted or not is a difference of shape
    return tuple(out)


_FIELDS: dict[type, tuple[str, Callable[[Op], tuple[object, ...]], tuple[int, ...]]] = {}


def _fields(kind: type) -> tuple[str, Callable[[Op], tuple[object, ...]], tuple[int, ...]]:
    """An op class's name, a getter of its field values as a tuple, and where in (name, *values) its
    colours stand (dataclasses.fields and getattr are slow on every op of every face)."""
    if kind not in _FIELDS:
        names = [f.name for f in fields(kind)]
        get = operator.attrgetter(*names) if len(names) > 1 else (lambda op: tuple(getattr(op, n) for n in names))
        _FIELDS[kind] = (kind.__name__, get, tuple(1 + k for k, n in enumerate(names) if n in PAINTS))
    return _FIELDS[kind]


def alike(a: tuple[str, ...], b: tuple[str, ...]) -> list[str]:
    """The views (greyscale, deuteranopia, protanopia, tritanopia) under which colours a and b, position by
    position, cannot be told apart; [] when they are the same colours or some view tells them apart."""
    pairs = [(x, y) for x, y in zip(a, b) if x.lower() != y.lower()]
    if not pairs or not all(_hex(x) and _hex(y) for x, y in pairs):
        return []
    return [name for name, m in VIEWS.items() if all(delta_e(seen(x, m), seen(y, m)) < SAME for x, y in pairs)]


@dataclass(slots=True)
class Seen:
    """One component face already met in the deck: its colours and where to report it."""

    component: str
    colours: tuple[str, ...]


@dataclass
class ColourOnly:
    """The faces of one deck in one language, met one at a time while the deck is laid out."""

    lang: str
    pack: Pack
    seen: dict[bytes, list[Seen]] = field(default_factory=dict)  # by the hash of a face's shape
    found: list[Problem] = field(default_factory=list)
    marks: dict[Mark, dict[str, str]] = field(default_factory=dict)  # small mark -> its colours -> first component
    told: set[tuple[tuple[str, str], ...]] = field(default_factory=set)  # colour differences reported
    declared: dict[str, tuple[str, ...]] = field(init=False)  # the colours the game gives a meaning
    known: Mapping[bytes, Summary] = field(default_factory=dict)  # kept by an earlier build, by face-cache key
    summaries: dict[bytes, Summary] = field(default_factory=dict)  # this build's, by face-cache key
    palettes: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)  # each colour tuple kept once

    def __post_init__(self) -> None:
        self.declared = game_colours(self.pack)

    def add(self, face: Face, components: Mapping[str, Component], key: str = "") -> None:
        """A face laid out (`components`: the deck's, by id, to locate what sets its colour apart).
        A face with a face-cache `key` found in `known` is judged by what was kept of it, without its ops."""
        k = bytes.fromhex(key) if key else b""  # 49 bytes a face, not 113: 10,000 faces are kept
        found = self.known.get(k) if k else None
        if found is None:
            marks, shape, colours = summary(face, set(self.declared))
            # faces of one template share their colours: a 10,000-card deck keeps a few tuples, not 10,000
            found = (marks or _NO_MARKS, shape, self.palettes.setdefault(colours, colours))
        if k:
            self.summaries[k] = found
        marks, shape, colours = found
        for mark, colour in marks:  # a cube's, a player's colour
            self._mark(face, mark, colour, self.declared)
        group = self.seen.setdefault(shape, [])
        for earlier in group:
            if earlier.component == face.component:
                return
            views = alike(earlier.colours, colours)
            pairs = tuple(sorted({(x, y) for x, y in zip(earlier.colours, colours) if x != y}))
            if views and pairs not in self.told:  # once per way of differing: not for every card of a colour
                self.told.add(pairs)
                self.found.append(
                    Problem(
                        "print.colour-only",
                        f"its {face.side} differs from {earlier.component}'s only by colour, and the two look the "
                        f"same in {listed(views)}: add a letter, a number or a shape that tells them apart",
                        differing(components[face.component], components.get(earlier.component)),
                        face.component,
                        severity=Severity.WARNING,
                        lang=self.lang,
                    )
                )
                break
        group.append(Seen(face.component, colours))

    def _mark(self, face: Face, mark: Mark, colour: str, declared: Mapping[str, tuple[str, ...]]) -> None:
        """A small mark (a cube, a pip, a recoloured icon) in a colour of the game's: reported once per
        pair of such colours that look the same on the same mark, at the second colour's setting."""
        colours = self.marks.setdefault(mark, {})
        if colour in colours:
            return
        for other, first in colours.items():
            views = alike((other,), (colour,))
            if views and ((other, colour),) not in self.told:
                self.told.add(((other, colour),))
                a, b = (".".join(declared[c][:-1]) for c in (other, colour))
                self.found.append(
                    Problem(
                        "print.colour-only",
                        f"the {mark[0]} mark in game.{b}'s colour and the same mark in game.{a}'s (on {first}) "
                        f"differ only by colour and look the same in {listed(views)}: draw a letter or a shape "
                        "in each (the setting's `mark:`)",
                        self.pack.setting_loc(*declared[colour]),
                        face.component,
                        severity=Severity.WARNING,
                        lang=self.lang,
                    )
                )
        colours[colour] = face.component


def game_colours(pack: Pack) -> dict[str, tuple[str, ...]]:
    """Each #rrggbb colour pack.yaml's `game:` settings name (`colour:` keys), lower-cased, with the
    path to its first setting."""
    found: dict[str, tuple[str, ...]] = {}

    def walk(value: object, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k == "colour" and isinstance(v, str) and _hex(v):
                    found.setdefault(v.lower(), (*path, k))
                else:
                    walk(v, (*path, str(k)))

    walk(pack.spec.game, ())
    return found


MARK = (1.5, 12.0)  # mm: the sides of a small mark (a cube, a pip, a coloured icon)
BESIDE = 2.5  # mm around a mark where a letter or symbol still reads as its own (a door's, just inside the wall)


def small_marks(face: Face, colours: set[str]) -> list[tuple[Shape, str]]:
    """Each small filled shape or recoloured icon of the face in one of the (lower-case) colours, as
    (its shape with what is written or drawn on it or right beside it, its colour)."""
    if not colours:  # a game that gives no colour a meaning has no coloured marks to tell apart
        return []
    ops = face.ops
    out: list[tuple[Shape, str]] = []
    for i, op in enumerate(ops):
        key: Shape
        if isinstance(op, RectOp) and op.fill:
            box, key = (op.x, op.y, op.x + op.w, op.y + op.h), ("square", op.w, op.h, op.radius, op.stroke)
        elif isinstance(op, CircleOp) and op.fill:
            box, key = (op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r), ("round", op.r, op.stroke)
        elif isinstance(op, IconOp) and op.color:
            box, key = (op.x, op.y, op.x + op.size, op.y + op.size), (f"'{op.name}' icon", op.size)
        else:
            continue
        colour = (op.fill if isinstance(op, (RectOp, CircleOp)) else op.color) or ""
        small = MARK[0] <= box[2] - box[0] <= MARK[1] and MARK[0] <= box[3] - box[1] <= MARK[1]
        if colour.lower() not in colours or not small:
            continue
        on = tuple(_label(o) for o in ops[i + 1 :] if _within(o, box))
        out.append(((*key, on), colour.lower()))
    return out


def _label(op: Op) -> object:
    if isinstance(op, TextOp):
        return op.text
    if isinstance(op, IconOp):
        return op.name
    return type(op).__name__


def _within(op: Op, box: tuple[float, float, float, float]) -> bool:
    """Whether a text or icon (or a shape) drawn later sits on the mark or right beside it."""
    if isinstance(op, TextOp):  # from the start of its baseline to about the middle of its capitals
        x, y = op.x, op.y - op.size * 25.4 / 72 * 0.35
    elif isinstance(op, IconOp):
        x, y = op.x + op.size / 2, op.y + op.size / 2
    elif isinstance(op, (RectOp, ImageOp)):
        x, y = op.x + op.w / 2, op.y + op.h / 2
    elif isinstance(op, CircleOp):
        x, y = op.cx, op.cy
    elif isinstance(op, PolyOp):
        x, y = sum(p[0] for p in op.points) / len(op.points), sum(p[1] for p in op.points) / len(op.points)
    else:
        return False
    across = box[0] <= x <= box[2] and box[1] - BESIDE <= y <= box[3] + BESIDE  # on it, above or below
    return across or (box[1] <= y <= box[3] and box[0] - BESIDE <= x <= box[2] + BESIDE)  # or to a side


def differing(comp: Component, other: Component | None) -> Loc:
    """Where comp's data first differs from other's (the field that gives it its own colour)."""
    if other is None:
        return comp.loc
    mine, theirs = comp.data.model_dump(), other.data.model_dump()
    diff = [k for k in mine if k != "id" and mine[k] != theirs.get(k)]
    return comp.field_loc(diff[0]) if diff else comp.loc


def listed(views: list[str]) -> str:
    names = [{"greyscale": "a greyscale print"}.get(v, f"{v} simulation") for v in views]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _hex(colour: str) -> bool:
    return len(colour) == 7 and colour.startswith("#")


@lru_cache(maxsize=4096)
def seen(colour: str, m: Matrix) -> tuple[float, float, float]:
    """A #rrggbb colour as seen through a simulation matrix, in CIELAB (D65)."""
    lin = [_linear(int(colour[k : k + 2], 16) / 255) for k in (1, 3, 5)]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (_f(v) for v in (x, y, z))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """CIE 1976 colour difference."""
    return float(sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _f(t: float) -> float:
    return float(t ** (1 / 3)) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
