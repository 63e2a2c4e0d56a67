"""Where the tool's own files live."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parents[1]


def templates_dir() -> Path:
    """The shared layout templates (MAZMORRA_TEMPLATES overrides, for a designer's own set)."""
    env = os.environ.get("MAZMORRA_TEMPLATES")
    return Path(env) if env else REPO_DIR / "templates"
