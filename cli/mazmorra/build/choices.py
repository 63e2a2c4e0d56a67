"""The choices of a build the command line offers, as values the library takes: the paper, the
duplex flip, the sheet layout, the fold, the PNG profile, the back offset and the languages."""

from __future__ import annotations

from enum import Enum

from mazmorra.errors import UsageError


class PaperSize(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Duplex(str, Enum):
    long = "long"
    short = "short"
    none = "none"


class SheetLayout(str, Enum):
    duplex = "duplex"
    fold = "fold"


class Fold(str, Enum):
    auto = "auto"
    vertical = "vertical"
    horizontal = "horizontal"


class PngProfile(str, Enum):
    tgc = "tgc"
    mpc = "mpc"



def back_offset_mm(value: str | None) -> tuple[float, float]:
    """'1.5,-0.5' (mm, or with units: '0.5mm,-1pt') -> (1.5, -0.5)."""
    from mazmorra.model.units import parse_length

    if value is None:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (parse_length(v) for v in parts)
    except ValueError:
        raise UsageError(f"--back-offset {value!r}: expected X,Y in mm, e.g. 1.5,-0.5") from None
    if max(abs(dx), abs(dy)) > 10:
        raise UsageError(
            f"--back-offset {value!r}: more than 10 mm; print `mazmorra calibrate` again and "
            "read the offset on the back's scales"
        )
    return (dx, dy)


def parse_langs(value: str) -> tuple[str, ...] | None:
    if value in ("all", ""):
        return None
    return tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))  # in order, once each
