"""An sRGB ICC profile, version 2, for every image mazmorra writes.

Print shops' RIPs and older colour-managed software read ICC v2 everywhere, v4 not always, so the
profile is v2 (as the classic sRGB IEC61966-2.1 profile is): a display profile with the sRGB
primaries adapted to the D50 connection space (Bradford), the D65 white point and the sRGB tone
curve sampled at 1024 points (v2 has no parametric curves). Built here, byte by byte, from the
published sRGB numbers: a few kilobytes, identical on every run.
"""

from __future__ import annotations

import struct
from functools import lru_cache

D50 = (0.9642, 1.0, 0.8249)  # the profile connection space's illuminant
D65 = (0.9505, 1.0, 1.0890)  # sRGB's white
# sRGB's red, green and blue in the connection space (IEC 61966-2-1 primaries, Bradford-adapted to D50).
COLORANTS = {
    b"rXYZ": (0.4360747, 0.2225045, 0.0139322),
    b"gXYZ": (0.3850649, 0.7168786, 0.0971045),
    b"bXYZ": (0.1430804, 0.0606169, 0.7141733),
}
DESCRIPTION = "sRGB IEC61966-2.1 (mazmorra, ICC v2)"
COPYRIGHT = "No copyright, use freely"
CURVE_POINTS = 1024


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz(values: tuple[float, float, float]) -> bytes:
    return b"XYZ " + b"\0" * 4 + b"".join(_s15(v) for v in values)


def _text(text: str) -> bytes:
    return b"text" + b"\0" * 4 + text.encode("ascii") + b"\0"


def _desc(text: str) -> bytes:
    """textDescriptionType (v2): ASCII, then empty Unicode and ScriptCode parts."""
    ascii_ = text.encode("ascii") + b"\0"
    return b"desc" + b"\0" * 4 + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * 8 + b"\0" * 3 + b"\0" * 67


def _curve() -> bytes:
    """The sRGB tone curve (linear light from encoded value), sampled evenly."""

    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    samples = [round(linear(i / (CURVE_POINTS - 1)) * 65535) for i in range(CURVE_POINTS)]
    return b"curv" + b"\0" * 4 + struct.pack(f">I{CURVE_POINTS}H", CURVE_POINTS, *samples)


@lru_cache(maxsize=1)
def srgb_v2() -> bytes:
    """The profile's bytes."""
    return rgb_v2(tuple(COLORANTS.values()), DESCRIPTION)  # type: ignore[arg-type]


Triple = tuple[float, float, float]


def rgb_v2(colorants: tuple[Triple, Triple, Triple], description: str, gamma: float | None = None) -> bytes:
    """A v2 display profile with the sRGB white, these red, green and blue colorants (D50-adapted
    XYZ): sRGB's, or another RGB space's such as Display P3 or Adobe RGB (the tests' wide-gamut art),
    and the sRGB tone curve, or a pure `gamma` (Adobe RGB's 2.2)."""
    curve = _curve() if gamma is None else _gamma(gamma)
    tags: list[tuple[bytes, bytes]] = [
        (b"desc", _desc(description)),
        (b"cprt", _text(COPYRIGHT)),
        (b"wtpt", _xyz(D65)),
        *((sig, _xyz(xyz)) for sig, xyz in zip(COLORANTS, colorants)),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
    ]
    return _profile(b"RGB ", tags)


def grey_v2(gamma: float, description: str) -> bytes:
    """A v2 display profile for grey pixels: the sRGB white and a pure `gamma` tone curve (Gray Gamma
    1.8 or 2.2, as image editors embed in greyscale pictures)."""
    tags = [(b"desc", _desc(description)), (b"cprt", _text(COPYRIGHT)), (b"wtpt", _xyz(D65)), (b"kTRC", _gamma(gamma))]
    return _profile(b"GRAY", tags)


def _gamma(gamma: float) -> bytes:
    """A tone curve that is one power (curveType with one u8Fixed8 entry)."""
    return b"curv" + b"\0" * 4 + struct.pack(">IH", 1, round(gamma * 256)) + b"\0" * 2


def _profile(space: bytes, tags: list[tuple[bytes, bytes]]) -> bytes:
    """The profile's bytes: header, tag table and tags (a body used twice stored once)."""
    table_size = 4 + 12 * len(tags)
    offset = 128 + table_size
    entries, data, placed = [], b"", {}
    for sig, body in tags:
        if body not in placed:  # the three tone curves share one copy
            placed[body] = offset + len(data)
            data += body + b"\0" * (-len(body) % 4)
        entries.append(struct.pack(">4sII", sig, placed[body], len(body)))
    size = 128 + table_size + len(data)
    header = (
        struct.pack(">I", size)
        + b"\0" * 4  # preferred CMM: none
        + bytes([2, 0x10, 0, 0])  # version 2.1.0
        + b"mntr"  # display device profile
        + space
        + b"XYZ "
        + struct.pack(">6H", 2000, 1, 1, 0, 0, 0)  # pinned creation date: builds stay byte-identical
        + b"acsp"
        + b"\0" * 4  # primary platform: none
        + b"\0" * 4  # flags
        + b"\0" * 8  # device manufacturer and model
        + b"\0" * 8  # device attributes
        + struct.pack(">I", 0)  # rendering intent: perceptual
        + b"".join(_s15(v) for v in D50)
        + b"\0" * 4  # creator
        + b"\0" * 44  # profile id (v4 only) and reserved
    )
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + b"".join(entries) + data
