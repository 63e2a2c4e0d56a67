"""Where the tool's own files live: inside the package, so a wheel carries them."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # cli/mazmorra: the shipped data folders sit at its root
SKELETON_DIR = PACKAGE_DIR / "skeleton"  # what `mazmorra new` copies
SAMPLES_DIR = PACKAGE_DIR.parents[1] / "content"  # the sample packs, in a checkout (absent from a wheel)


def templates_dir() -> Path:
    """The shipped layout templates (MAZMORRA_TEMPLATES overrides, for a designer's own set; a
    pack's templates/ folder overrides both, template by template)."""
    env = os.environ.get("MAZMORRA_TEMPLATES")
    return Path(env) if env else PACKAGE_DIR / "templates"
