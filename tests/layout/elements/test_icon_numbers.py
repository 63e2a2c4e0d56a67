"""The number inside an icon ({coin=3}) placed per icon by the pack's icons.yaml, so every card
agrees; mistakes in icons.yaml are located problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import line_of, run_cli

from mazmorra.assets import fonts
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import IconOp, TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.model.units import PT_PER_MM


def _number(root: Path | None) -> tuple[IconOp, TextOp]:
    icons = IconSet.for_pack(root)
    ctx = FaceContext("c", "en", icons, root, lambda f: None)
    xml = '<card background="#ffffff"><text x="0" y="0" w="40" h="20" size="12">{coin=3}</text></card>'
    face = parse_face(xml, ctx, "front", 40.0, 20.0, 0.0, "rect")
    assert ctx.problems == []
    icon = next(op for op in face.ops if isinstance(op, IconOp))
    number = next(op for op in face.ops if isinstance(op, TextOp))
    return icon, number


def _centre(icon: IconOp, number: TextOp) -> tuple[float, float]:
    """The number's centre relative to the icon's, in icon sizes (cap height 0.72 em)."""
    w = fonts.width(number.text, number.font, number.size) / PT_PER_MM
    cap = number.size * 0.72 / PT_PER_MM
    return ((number.x + w / 2) - (icon.x + icon.size / 2)) / icon.size, (
        (number.y - cap / 2) - (icon.y + icon.size / 2)
    ) / icon.size


def test_the_number_is_centred_unless_the_pack_places_it(tmp_path: Path) -> None:
    icon, number = _number(None)
    assert _centre(icon, number) == pytest.approx((0.0, 0.0), abs=1e-6)
    (tmp_path / "icons.yaml").write_text("coin:\n  number: {x: 0.1, y: 0.2, scale: 0.5}\n", encoding="utf-8")
    placed_icon, placed = _number(tmp_path)
    assert placed_icon == icon
    assert _centre(placed_icon, placed) == pytest.approx((0.1, 0.2), abs=1e-6)
    assert placed.size == pytest.approx(number.size * 0.5)


@pytest.mark.parametrize(
    "yaml_text, needle, words",
    [
        ("flsk:\n  number: {y: 0.1}\n", "number:", "unknown icon 'flsk'"),  # located at its value
        ("coin:\n  number: {y: 0.9}\n", "y: 0.9", "number y is 0.9; a number from -0.5 to 0.5"),
        ("coin:\n  number: {dy: 0.1}\n", "dy", "number has no 'dy'"),
        ("coin:\n  place: {y: 0.1}\n", "place:", "write number:"),
    ],
)
def test_a_mistake_in_icons_yaml_is_located(pack_copy, yaml_text: str, needle: str, words: str) -> None:
    pack = pack_copy("muestras")
    (pack / "icons.yaml").write_text(yaml_text, encoding="utf-8")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    out = res.stdout + res.stderr
    assert res.returncode == 1 and "icon.number" in out and words in out, out
    assert f"icons.yaml:{line_of(pack / 'icons.yaml', needle)}" in out, out
