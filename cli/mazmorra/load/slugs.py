"""Ids from names: `Bola de fuego` -> `bola-de-fuego`, as a component id or a kind name wants them."""

from __future__ import annotations

import re
import unicodedata

MAX_ID = 64  # a component id's length limit (model.ComponentModel)


def slug(text: str) -> str:
    """Lowercase ASCII letters and digits joined by '-', accents dropped (ñ -> n); may be empty."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:MAX_ID].strip("-")
