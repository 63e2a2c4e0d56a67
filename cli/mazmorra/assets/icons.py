"""Icons: the bundled SVG set plus a pack's own SVG or PNG icons, drawn as vector forms."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from mazmorra.assets import iconnumbers
from mazmorra.assets.iconnumbers import NumberPlace
from mazmorra.errors import Loc, Problem, rel
from mazmorra.support.limits import IMAGE_BYTES, IMAGE_PIXELS
from mazmorra.support.memo import Memo
from mazmorra.support.paths import PACKAGE_DIR

BUILTIN_DIR = PACKAGE_DIR / "icons"
ICON_EXTS = (".svg", ".png")
# A DOCTYPE can declare entities (billion laughs, external files): an icon never needs one.
_UNSAFE = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


class UnsafeSvg(ValueError):
    """An SVG that declares a DOCTYPE or entities: refused before any XML parser sees it."""

    def __init__(self, path: Path, line: int, col: int, what: str):
        super().__init__(
            f"icon '{path.name}' declares {what}; mazmorra refuses SVG files with a DOCTYPE or "
            "entity declarations (remove the <!DOCTYPE …> block: an icon never needs one)"
        )
        self.loc = Loc(rel(path), line, col)


def check_svg(path: Path) -> bytes:
    """The SVG file's bytes; UnsafeSvg, located at the declaration, when it declares a DOCTYPE or entities."""
    data = path.read_bytes()
    m = _UNSAFE.search(data)
    if m is not None:
        line = data.count(b"\n", 0, m.start()) + 1
        col = m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1
        raise UnsafeSvg(path, line, col, f"a {m.group(1).decode().upper()}")
    return data


# What an SVG can reach beyond itself (svglib follows both): an `<image>` or a `<use>` naming a file
# or an address; `#id` is inside the drawing. A raster image must be a PNG or JPEG (what svglib draws),
# embedded as data or a file inside the pack; a `<use>` only ever points inside the drawing (another
# SVG file would skip the DOCTYPE check).
_REFERRING = re.compile(rb"<\s*(image|use)\b[^>]*>", re.IGNORECASE)
_HREF = re.compile(rb"""(?:xlink:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_DATA_IMAGE = re.compile(r"data:image/(png|jpe?g);base64,", re.IGNORECASE)
RASTER_IN_SVG = (".png", ".jpg", ".jpeg")
# Icon files (path, size, time) found usable that draw nothing outside themselves (no <image>, no <use>):
# not read again while they stay the same (the live preview checks every icon at each save).
_SELF_CONTAINED: set[tuple[str, int, int]] = set()


class RefusedReference(ValueError):
    """An SVG icon's `<image>` or `<use>` that reaches outside the pack, the drawing or the formats drawn."""

    def __init__(self, path: Path, line: int, col: int, why: str):
        super().__init__(f"icon '{path.name}': {why}")
        self.loc = Loc(rel(path), line, col)


def icon_root(path: Path) -> Path:
    """The folder an icon's references must stay in: its pack (the folder holding `icons/`), or the
    bundled icons' folder."""
    if path.parent == BUILTIN_DIR:  # a bundled icon as the icon set names it: no path resolved (every build
        return BUILTIN_DIR  # checks some 200 icons; the live preview at every save)
    return BUILTIN_DIR if path.parent.resolve() == _builtin_real() else path.parent.parent


@cache
def _builtin_real() -> Path:
    return BUILTIN_DIR.resolve()


def check_references(path: Path, data: bytes, root: Path) -> None:
    """RefusedReference at the first `<image>`/`<use>` of an SVG's bytes whose href is not inside the
    drawing (`#id`), an embedded PNG or JPEG, or a PNG or JPEG file inside `root` that images accept."""
    for m in _REFERRING.finditer(data):
        for found in _HREF.finditer(m.group(0)):  # `href` and `xlink:href` both: svglib reads either
            href = (found.group(1) or found.group(2) or b"").decode("utf-8", "replace").strip()
            why = _refused(path, href, m.group(1).lower() == b"image", root)
            if why is not None:
                line = data.count(b"\n", 0, m.start()) + 1
                raise RefusedReference(path, line, m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1, why)


def _refused(path: Path, href: str, image: bool, root: Path) -> str | None:
    """Why an href may not be drawn, or None."""
    if not href or href.startswith("#"):
        return None
    if not image:
        return f"<use href='{href}'> points outside the drawing; copy the shapes in (only '#id' is allowed)"
    if href.lower().startswith("data:"):
        ok = _DATA_IMAGE.match(href) is not None
        return None if ok else "an embedded image must be a base64 PNG or JPEG (data:image/png;base64,…)"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href) or href.startswith(("/", "\\")):
        return f"<image href='{href}'> is an address or an absolute path; use a file inside the pack"
    if not href.lower().endswith(RASTER_IN_SVG):
        return f"<image href='{href}'> is not a PNG or JPEG (an SVG icon draws only those)"
    target = (path.parent / href).resolve()
    if not target.is_relative_to(root.resolve()):
        return f"<image href='{href}'> is outside the pack folder"
    why = _raster_problem(target)
    return None if why is None else f"<image href='{href}'> {why}"


def _raster_problem(path: Path) -> str | None:
    """What keeps a file from being drawn as a raster image inside an SVG (the image limits of
    assets/images.py, PNG or JPEG only), or None."""
    from PIL import Image

    if not path.is_file():
        return "does not exist"
    if path.stat().st_size > IMAGE_BYTES:
        return f"is over the {IMAGE_BYTES // (1024 * 1024)} MiB image limit"
    try:
        with Image.open(path) as im:  # the header only: nothing decoded yet
            if im.format not in ("PNG", "JPEG"):
                return f"is a {im.format} file, not a PNG or JPEG"
            if im.width * im.height > IMAGE_PIXELS:
                return f"is {im.width}×{im.height} pixels; the limit is {IMAGE_PIXELS:,}"
            im.verify()
    except Exception:  # Pillow raises many types for damaged files; none of their words help a designer
        return "is not a readable PNG or JPEG"
    return None


@dataclass(frozen=True, eq=False)
class IconSet:
    """Icon name -> file; a pack's icons/ folder overrides and extends the bundled ones."""

    files: dict[str, Path]
    numbers: dict[str, NumberPlace] = field(default_factory=dict)  # where {name=N} draws N (icons.yaml)
    number_problems: tuple[Problem, ...] = ()

    @classmethod
    def for_pack(cls, pack_root: Path | None, memo: Memo | None = None) -> IconSet:
        """The bundled icons and the pack's own (its icons.yaml taken from `memo` when an earlier
        build parsed it)."""
        files = {p.stem: p for p in sorted(BUILTIN_DIR.glob("*.svg"))}
        if pack_root is not None and (pack_root / "icons").is_dir():
            for p in sorted((pack_root / "icons").iterdir()):
                if p.suffix.lower() in ICON_EXTS:
                    files[p.stem] = p
        if pack_root is None:
            return cls(files)
        numbers, problems = iconnumbers.load(pack_root, set(files), memo)
        return cls(files, numbers, tuple(problems))

    @cached_property
    def number_places(self) -> tuple[tuple[str, float, float, float], ...]:
        """(icon, x, y, scale) of every icon whose number the pack places (hashable, for caches)."""
        return tuple(sorted((n, p.x, p.y, p.scale) for n, p in self.numbers.items()))

    def __contains__(self, name: str) -> bool:
        return name in self.files

    @cached_property
    def name_set(self) -> frozenset[str]:
        return frozenset(self.files)

    def names(self) -> list[str]:
        return sorted(self.files)

    def problems(self) -> list[Problem]:
        """Icon files that cannot be used: an SVG declaring a DOCTYPE or entities, or drawing a file
        outside the pack or of a format it cannot (check_references), unreadable files."""
        out = list(self.number_problems)
        roots: dict[Path, Path] = {}  # an icon's folder -> the folder its references stay in (resolved once)
        for path in self.files.values():
            if path.suffix.lower() != ".svg":
                continue
            root = roots.get(path.parent)
            if root is None:
                root = roots[path.parent] = icon_root(path)
            try:
                st = path.stat()
                seen = (str(path), st.st_size, st.st_mtime_ns)
                if seen in _SELF_CONTAINED:
                    continue
                data = check_svg(path)
                check_references(path, data, root)
                if _REFERRING.search(data) is None:  # its verdict is its bytes' alone: kept for the process
                    _SELF_CONTAINED.add(seen)
            except UnsafeSvg as exc:
                out.append(Problem("icon.unsafe", str(exc), exc.loc, f"icon:{path.stem}"))
            except RefusedReference as exc:
                out.append(Problem("icon.image", str(exc), exc.loc, f"icon:{path.stem}"))
            except OSError as exc:
                out.append(
                    Problem(
                        "icon.unreadable",
                        f"cannot read icon '{path.name}': {exc.strerror}",
                        Loc(rel(path)),
                        f"icon:{path.stem}",
                    )
                )
        return out


def load_svg(path: Path) -> Any:  # a reportlab Drawing
    """Parse an SVG once per file and version (svglib), silencing its chatter."""
    return _load_svg(path.resolve(), path.stat().st_mtime_ns)


@cache
def _load_svg(path: Path, mtime_ns: int) -> Any:
    import logging  # only with svglib: a build of cached faces never needs it

    from svglib.svglib import svg2rlg

    root = icon_root(path)
    check_references(path, check_svg(path), root)  # no DOCTYPE to the XML parser, no file outside the pack
    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(str(path), external_reference_root=str(root))
    if drawing is None:
        raise ValueError(f"cannot read SVG icon {path}")
    return drawing


def recoloured(drawing: Any, color: Any) -> Any:
    """A copy of an icon's drawing with every fill and stroke in one colour (`<icon color=>`)."""
    import copy

    out = copy.deepcopy(drawing)
    stack = [out]
    while stack:
        node = stack.pop()
        for attr in ("fillColor", "strokeColor"):
            if getattr(node, attr, None) is not None:
                setattr(node, attr, color)
        stack.extend(getattr(node, "contents", []))
    return out


def faded(drawing: Any, opacity: float) -> Any:
    """A copy of a drawing with every fill and stroke `opacity` times as opaque (opacity= on an
    icon or an SVG image: a form cannot carry an alpha of its own)."""
    import copy

    from reportlab.lib.colors import Color

    out = copy.deepcopy(drawing)
    stack = [out]
    while stack:
        node = stack.pop()
        for attr, extra in (("fillColor", "fillOpacity"), ("strokeColor", "strokeOpacity")):
            c = getattr(node, attr, None)
            if isinstance(c, Color):
                own = getattr(node, extra, None)
                alpha = (own if own is not None else c.alpha) * opacity
                setattr(node, attr, Color(c.red, c.green, c.blue, alpha=alpha))
                if own is not None:
                    setattr(node, extra, alpha)
        stack.extend(getattr(node, "contents", []))
    return out
