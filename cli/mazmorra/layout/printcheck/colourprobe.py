"""The fields a template turns into colour, found by probing it (rule `print.colour-only`).

Two cards that differ only in a player's, a suit's or a floor's colour are told apart by colour alone,
but they seldom look alike in everything else (a luck card's player and its direction are drawn on the
same card), so comparing the faces of a deck misses them. Instead each template is probed once per
field: one component of the kind is written with that field set to each value the deck gives it. A
value whose face differs from another's only in its colours (the template's writing is the same with
every colour taken out) is laid out, and the two are compared region by region in greyscale and
through the three colour-vision deficiencies (colouronly.alike); where they look the same the field
carries information by colour alone, reported at the first component with the later value.

Only the template's text is written for every value (cheap: no text is fitted); a face is laid out
only for the values that differ from another by colour alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mazmorra.contracts import Face
from mazmorra.errors import Problem, Severity
from mazmorra.layout.printcheck.colouronly import ColourOnly, alike, listed, split
from mazmorra.model.content import Component

LIMIT = 12  # a field with more values than this in a deck is not a choice among colours (a name, a number)
LONGEST = 40  # characters: a longer value is a text, not a choice
# a colour in the writing: a paint attribute's value (fill, stroke, color, background, a grid style's
# ring-fill or label-color…) or a #rrggbb anywhere (a gradient, a style)
_PAINT = re.compile(r'\b((?:[\w-]+-)?(?:fill|stroke|colou?r|background|ring|cross))="[^"]*"|#[0-9a-fA-F]{3,8}\b')

Scalar = str | int | float | bool


@dataclass
class FieldValues:
    """The values each field of one kind's components takes in a deck (fields that are choices: short,
    not translated, at most LIMIT of them), each with the first component that has it, and what the
    other fields hold on every component with that value (`cues`: a field missing there varies)."""

    values: dict[str, dict[Scalar, str]] = field(default_factory=dict)
    over: set[str] = field(default_factory=set)  # fields with too many values, or texts
    cues: dict[str, dict[Scalar, dict[str, object]]] = field(default_factory=dict)

    def add(self, component: str, card: Mapping[str, Any], texts: Mapping[str, object]) -> None:
        for name, value in card.items():
            if name in self.over or name == "id":
                continue
            if name in texts or not _choice(value):
                self.over.add(name)
                self.values.pop(name, None)
                self.cues.pop(name, None)
                continue
            seen = self.values.setdefault(name, {})
            cues = self.cues.setdefault(name, {})
            if value not in seen:
                seen[value] = component
                cues[value] = {k: v for k, v in card.items() if k not in (name, "id")}
                if len(seen) > LIMIT:
                    self.over.add(name)
                    del self.values[name], self.cues[name]
                continue
            same = cues[value]
            for k in [k for k, v in same.items() if card.get(k) != v]:
                del same[k]

    def cues_between(self, name: str, a: Scalar, b: Scalar) -> list[tuple[str, object, object]]:
        """The other fields that hold one value on every component whose `name` is a, and another on
        every one whose `name` is b: (field, value with a, value with b)."""
        ca, cb = self.cues[name][a], self.cues[name][b]
        return [(k, ca[k], cb[k]) for k in ca if k in cb and ca[k] != cb[k]]


def _choice(value: object) -> bool:
    if isinstance(value, str):
        return 0 < len(value) <= LONGEST
    return isinstance(value, (int, float, bool))


@dataclass(frozen=True)
class Side:
    """One side of a kind's template to probe: `write(field, value)` is its writing with the probed
    component's field set to value (None: the template refuses it), `lay(field, value)` that face
    laid out (None: it cannot be)."""

    name: str
    write: Callable[[str, object], str | None]
    lay: Callable[[str, object], Face | None]


def probe(check: ColourOnly, sides: list[Side], values: FieldValues, components: Mapping[str, Component]) -> None:
    """Probe one kind's template, field by field: two values drawn alike but for colours on every side,
    which look the same in some view, and which no other field tells apart on every component that has
    them, join check.found."""
    for name, seen in list(values.values.items()):
        if len(seen) < 2:
            continue
        written = [{v: side.write(name, v) for v in seen} for side in sides]
        stripped = [{v: _PAINT.sub(r"\1", x) for v, x in w.items() if x is not None} for w in written]
        laid: dict[tuple[int, Scalar], Face | None] = {}
        order = list(seen)
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                if any(a not in s or b not in s or s[a] != s[b] for s in stripped):
                    continue  # a side tells them apart by more than colour (or cannot be written)
                for k, side in enumerate(sides):
                    if written[k][a] == written[k][b]:
                        continue
                    for v in (a, b):
                        if (k, v) not in laid:
                            laid[k, v] = side.lay(name, v)
                    if _report(check, side, name, (a, b), (laid[k, a], laid[k, b]), values, sides, components):
                        break


def _report(
    check: ColourOnly,
    side: Side,
    name: str,
    ab: tuple[Scalar, Scalar],
    faces: tuple[Face | None, Face | None],
    values: FieldValues,
    sides: list[Side],
    components: Mapping[str, Component],
) -> bool:
    """Whether values a and b of field `name`, drawn alike on `side` but for colours, are reported: they
    look the same in some view, no other field visibly tells them apart (a room pair's number beside its
    gear's colour), and neither the same colours nor the component were reported before (a component
    is reported once: its first look-alike is enough to add a cue)."""
    (a, b), (fa, fb) = ab, faces
    if fa is None or fb is None:
        return False
    (shape_a, colours_a), (shape_b, colours_b) = split(fa), split(fb)
    views = alike(colours_a, colours_b) if shape_a == shape_b else []
    pairs = tuple(sorted({(x, y) for x, y in zip(colours_a, colours_b) if x != y}))
    cid = values.values[name][b]
    if not views or pairs in check.told or any(p.component == cid for p in check.found):
        return False  # the same colours, or the same component, reported already
    if _told_by(values, sides, name, a, b):
        return False
    check.told.add(pairs)
    comp = components.get(cid)
    shown = ", ".join(f"{x} and {y}" for x, y in pairs[:2]) + (" …" if len(pairs) > 2 else "")
    check.found.append(
        Problem(
            "print.colour-only",
            f"{side.name}: {name} {b!r} is drawn as {name} {a!r} is, but for its colour ({shown}), and the two "
            f"look the same in {listed(views)}: add a letter, a number or a shape that changes with {name}",
            comp.field_loc(name) if comp is not None else None,
            cid,
            name,
            severity=Severity.WARNING,
            lang=check.lang,
        )
    )
    return True


def _told_by(values: FieldValues, sides: list[Side], name: str, a: Scalar, b: Scalar) -> bool:
    """Whether another field holds one value on every component with a and another on every one with b,
    and draws those two values differently (not only in colour) on some side."""
    for other, va, vb in values.cues_between(name, a, b):
        for side in sides:
            xa, xb = side.write(other, va), side.write(other, vb)
            if xa is not None and xb is not None and _PAINT.sub(r"\1", xa) != _PAINT.sub(r"\1", xb):
                return True
    return False
