"""What print.colour-only keeps of a face (issue 38): shapes hashed from compact bytes, equal for equal
faces however their values were made, different for faces that differ."""

from __future__ import annotations

import enum

from mazmorra.contracts import Face, RectOp, TextOp
from mazmorra.layout.printcheck.colouronly import _hashed, split, summary


def _face(text: str, fill: str = "#c0392b", x: float = 3.0) -> Face:
    ops = (
        RectOp(x, 3.0, 57.0, 82.0, fill=fill, stroke="#1b1b1b", stroke_width=0.3),
        TextOp(6.0, 10.0, text, "serif-bold", 15.0, "#ffffff"),
    )
    return Face("c1", "front", 63.0, 88.0, 3.0, ops)


def test_equal_faces_hash_alike_whoever_made_their_strings() -> None:
    literal, built = "Cubo", "".join(["Cu", "bo"])  # a literal (interned) and an equal string made at run time
    a, b = _face(literal), _face(built)
    assert literal is not built
    assert summary(a, set())[1] == summary(b, set())[1]
    shared = ("Cubo", "Cubo", 1.0)  # the same object twice in one value, and two equal objects: one hash
    assert _hashed(shared) == _hashed(("Cubo", built, 1.0))


def test_faces_that_differ_by_shape_hash_apart_and_by_colour_alone_alike() -> None:
    base = summary(_face("Cubo"), set())[1]
    assert summary(_face("Cubo", fill="#1e8449"), set())[1] == base  # colour is taken out of the shape
    assert summary(_face("Dado"), set())[1] != base
    assert summary(_face("Cubo", x=3.5), set())[1] != base
    assert split(_face("Cubo", fill="#1e8449"))[1] != split(_face("Cubo"))[1]  # its colours tell it apart


def test_values_alike_in_print_but_not_in_kind_hash_apart() -> None:
    assert len({_hashed(1), _hashed(1.0), _hashed(True), _hashed("1"), _hashed((1,)), _hashed([1])}) == 6
    assert _hashed(0.0) != _hashed(-0.0)


class _Side(enum.Enum):
    FRONT = "front"


def test_what_marshal_cannot_write_is_hashed_from_its_repr() -> None:
    assert _hashed((_Side.FRONT, 1.0)) == _hashed((_Side.FRONT, 1.0))
    assert _hashed((_Side.FRONT, 1.0)) != _hashed(("front", 1.0))
