"""Where the tool's own files live: inside the package, so a wheel carries them."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # cli/mazmorra: the shipped data folders sit at its root
SKELETON_DIR = PACKAGE_DIR / "skeleton"  # what `mazmorra new` copies
PRINTERS_DIR = PACKAGE_DIR / "printers"  # the shipped printer profiles, a YAML file each
SAMPLES_DIR = PACKAGE_DIR.parents[1] / "content"  # the sample packs, in a checkout (absent from a wheel)


def templates_dir() -> Path:
    """The shipped layout templates (MAZMORRA_TEMPLATES overrides, for a designer's own set; a
    pack's templates/ folder overrides both, template by template)."""
    env = os.environ.get("MAZMORRA_TEMPLATES")
    return Path(env) if env else PACKAGE_DIR / "templates"


def shipped_printers() -> list[str]:
    """The names of the printer profiles shipped with the tool (`build --printer NAME`), read off
    their folder: light enough for `mazmorra --help`, which lists them."""
    return sorted(p.stem for p in PRINTERS_DIR.glob("*.yaml"))


def real_in(path: Path, folder: Path) -> Path:
    """Where `path` really is, given where its folder really is (`folder`, resolved once by the
    caller for all its files): the file itself is followed only when it is a link."""
    return path.resolve() if os.path.islink(path) else folder / path.name
