"""Reading template elements: attribute values (lengths, numbers, colours) and where an element
stands in its template, so a mistake is reported at the template's file:line."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.assets.fonts import FACES, Faces, faces
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextBox
from mazmorra.errors import Loc, Problem, did_you_mean
from mazmorra.model.colour import parse as parse_colour
from mazmorra.model.printspec import PrintSpec
from mazmorra.model.units import parse_length

if TYPE_CHECKING:
    from mazmorra.i18n.labels import FaceLabels

AT = "mz-at"  # the attribute the template loader adds to every element: "<file index>:<line>:<col>"


class ElementError(ValueError):
    """A template element the layout cannot draw; `at` is its AT marker (None when unknown)."""

    def __init__(self, message: str, at: str | None = None):
        super().__init__(message)
        self.at = at


@contextmanager
def located(el: ET.Element) -> Iterator[None]:
    """Attribute any ValueError raised while reading `el` to `el`'s template line (the innermost
    element that knows its line wins)."""
    try:
        yield
    except ValueError as exc:
        raise relocated(exc, el) from None


def relocated(exc: ValueError, el: ET.Element) -> ValueError:
    """What to raise for `exc`, met while reading `el`: an ElementError at `el`'s template line, unless
    a more inner element already gave it one (then `exc` itself)."""
    if isinstance(exc, ElementError) and (exc.at is not None or el.get(AT) is None):
        return exc
    return ElementError(str(exc), el.get(AT))


@dataclass(frozen=True, slots=True)
class Owner:
    """The template element an op comes from, for the print checks: its marker (file:line:col) and
    tag, a serial number telling elements apart, and inside a <grid> which of its parts (a cell, an
    edge, a mark) and whether that is a cell's own ground."""

    element: int
    at: str | None
    tag: str
    part: int = 0
    layer: str = ""  # "ground": a grid's cells and panel, what things sit on; "edge": walls, doors, pillars
    overlap: bool = False  # overlap="ok" on it or a <g> around it: it may overlap what is around it
    field: str | None = None  # the component field it shows (field="…"): where a finding about its content goes


@dataclass
class FaceContext:
    """What element parsing needs besides the element: the component and where its texts came
    from (for located content problems), the icons and the pack folder (for images)."""

    component: str
    lang: str
    icons: IconSet
    pack_root: Path | None
    text_loc: Callable[[str | None], Loc | None]
    problems: list[Problem] = field(default_factory=list)
    fonts: dict[str, Faces] = field(default_factory=dict)  # the pack's own font families and faces
    lang_faces: tuple[Faces, Faces] | None = None  # the language's own (body, title) fonts (pack.yaml `fonts:`)
    text_lang: Callable[[str | None], str] | None = None  # the language a field's text is written in
    printing: PrintSpec = field(default_factory=PrintSpec)  # the pack's legibility floors, contrast, safe margin
    top: list[Any] | None = None  # the face's own list of ops (not a rotated element's inner one)
    owners: dict[int, Owner] = field(default_factory=dict)  # index in `top` -> the element that drew it
    serial: int = 0  # elements (and grid parts) numbered so far
    overlapping: int = 0  # inside how many <g overlap="ok">
    safe_margin: float | None = None  # mm, from <card safe-margin=>: a small piece's own safe area
    root_at: str | None = None  # the <card> element's marker (its background= is drawn by no op)
    outlines: list[tuple[float, float, float, float]] = field(default_factory=list)  # text boxes, for design mode
    boxes: list[TextBox] = field(default_factory=list)  # each field's text box, as laid out
    measure: bool = False  # also measure each box's capacity in characters (`i18n extract`)
    shrinks: bool = False  # report each text set below its design size (`text.shrunk`)
    # a translated field's (translation, source) pairs and the source language: a translation set below
    # its design size where its source is not is reported (`i18n.shrunk`)
    source_of: Callable[[str | None], tuple[tuple[tuple[str, str], ...], str] | None] | None = None
    labels: FaceLabels | None = None  # the face's labels: what they returned tells a label's box (labelbox.py)
    stamp_at: tuple[ET.Element, float, float, bool] | None = None  # the template's <stamp>: (it, x, y offset,
    # overlap="ok" on it or around it); layout/versionstamp.py draws the stamp there in a build that stamps

    def own(
        self,
        out: list[Any],
        start: int,
        el: ET.Element,
        element: int = 0,
        part: int = 0,
        layer: str = "",
        end: int | None = None,
    ) -> None:
        """Record that ops out[start:end] not claimed yet were drawn by `el` (by one part of it,
        when a <grid> tells its cells, edges and marks apart)."""
        end = len(out) if end is None else end
        if out is not self.top or start >= end:
            return
        owner = Owner(
            element or self.new_part(),
            el.get(AT),
            el.tag,
            part,
            layer,
            self.overlapping > 0 or el.get("overlap") == "ok",
            el.get("field"),
        )
        for i in range(start, end):
            self.owners.setdefault(i, owner)

    def new_part(self) -> int:
        """A fresh serial number for an element or one of a grid's parts."""
        self.serial += 1
        return self.serial

    def lang_of(self, fld: str | None) -> str:
        """The language to hyphenate a field's text in (its own, where it falls back to the source)."""
        return self.text_lang(fld) if self.text_lang is not None else self.lang

    def font(self, name: str, what: str) -> Faces:
        """The faces of a template font name; ValueError naming the known fonts otherwise."""
        found = faces(name, self.fonts)
        if found is None:
            known = sorted({*FACES, *self.fonts})
            raise ValueError(f"{what}: unknown font{did_you_mean(name, known)} (known: {', '.join(known)})")
        return found


def check_attrs(el: ET.Element, allowed: frozenset[str]) -> None:
    """An attribute the element does not take is a mistake (a misspelt `fil=` would otherwise be
    silently ignored)."""
    unknown = sorted(set(el.attrib) - allowed - {AT})
    if unknown:
        name = unknown[0]
        raise ValueError(
            f"<{el.tag}> has unknown attribute{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(u) for u in unknown)}{did_you_mean(name, allowed)} "
            f"(<{el.tag}> takes: {', '.join(sorted(allowed))})"
        )


def colour(value: str) -> str:
    """A colour attribute's value as a canonical #rrggbb (#rrggbbaa when translucent): any form
    `mazmorra.model.colour` reads; a ColourError (a ValueError) in a designer's words otherwise."""
    return parse_colour(value)


def length(el: ET.Element, name: str, default: float | None = None) -> float:
    """A length attribute in mm ("3", "3mm", "0.5in", "6pt"); required when default is None."""
    raw = el.get(name)
    if raw is None:
        if default is None:
            raise ValueError(f"<{el.tag}> needs {name}=")
        return default
    return parse_length(raw)


def number(el: ET.Element, name: str, default: float) -> float:
    """A positive, finite number attribute (font sizes, leading)."""
    raw = el.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"<{el.tag} {name}='{raw}'>: not a number") from None
    if not (0 < value < 10_000):
        raise ValueError(f"<{el.tag} {name}='{raw}'>: must be a positive number")
    return value


def opt_colour(el: ET.Element, name: str, default: str | None = None) -> str | None:
    """A colour attribute, or None when absent or "none"."""
    raw = el.get(name, default)
    if raw is None or raw == "none":
        return None
    return el_colour(el, name, raw)


def el_colour(el: ET.Element, name: str, default: str) -> str:
    """A colour attribute that always has a colour (`default` when absent), its mistake naming it."""
    raw = el.get(name, default)
    try:
        return colour(raw)
    except ValueError as exc:
        raise ValueError(f'<{el.tag} {name}="{raw}">: {exc}') from None


def choice(el: ET.Element, name: str, allowed: tuple[str, ...]) -> str:
    """One of a few words; the first is the default."""
    value = el.get(name, allowed[0])
    if value not in allowed:
        raise ValueError(f"<{el.tag} {name}='{value}'>: use {', '.join(allowed)}{did_you_mean(value, allowed)}")
    return value


def dash(raw: str) -> tuple[float, ...]:
    """A dash pattern "2 1" or "2,1" in mm."""
    try:
        return tuple(float(d) for d in raw.replace(",", " ").split())
    except ValueError:
        raise ValueError(f"dash='{raw}': use lengths in mm separated by spaces, e.g. 2 1") from None
