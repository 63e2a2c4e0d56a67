"""Printer profiles: what a print shop (or a home printer) wants, kept as data.

Each profile is one YAML file: the shipped ones beside this module, a pack's own in
`<pack>/printers/NAME.yaml` (a pack's file replaces a shipped profile of the same name, or adds a
new one; `extends: NAME` starts from another profile and changes only what it lists). A profile
says which products the printer sells (trim, bleed and safe area), its colour (rgb or cmyk, ICC
profile, total ink limit), how files are laid out and named, the resolution of raster uploads,
crop marks and the PDF standard, and `set:` values templates read as `vars.NAME` (a playtest profile's
watermark; `build --set` overrides them). `--printer NAME` reads one; `mazmorra printers` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from mazmorra.errors import ContentError, Loc, Problem, UsageError, did_you_mean
from mazmorra.model.units import parse_length, parse_size
from mazmorra.source.schemas import schema_problems
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml, locate
from mazmorra.support.filenames import BadPattern, Pattern, parse_pattern
from mazmorra.support.limits import IMAGE_PIXELS
from mazmorra.support.paths import PRINTERS_DIR, shipped_printers

SHIPPED = PRINTERS_DIR

# How a printer wants a deck's faces, one name a layout:
LAYOUTS = {
    "sheets": "print-and-play sheets: the pack's usual PDF on the profile's paper",
    "per-card": "one PDF per component: its front page, then its back page",
    "per-face": "one PDF per face: <component>-front.pdf and <component>-back.pdf",
    "deck-front-first": "one PDF per deck, every copy in order: front, back, front, back…",
    "deck-back-first": "one PDF per deck, every copy in order: back, front, back, front…",
    "fronts-backs": "two PDFs per deck: every copy's front, then every copy's back in the same order",
    "images": "one image per face at the profile's exact pixel size (PNG), cards.csv with the counts",
    "sheet-images": "the print-and-play sheets on the profile's paper, one PNG per page at its dpi",
}


# The placeholders of a profile's `files.name` (support/filenames.py fills them, each made a safe name;
# `{n:03d}` pads the number to 3 digits): nothing else, no attribute, no format of Python's.
PLACEHOLDERS = {
    "deck": "the deck's id",
    "lang": "the language",
    "component": "the component's id",
    "side": "front or back",
    "n": "the component's place in its deck, from 1",
}

# Each layout's file names, unless a profile names its own.
NAMES = {
    "sheets": "{deck}.pdf",
    "per-card": "{deck}/{n:03d}-{component}.pdf",
    "per-face": "{deck}/{n:03d}-{component}-{side}.pdf",
    "deck-front-first": "{deck}.pdf",
    "deck-back-first": "{deck}.pdf",
    "fronts-backs": "{deck}-{side}s.pdf",
    "images": "{deck}/{component}-{side}.png",
    "sheet-images": "{deck}-{n:03d}.png",
}


# The ranges of a profile's values (docs/printing.md lists them): a print shop's bleed and safe area are
# a few mm (a pack's own bleed stops at 10 mm, its safe margin at 20 mm), a raster upload's pixels fit
# the image limit. Beyond them a profile is an error at the value's line, never a page built from it.
BLEED_MM = 10.0
SAFE_MM = 20.0
PIXELS_SIDE = 20_000
DPI = (72, 1200)


def _length_in(value: Any, what: str, top: float) -> Any:
    """A length (as YAML gave it: checked before pydantic would take `true` for 1) within 0..top mm:
    the value as written, or ValueError saying the range."""
    mm = parse_length(value)  # ValueError: not a length (a bool, a list, a word)
    if not 0 <= mm <= top:  # NaN fails too
        shown = f" ({mm:g} mm)" if isinstance(value, str) and not value.strip().endswith("mm") else ""
        raise ValueError(f"{what} must be between 0 and {top:g} mm{shown}")
    return value


class _Product(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: str  # trim: '2.5x3.5in'
    bleed: str | float | None = None  # default: the profile's
    safe: str | float | None = None
    pixels: tuple[StrictInt, StrictInt] | None = None  # a raster upload's exact size, bleed included

    @field_validator("size", mode="before")
    @classmethod
    def _size_ok(cls, v: Any) -> Any:
        if not isinstance(v, str):
            raise ValueError("size must be text: a name (poker) or WxH (63x88mm, 2.5x3.5in)")
        parse_size(v)  # ValueError: unknown, or outside 1..COMPONENT_MM
        return v

    @field_validator("bleed", mode="before")
    @classmethod
    def _bleed_ok(cls, v: Any) -> Any:
        return None if v is None else _length_in(v, "bleed", BLEED_MM)

    @field_validator("safe", mode="before")
    @classmethod
    def _safe_ok(cls, v: Any) -> Any:
        return None if v is None else _length_in(v, "safe", SAFE_MM)

    @field_validator("pixels")
    @classmethod
    def _pixels_ok(cls, v: tuple[int, int] | None) -> tuple[int, int] | None:
        if v is not None and not (all(1 <= side <= PIXELS_SIDE for side in v) and v[0] * v[1] <= IMAGE_PIXELS):
            raise ValueError(f"pixels must be 1 to {PIXELS_SIDE:,} on each side and {IMAGE_PIXELS:,} in all")
        return v


class _Colour(BaseModel):
    model_config = ConfigDict(extra="forbid")
    space: Literal["rgb", "cmyk"] = "rgb"
    icc: str | None = None  # a CMYK output profile shipped in mazmorra/icc/ (cmyk only)
    ink_limit: StrictInt | None = Field(default=None, ge=100, le=400)  # total area coverage, %


class _Files(BaseModel):
    model_config = ConfigDict(extra="forbid")
    layout: str = "sheets"
    name: str | None = None  # file name pattern (PLACEHOLDERS); default: the layout's
    crop_marks: bool = True
    page: Literal["a4", "letter", "a3"] | None = None  # sheets: the paper


class _Profile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    url: str = Field(default="", max_length=2000)
    extends: str | None = None
    bleed: str | float = "3mm"
    safe: str | float = "3mm"
    dpi: StrictInt = Field(default=300, ge=DPI[0], le=DPI[1])
    pdf: Literal["1.4", "PDF/X-1a:2003", "PDF/X-4"] = "1.4"
    colour: _Colour = _Colour()
    files: _Files = _Files()
    products: dict[str, _Product] = Field(default_factory=dict, max_length=100)
    values: dict[str, str | int | float] = Field(default_factory=dict, alias="set", max_length=100)  # vars.NAME

    @field_validator("bleed", mode="before")
    @classmethod
    def _bleed_ok(cls, v: Any) -> Any:
        return _length_in(v, "bleed", BLEED_MM)

    @field_validator("safe", mode="before")
    @classmethod
    def _safe_ok(cls, v: Any) -> Any:
        return _length_in(v, "safe", SAFE_MM)


@dataclass(frozen=True)
class Product:
    """One size the printer sells: trim and bleed and the safe margin inside the trim, in mm."""

    name: str
    trim: tuple[float, float]
    bleed: float
    safe: float
    pixels: tuple[int, int] | None = None

    def fits(self, w: float, h: float, bleed: float) -> bool:
        """Whether a w × h mm face with `bleed` is this product: the printer's cut falls inside its bleed."""
        tw, th = self.trim
        return abs(tw - w) / 2 <= bleed + 1e-6 and abs(th - h) / 2 <= bleed + 1e-6


@dataclass(frozen=True)
class Printer:
    """A printer profile, resolved (lengths in mm)."""

    id: str
    name: str
    url: str
    bleed: float
    safe: float
    dpi: int
    pdf: str  # 1.4 | PDF/X-1a:2003 | PDF/X-4
    colour: str  # rgb | cmyk
    icc: str | None
    ink_limit: int | None
    layout: str
    naming: Pattern  # the layout's files, as `files.name` (or the layout) names them
    crop_marks: bool
    page: str | None
    products: tuple[Product, ...]
    loc: Loc
    values: tuple[tuple[str, str], ...] = ()  # `set:`: vars.NAME in templates, unless --set says otherwise

    def product(self, w: float, h: float, bleed: float) -> tuple[Product, bool] | None:
        """The product a w × h mm face prints as, and whether it is turned (a landscape face); None: not sold."""
        for p in self.products:
            if p.fits(w, h, bleed):
                return p, False
        for p in self.products:
            if p.fits(h, w, bleed):
                return p, True
        return None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


def _files(pack_dir: Path | None) -> dict[str, Path]:
    found = {name: SHIPPED / f"{name}.yaml" for name in shipped_printers()}
    if pack_dir is not None and (pack_dir / "printers").is_dir():
        found |= {p.stem: p for p in sorted((pack_dir / "printers").glob("*.yaml"))}
    return found


def names(pack_dir: Path | None = None) -> list[str]:
    """Every profile a build of this pack (or any build, without one) can name."""
    return sorted(_files(pack_dir))


def _raw(name: str, files: dict[str, Path], seen: tuple[str, ...]) -> tuple[dict[str, Any], YMap, Loc]:
    path = files[name]
    try:
        data = load_yaml(path)
    except YamlError as exc:
        raise ContentError([exc.problem]) from None
    loc = Loc(str(path), 1, 1)
    if not isinstance(data, YMap):
        raise ContentError([Problem("printer.profile", f"printer profile '{name}' is not a mapping", loc)])
    parent = data.get("extends")
    if parent is None:
        return dict(data), data, loc
    where = data.locs.get("extends", loc)
    if not isinstance(parent, str):
        msg = f"printer profile '{name}': extends must be a profile's name (known: {', '.join(files)})"
        raise ContentError([Problem("printer.profile", msg, where, field="extends")])
    if parent in seen or parent not in files:
        why = "extends itself" if parent in seen else f"extends unknown profile '{parent}'"
        msg = f"printer profile '{name}' {why}{did_you_mean(str(parent), files)}"
        raise ContentError([Problem("printer.profile", msg, where, field="extends")])
    base, _, _ = _raw(parent, files, (*seen, name))
    return _merge(base, {k: v for k, v in data.items() if k != "extends"}), data, loc


def _naming(files: _Files, where: Loc) -> tuple[Pattern, list[Problem]]:
    """The pattern naming a profile's files (its own `files.name`, else its layout's) and what is wrong
    with its own: a placeholder not in PLACEHOLDERS (no attribute, no Python format), a character no
    file name may hold, a `..` or a `/` at its start, a name on a layout that names its files itself, a
    pattern that would give several files one name, a PDF not named .pdf."""
    default = parse_pattern(NAMES.get(files.layout, "{deck}.pdf"))
    if files.name is None:
        return default, []

    def wrong(msg: str) -> tuple[Pattern, list[Problem]]:
        return default, [Problem("printer.profile", f"files.name: {msg}", where, field="files.name")]

    if files.layout in ("images", "sheet-images", "sheets"):
        return wrong(f"the {files.layout} layout names its files itself ({NAMES[files.layout]}): drop it")
    try:
        pattern = parse_pattern(files.name, PLACEHOLDERS)
    except BadPattern as exc:
        return wrong(str(exc))
    needs = {"per-card": ({"component", "n"},), "per-face": ({"side"}, {"component", "n"}), "fronts-backs": ({"side"},)}
    for one_of in needs.get(files.layout, ()):
        if not one_of & pattern.fields:
            shown = " or ".join("{" + f + "}" for f in sorted(one_of))
            return wrong(f"'{files.name}' lacks {shown} (layout {files.layout} writes several files per deck)")
    if not files.name.endswith(".pdf"):
        return wrong(f"'{files.name}' does not end in .pdf (layout {files.layout} writes PDFs)")
    return pattern, []


def load(name: str, pack_dir: Path | None = None) -> Printer:
    """One profile by name (a pack's own first); ContentError with file:line for a broken one."""
    files = _files(pack_dir)
    if name not in files:
        raise UsageError(f"unknown printer '{name}'{did_you_mean(name, files)} (known: {', '.join(files)})")
    merged, root, loc = _raw(name, files, ())
    try:
        spec = _Profile.model_validate(merged)
    except ValidationError as exc:
        raise ContentError(schema_problems(exc, root, loc, None, model=_Profile)) from None
    problems = []
    if spec.files.layout not in LAYOUTS:
        msg = f"files.layout: unknown layout '{spec.files.layout}'{did_you_mean(spec.files.layout, LAYOUTS)}"
        problems.append(Problem("printer.profile", msg, locate(root, ("files", "layout")) or loc, field="files.layout"))
    naming, wrong = _naming(spec.files, locate(root, ("files", "name")) or loc)
    problems += wrong
    shipped = sorted(p.stem for p in (SHIPPED.parent / "icc").glob("*.icc"))
    if spec.colour.icc is not None and spec.colour.icc not in shipped:
        msg = f"colour.icc: unknown profile '{spec.colour.icc}'{did_you_mean(spec.colour.icc, shipped)} (shipped: {', '.join(shipped)})"
        problems.append(Problem("printer.profile", msg, locate(root, ("colour", "icc")) or loc, field="colour.icc"))
    if spec.colour.space == "cmyk" and not spec.colour.icc:
        problems.append(
            Problem(
                "printer.profile",
                "colour: cmyk needs an icc profile",
                locate(root, ("colour",)) or loc,
                field="colour.icc",
            )
        )
    for var in spec.values:
        if not var.isidentifier():
            msg = f"set: '{var}' is not a name templates can read: letters, digits and _ (watermark)"
            problems.append(Problem("printer.profile", msg, locate(root, ("set", var)) or loc, field=f"set.{var}"))
    if problems:
        raise ContentError(problems)
    try:
        products = tuple(
            Product(
                key,
                parse_size(p.size),
                parse_length(p.bleed if p.bleed is not None else spec.bleed),
                parse_length(p.safe if p.safe is not None else spec.safe),
                p.pixels,
            )
            for key, p in spec.products.items()
        )
        bleed, safe = parse_length(spec.bleed), parse_length(spec.safe)
    except ValueError as exc:
        raise ContentError([Problem("printer.profile", str(exc), loc)]) from None
    return Printer(
        name,
        spec.name,
        spec.url,
        bleed,
        safe,
        spec.dpi,
        spec.pdf,
        spec.colour.space,
        spec.colour.icc,
        spec.colour.ink_limit,
        spec.files.layout,
        naming,
        spec.files.crop_marks,
        spec.files.page,
        products,
        loc,
        tuple(sorted((k, str(v)) for k, v in spec.values.items())),
    )
