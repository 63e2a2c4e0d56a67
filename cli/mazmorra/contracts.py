"""What the stages hand each other: drawing ops, faces, laid-out items, documents and pages.

A leaf module: it imports nothing of the package but the problems (`errors`, itself a leaf), so
every stage can depend on it and none on another stage for its types. All lengths are millimetres from a face's (or page's) top-left
corner; font sizes are points. A field marked `OPTIONAL` is left out of golden layouts while it
holds its default, so adding one changes no existing layout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mazmorra.errors import Problem

# ---------------------------------------------------------------- drawing ops (stage 4 -> 5)

OPTIONAL = {"optional": True}  # field metadata: omitted from golden layouts at its default


@dataclass(frozen=True, slots=True)
class Gradient:
    """A fill shading through opaque colours: linear from (x1, y1) to (x2, y2), or radial from the
    centre (x1, y1) out to r; `opacity` (0-1) applies to all of it."""

    kind: str  # linear | radial
    stops: tuple[tuple[float, str], ...]  # (where, 0-1 along it; colour #rrggbb)
    x1: float
    y1: float
    x2: float = 0.0
    y2: float = 0.0
    r: float = 0.0
    opacity: float = 1.0


# Colours in ops are canonical strings (mazmorra.model.colour): #rrggbb, or #rrggbbaa when translucent.
# A shape with a `gradient` fills with it instead of `fill`; `dash` (mm, on and off) dashes its stroke.


@dataclass(frozen=True, slots=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    radius: float = 0.0
    dash: tuple[float, ...] = field(default=(), metadata=OPTIONAL)
    gradient: Gradient | None = field(default=None, metadata=OPTIONAL)
    radii: tuple[float, float, float, float] | None = field(default=None, metadata=OPTIONAL)  # per corner, mm:
    # top-left, top-right, bottom-right, bottom-left (instead of `radius`)
    join: str = field(default="miter", metadata=OPTIONAL)  # stroke corners: miter, round, bevel
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square
    stroke_first: bool = field(default=False, metadata=OPTIONAL)  # paint-order="stroke": the fill over it


@dataclass(frozen=True, slots=True)
class CircleOp:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    dash: tuple[float, ...] = field(default=(), metadata=OPTIONAL)
    gradient: Gradient | None = field(default=None, metadata=OPTIONAL)
    join: str = field(default="miter", metadata=OPTIONAL)  # stroke corners: miter, round, bevel
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square
    stroke_first: bool = field(default=False, metadata=OPTIONAL)  # paint-order="stroke": the fill over it


@dataclass(frozen=True, slots=True)
class EllipseOp:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    dash: tuple[float, ...] = ()
    gradient: Gradient | None = None
    join: str = field(default="miter", metadata=OPTIONAL)  # stroke corners: miter, round, bevel
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square
    stroke_first: bool = field(default=False, metadata=OPTIONAL)  # paint-order="stroke": the fill over it


@dataclass(frozen=True, slots=True)
class PathOp:
    """An outline of straight and curved segments (from SVG path data), absolute mm: each command is
    ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y) or ("Z",)."""

    commands: tuple[tuple[str | float, ...], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    dash: tuple[float, ...] = ()
    gradient: Gradient | None = None
    even_odd: bool = False  # fill-rule="evenodd": holes where outlines overlap
    join: str = field(default="miter", metadata=OPTIONAL)  # stroke corners: miter, round, bevel
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square
    stroke_first: bool = field(default=False, metadata=OPTIONAL)  # paint-order="stroke": the fill over it


@dataclass(frozen=True, slots=True)
class LineOp:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.3
    dash: tuple[float, ...] = ()
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square


@dataclass(frozen=True, slots=True)
class PolyOp:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    dash: tuple[float, ...] = field(default=(), metadata=OPTIONAL)
    gradient: Gradient | None = field(default=None, metadata=OPTIONAL)
    join: str = field(default="miter", metadata=OPTIONAL)  # stroke corners: miter, round, bevel
    cap: str = field(default="butt", metadata=OPTIONAL)  # stroke (and dash) ends: butt, round, square
    stroke_first: bool = field(default=False, metadata=OPTIONAL)  # paint-order="stroke": the fill over it


@dataclass(frozen=True, slots=True)
class TextOp:
    """One run of text on a baseline."""

    x: float
    y: float  # baseline
    text: str
    font: str
    size: float  # pt
    color: str
    spacing: float = field(default=0.0, metadata=OPTIONAL)  # letter-spacing, pt between characters
    outline: str | None = field(default=None, metadata=OPTIONAL)  # an outline round every glyph, this colour
    outline_width: float = field(default=0.0, metadata=OPTIONAL)  # mm
    rise: float = field(default=0.0, metadata=OPTIONAL)  # pt above the baseline (superscript; below: subscript)
    underline: bool = field(default=False, metadata=OPTIONAL)
    strike: bool = field(default=False, metadata=OPTIONAL)
    outline_dash: tuple[float, ...] = field(default=(), metadata=OPTIONAL)  # mm on, mm off: a dashed outline


@dataclass(frozen=True, slots=True)
class IconOp:
    name: str
    x: float
    y: float  # top
    size: float
    color: str | None = field(default=None, metadata=OPTIONAL)  # recoloured: every ink of the icon in this colour
    opacity: float = field(default=1.0, metadata=OPTIONAL)


@dataclass(frozen=True, slots=True)
class ImageOp:
    path: str
    x: float
    y: float
    w: float
    h: float
    radius: float = field(default=0.0, metadata=OPTIONAL)  # rounded corners (the picture is clipped)
    color: str | None = field(default=None, metadata=OPTIONAL)  # tinted: its shape (alpha or darkness) in this colour
    opacity: float = field(default=1.0, metadata=OPTIONAL)
    vector: bool = field(default=False, metadata=OPTIONAL)  # an SVG drawn as vectors (checked like icons)


@dataclass(frozen=True)
class RotateOp:
    """Ops drawn turned `angle` degrees clockwise about (cx, cy)."""

    angle: float
    cx: float
    cy: float
    ops: tuple[Op, ...]


Op = RectOp | CircleOp | EllipseOp | PathOp | LineOp | PolyOp | TextOp | IconOp | ImageOp | RotateOp


@dataclass(frozen=True, slots=True)
class Face:
    """One side of one component, laid out: trim size, bleed and drawing ops."""

    component: str
    side: str  # front | back
    w: float
    h: float
    bleed: float
    ops: tuple[Op, ...]
    background: str | None = None
    shape: str = "rect"  # rect | round: how it is cut
    outlines: tuple[tuple[float, float, float, float], ...] = ()  # its text boxes (x, y, w, h): design mode's outlines
    safe: float | None = None  # its own safe margin (mm, <card safe-margin=>); None: the pack's
    # A face read back from the face cache: its ops, decoded when first read (`ops` unset until then).
    # A chunk of pages taken whole from the chunk cache never reads them (render/draw/chunks.py).
    lazy_ops: Callable[[], tuple[Op, ...]] | None = field(default=None, repr=False, compare=False)

    if not TYPE_CHECKING:  # (mypy would take any attribute of a Face as valid)

        def __getattr__(self, name: str) -> Any:
            """Only reached when `name` is unset: a lazily read face's ops, decoded now and kept."""
            if name == "ops":
                lazy = object.__getattribute__(self, "lazy_ops")
                if lazy is not None:
                    ops = lazy()
                    object.__setattr__(self, "ops", ops)
                    object.__setattr__(self, "lazy_ops", None)
                    return ops
            raise AttributeError(name)


@dataclass(frozen=True, slots=True)
class TextBox:
    """The box a component's field is set in: what a translator's budget is made of."""

    field: str
    w: float  # mm, inside its padding
    h: float
    size: float  # pt: the design size
    min_size: float  # pt: the smallest it may shrink to
    fitted: float  # pt: the size this text was set at
    role: str  # body | title | label
    capacity: int | None = None  # characters that fit at min_size (measured when asked): the hard limit
    room: int | None = None  # characters that fit at the design size, unshrunk (measured when asked): the design budget
    lines: int = 1  # lines the box holds at the design size (a title or a label: one, it shrinks before it breaks)
    font: str = ""  # the regular face its text is set in (assets/fonts.py name)
    spacing: float = 0.0  # letter-spacing, em
    label: str = ""  # a template label's msgid printed in it (`field` then ""): the label's box
    inline: bool = False  # the label shares the box with other text: no box of its own
    at: str | None = None  # the <text> element's template marker (where the label's box is written)
    flag_lines: int = 0  # lines Weblate's max-size counts, a paragraph break's blank line included (0: lines)
    flag_w: float = 0.0  # mm, the width Weblate's max-size checks (0: w; a circular box: its inscribed rectangle's)
    stand_ins: tuple[tuple[str, str], ...] = ()  # (icon token, letters as wide in its font): Weblate's replacements


@dataclass(frozen=True, slots=True)
class Item:
    """One component laid out in one language: its faces and how many copies print."""

    front: Face
    back: Face | None
    copies: int
    shared_back: bool  # the deck's common back rather than the component's own
    name: str = ""  # the component's name in the item's language (exports label files with it)
    state: str = "source"  # source | translated | fuzzy | untranslated: the worst of its texts
    untranslated: tuple[str, ...] = ()  # "field (state)" for each text that is not translated
    problems: tuple[Problem, ...] = ()  # what laying it out met (a template mistake flagged `once`)
    labels: tuple[str, ...] = ()  # template labels its faces printed untranslated
    stamp: str = ""  # its version stamp (a playtest build, `build --stamp`): exports show it as text
    laid_out: tuple[str, ...] = ()  # "<component>/<side>" of its faces laid out now, not from the face cache
    boxes: tuple[TextBox, ...] = ()  # the text boxes its fields were set in (front, then back)
    keys: tuple[str, str] = ("", "")  # its front's and back's face-cache keys ("-": no back; "": not cached),
    # what a page chunk's cache key is made of (render/draw/chunks.py): a chunk is drawn again unless all are known
    texts: tuple[str, ...] = ()  # its texts but its name, in the item's language, as written (markup and all):
    # an export that shows them as plain words makes those when it needs them (TTS descriptions)


class Items(Protocol):
    """A document's items, laid out as they are iterated; with `spare` processes, helpers lay the
    last ones out meanwhile (layout/ahead.py)."""

    def __call__(self, spare: int = 0) -> Iterator[Item]: ...


@dataclass
class Document:
    """One output document: a deck laid out in one language. Its items are laid out lazily, one
    component at a time, while the renderers consume them, so memory does not grow with the deck."""

    pack_id: str
    deck_id: str
    file_name: str  # the deck's file name in the document's language: pack.yaml's `file_names`, else its id
    lang: str
    title: str  # "<pack name> — <deck name>", in the document's language
    deck_name: str  # in the document's language
    path: Path  # the PDF it becomes
    sizes: list[tuple[float, float]]  # trim size of every copy, in order (imposition needs them first)
    backs: list[bool]  # whether every copy has a back, in order
    items: Items  # lays the deck out, one item (and its problems) at a time
    inputs: set[Path] = field(
        default_factory=set
    )  # every file its layout read (`render.made_from` adds what its sinks drew)
    pack_name: str = ""  # in the document's language
    problems: list[Problem] = field(default_factory=list)  # found before any item: templates that do not compile
    sheets_only: bool = False  # printed on the print sheets only, no other output: a round's removal list
    spare: int = 0  # processes its render may fork besides its own: helpers laying out ahead, drawers of chunks


# ---------------------------------------------------------------- imposed pages (stage 5)

Segment = tuple[float, float, float, float]  # x1, y1, x2, y2 in mm from the page's top-left


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one face goes on a page: its trim box's top-left and size, in mm; whether it is turned
    upside down in that box; and, for a poster's tile, the part of the page the face shows through (it
    may start off the page)."""

    index: int  # which copy of the document, in order
    side: str  # front | back
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 on the page; None: the whole face
    turn: int = 0  # degrees the face is turned about its trim box's centre: 0, or 180 for a back that must read
    # upright after the sheet turns over top to bottom (short-edge duplex, a horizontal fold)


@dataclass(frozen=True)
class Tile:
    """A poster page's place in its poster: row and column among rows × cols pages, and where its
    label strip starts (mm). The renderer labels it, for only it knows whether the face shows
    anything there (a page that would print blank is left out)."""

    row: int
    col: int
    rows: int
    cols: int
    label: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Page:
    """One physical page: every face on it and the marks that guide the cut and the fold."""

    size: tuple[float, float]  # mm
    placements: tuple[Placement, ...]
    marks: tuple[Segment, ...] = ()  # crop marks: solid
    folds: tuple[Segment, ...] = ()  # fold-and-glue: the fold line, dash-dot
    cuts: tuple[Segment, ...] = ()  # --cut-lines: dashed lines across the sheet (a poster's: where to trim)
    notes: tuple[Op, ...] = ()  # drawn on the page over the faces (a poster's trimming guides)
    tile: Tile | None = None  # a poster's page


# ---------------------------------------------------------------- a playtest round (stage 4 -> 5)


@dataclass(frozen=True)
class Earlier:
    """A component as the earlier revision of a playtest round printed it, in one language."""

    deck: str
    deck_name: str  # in the language
    name: str  # in the language
    copies: int
    front: Face
    back: Face | None


@dataclass(frozen=True)
class Round:
    """A playtest round in one language, as the gallery shows it: every component of the earlier
    revision laid out (drawn with that revision's own icons and images, from its folder) and, by
    component id, what differs now."""

    since: str  # the revision as given
    lang: str
    root: Path | None  # the earlier revision's pack folder (None: the pack was not in it)
    earlier: dict[str, Earlier]
    status: dict[str, str]  # component -> added | removed | changed
