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
        """Icon files that cannot be used: an SVG declaring a DOCTYPE or entities, unreadable files."""
        out = list(self.number_problems)
        for path in self.files.values():
            if path.suffix.lower() != ".svg":
                continue
            try:
                check_svg(path)
            except UnsafeSvg as exc:
                out.append(Problem("icon.unsafe", str(exc), exc.loc, f"icon:{path.stem}"))
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

    check_svg(path)  # never hand a DOCTYPE to the XML parser, whatever svglib's defaults are
    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(str(path))
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
