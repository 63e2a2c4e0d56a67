"""Icons: the bundled SVG set plus a pack's own SVG or PNG icons, drawn as vector forms."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

BUILTIN_DIR = Path(__file__).parent / "icons"
ICON_EXTS = (".svg", ".png")


@dataclass(frozen=True, eq=False)
class IconSet:
    """Icon name -> file; a pack's icons/ folder overrides and extends the bundled ones."""

    files: dict[str, Path]

    @classmethod
    def for_pack(cls, pack_root: Path | None) -> IconSet:
        files = {p.stem: p for p in sorted(BUILTIN_DIR.glob("*.svg"))}
        if pack_root is not None and (pack_root / "icons").is_dir():
            for p in sorted((pack_root / "icons").iterdir()):
                if p.suffix.lower() in ICON_EXTS:
                    files[p.stem] = p
        return cls(files)

    def __contains__(self, name: str) -> bool:
        return name in self.files

    @cached_property
    def name_set(self) -> frozenset[str]:
        return frozenset(self.files)

    def names(self) -> list[str]:
        return sorted(self.files)


@cache
def load_svg(path: Path):  # -> reportlab Drawing
    """Parse an SVG once per process (svglib), silencing its chatter."""
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(str(path))
    if drawing is None:
        raise ValueError(f"cannot read SVG icon {path}")
    return drawing
