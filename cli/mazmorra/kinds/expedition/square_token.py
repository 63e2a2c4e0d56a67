"""Square token (spec A4): the token kind cut square (stairs and walls lie on a tile's passage)."""

from __future__ import annotations

from mazmorra.kinds.expedition.token import make_kind

KIND = make_kind("square_token", "rect", "20x20mm", "token.xml.j2")
