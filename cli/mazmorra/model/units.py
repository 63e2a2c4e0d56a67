"""Lengths: parsed once into millimetres; points only at the ReportLab boundary."""

from __future__ import annotations

import re
from functools import lru_cache

from mazmorra.support.limits import COMPONENT_MM

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4

_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(mm|cm|in|pt)?\s*$")

PAGE_SIZES_MM = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}

CARD_SIZES_MM = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 68.0),
}


def parse_length(value: object, default_unit: str = "mm") -> float:
    """'63mm', '2.5in', '3pt' or a bare number (in default_unit) -> millimetres."""
    if isinstance(value, str):
        return _parse_length_str(value, default_unit)
    if isinstance(value, bool):
        raise ValueError(f"not a length: {value!r}")
    if isinstance(value, (int, float)):
        return float(value) * MM_PER[default_unit]
    raise ValueError(f"not a length: {value!r}")


@lru_cache(maxsize=8192)
def _parse_length_str(value: str, default_unit: str) -> float:
    m = _LENGTH.match(value)
    if not m:
        raise ValueError(f"not a length: {value!r} (use e.g. 63mm, 2.5in, 3pt)")
    return float(m.group(1)) * MM_PER[m.group(2) or default_unit]


def parse_size(value: object) -> tuple[float, float]:
    """'poker', '63x88mm', '2.5x3.5in' or [63, 88] -> (width, height) in mm, both at least 1 mm."""
    w, h = _parse_size(value)
    if not (1.0 <= w <= COMPONENT_MM and 1.0 <= h <= COMPONENT_MM):
        raise ValueError(f"size {value!r} is out of range (1 mm to {COMPONENT_MM:g} mm on each side)")
    return w, h


def _parse_size(value: object) -> tuple[float, float]:
    if isinstance(value, str):
        key = value.strip().lower()
        if key in CARD_SIZES_MM:
            return CARD_SIZES_MM[key]
        m = re.match(r"^\s*([\d.]+)\s*x\s*([\d.]+)\s*(mm|cm|in|pt)?\s*$", key)
        if m:
            unit = m.group(3) or "mm"
            return parse_length(m.group(1) + unit), parse_length(m.group(2) + unit)
        raise ValueError(f"unknown size {value!r} (use poker, bridge, tarot, mini or e.g. 63x88mm)")
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return parse_length(value[0]), parse_length(value[1])
    raise ValueError(f"not a size: {value!r}")
