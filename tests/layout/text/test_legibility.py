"""What a player reads: titles never hyphenate, body text hyphenates only where a line would end
badly short (never leaving under three letters), paragraphs are broken as a whole, and no text is
laid out below the smallest size its role allows."""

from __future__ import annotations

import random

import pytest
from conftest import TESTS, edit, run_cli

from mazmorra.assets import fonts
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face
from mazmorra.layout.text.fit import Fitted, Style, fit
from mazmorra.layout.text.linebreak import word_splits
from mazmorra.model.cardtext import TextPart
from mazmorra.model.printspec import PrintSpec
from mazmorra.model.units import PT_PER_MM


def _lines(f: Fitted) -> list[str]:
    return [" ".join(p.part.text for p in line.items if isinstance(p.part, TextPart)) for line in f.lines]


def _face(xml: str, printing: PrintSpec | None = None) -> tuple[list[TextOp], FaceContext]:
    ctx = FaceContext("c", "es", IconSet.for_pack(None), None, lambda f: None, printing=printing or PrintSpec())
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 63.0, 88.0, 0.0, "rect")
    return [op for op in face.ops if isinstance(op, TextOp)], ctx


# ---------------------------------------------------------------- titles


@pytest.mark.parametrize(
    "title, lang",
    [
        ("Titular escandaloso", "es"),
        ("Carta de recomendación", "es"),
        ("Scandalous Headline", "en"),
        ("Mapmaker's Shortcut", "en"),
        ("Remera del equipo universitario", "es"),
    ],
)
def test_a_title_shrinks_on_one_line_then_breaks_at_spaces_never_inside_a_word(title: str, lang: str) -> None:
    words = title.split()
    for width_mm in (22, 28, 36, 45, 60):
        f = fit(title, width_mm * PT_PER_MM, 9 * PT_PER_MM, Style(font="serif-bold"), 12, 7, lang, heading=True)
        lines = _lines(f)
        assert not any(line.endswith("-") for line in lines), (width_mm, lines)
        assert " ".join(lines).split() == words, (width_mm, lines)  # whole words, in order
        one_line = fonts.width(title, "serif-bold", 7) / PT_PER_MM <= width_mm
        assert (len(lines) == 1) == one_line, (width_mm, lines, f.size)  # a second line only when 7 pt is too big


def test_a_title_prefers_the_largest_size_on_one_line() -> None:
    f = fit(
        "Carta de recomendación", 45 * PT_PER_MM, 9 * PT_PER_MM, Style(font="serif-bold"), 12, 7, "es", heading=True
    )
    assert len(f.lines) == 1 and f.fits
    assert (
        fonts.width("Carta de recomendación", "serif-bold", f.size + 0.25) / PT_PER_MM
        > 45
        >= f.lines[0].width / PT_PER_MM
    )


# ---------------------------------------------------------------- body hyphenation


def test_body_text_does_not_hyphenate_where_the_line_has_room() -> None:
    # "Durante este movi-/miento" was hyphenated although the box had room for three lines
    text = "{move:3}. Durante este movimiento ignoras las puertas."
    f = fit(text, 51 * PT_PER_MM, 35 * PT_PER_MM, Style(align="center"), 10.5, 7, "es")
    assert not any(line.endswith("-") for line in _lines(f)), _lines(f)
    assert f.size == 10.5


def test_body_text_hyphenates_a_word_that_would_leave_its_line_badly_short() -> None:
    f = fit("En extraordinariamente", 24 * PT_PER_MM, 40 * PT_PER_MM, Style(), 10, 10, "es")
    lines = _lines(f)
    assert lines[0].startswith("En extra") and lines[0].endswith("-"), lines
    assert "".join(line.rstrip("-") for line in lines).replace(" ", "") == "Enextraordinariamente"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_hyphenation_leaves_a_fragment_under_three_letters(lang: str) -> None:
    words = "player recibe moving movimiento extraordinary investigador alert re-roll ex-jefe cubos".split()
    for word in words:
        for left, right in word_splits(word, lang):
            assert sum(c.isalpha() for c in left) >= 3 and sum(c.isalpha() for c in right) >= 3, (word, left, right)
    assert word_splits("player", "en") == () and word_splits("recibe", "es") == ()


def test_every_fitted_line_keeps_its_fragments_at_three_letters_or_more() -> None:
    rng = random.Random(3)
    vocabulary = "investigador extraordinariamente universidad movimiento sacrificio descarta explora".split()
    for _ in range(40):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(3, 12)))
        f = fit(text, rng.uniform(15, 50) * PT_PER_MM, 200 * PT_PER_MM, Style(), 10, 10, "es")
        pieces = " ".join(_lines(f)).split()
        for piece in pieces:
            assert sum(c.isalpha() for c in piece) >= 3, (text, _lines(f))


# ---------------------------------------------------------------- paragraph-wide breaking


def _greedy_lines(text: str, width: float, size: float) -> int:
    """Lines a greedy breaker (no hyphenation) needs: the reference optimal breaking must match."""
    space = fonts.width(" ", "sans", size)
    lines, x = 1, 0.0
    for word in text.split():
        w = fonts.width(word, "sans", size)
        if x and x + space + w > width:
            lines, x = lines + 1, w
        else:
            x = x + (space if x else 0.0) + w
    return lines


def test_paragraphs_break_as_a_whole_fewest_lines_first_then_the_evenest_edge() -> None:
    rng = random.Random(11)
    words = "el la un rival roba gana cartas zona turno mueve prueba investigador universidad".split()
    for _ in range(60):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(4, 30)))
        width = rng.uniform(30, 60) * PT_PER_MM
        f = fit(text, width, 500 * PT_PER_MM, Style(), 9, 9, "es")
        assert len(f.lines) <= _greedy_lines(text, width, 9)  # never more lines than greedy filling
        assert all(line.width <= width + 1e-6 for line in f.lines)
    # greedy fills the first line and leaves the second short; the whole-paragraph breaking evens them out
    text = "Roba dos cartas y mueve tu ficha a cualquier zona vecina"
    width = fonts.width("Roba dos cartas y mueve tu ficha a", "sans", 9) + 1
    even = fit(text, width, 500, Style(align="center"), 9, 9, "es")
    widths = [line.width for line in even.lines]
    assert len(widths) == 2 and max(widths) - min(widths) < width * 0.3, _lines(even)


# ---------------------------------------------------------------- legibility floors


def test_a_box_smaller_than_its_roles_floor_is_a_template_error() -> None:
    with pytest.raises(ValueError, match=r"below the smallest legible size for label text \(5.5 pt"):
        _face('<text role="label" x="5" y="5" w="20" h="5" size="4.6">Students</text>')
    with pytest.raises(ValueError, match="body text"):
        _face('<text x="5" y="5" w="20" h="5" size="6">Rules</text>')
    with pytest.raises(ValueError, match=r"role='x'.*use body, title, label"):
        _face('<text role="x" x="5" y="5" w="20" h="5" size="8">Rules</text>')


def test_text_that_fits_only_below_the_floor_is_an_overflow_naming_the_floor() -> None:
    xml = '<text role="label" x="5" y="5" w="9.8" h="3" size="6" min-size="3.6" field="label">Intelligence</text>'
    ops, ctx = _face(xml)
    assert min(op.size for op in ops) >= 5.5  # the floor wins over min-size
    (problem,) = ctx.problems
    assert problem.rule == "text.overflow" and "5.5 pt, the smallest legible size for label text" in problem.message
    ops, ctx = _face(xml, PrintSpec.model_validate({"min_size": {"label": 4.5}}))  # a pack may lower it
    assert ctx.problems == [] and min(op.size for op in ops) < 5.5


def test_grid_labels_keep_to_the_label_floor() -> None:
    with pytest.raises(ValueError, match="label-size='4'"):
        _face('<grid x="5" y="5" rows="1" cols="1" cell="8"><cell r="0" c="0" label="3" label-size="4"/></grid>')


def test_pack_yaml_print_settings_are_checked(pack_copy) -> None:
    pack = pack_copy("muestras")
    edit(pack / "pack.yaml", "decks:", "print:\n  min_size: {body: 2}\n  safe_margin: 40mm\ndecks:")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1
    assert "min_size" in res.stderr and "safe_margin" in res.stderr and "Traceback" not in res.stderr


def test_every_sample_template_text_is_at_least_its_floor() -> None:
    """The laid-out faces of every sample (golden layouts) hold no text under 5.5 pt."""
    import json

    golden = TESTS / "golden"
    sizes: list[tuple[float, str, str]] = []

    def walk(ops: list[dict], where: str) -> None:
        for op in ops:
            if op["op"] == "rotate":
                walk(op["ops"], where)
            elif op["op"] == "text":
                sizes.append((op["size"], where, op["text"]))

    for path in golden.rglob("*.json"):
        for face in json.loads(path.read_text(encoding="utf-8"))["faces"]:
            walk(face["ops"], path.name)
    assert sizes and min(sizes)[0] >= 5.5, min(sizes)


# ---------------------------------------------------------------- the shipped templates


def test_no_shipped_template_prints_text_below_the_label_floor() -> None:
    """Issue 40.5: the labels that printed at 5.5 pt were reviewed against the print-and-play floor
    (6 pt; a pack's own label floor stays 5.5 pt, where a long translation may still shrink a label):
    every text of every sample component, in every language, as laid out (the golden layouts, which
    test_golden keeps equal to the layout), is at least that."""
    import json

    from golden import GOLDEN

    floor = 6.0  # the usual print-and-play floor
    below: list[tuple[str, str, float]] = []
    texts = 0

    def walk(op: dict, where: str) -> None:  # type: ignore[type-arg]
        nonlocal texts
        if op.get("op") == "text":
            texts += 1
            if op["size"] < floor - 1e-9:
                below.append((where, op["text"], op["size"]))
        for inner in op.get("ops", []) if op.get("op") == "rotate" else []:
            walk(inner, where)

    for path in sorted(GOLDEN.rglob("*.json")):
        for face in json.loads(path.read_text(encoding="utf-8"))["faces"]:
            for op in face["ops"]:
                walk(op, f"{path.relative_to(GOLDEN)} {face['side']}")
    assert texts > 5000  # every sample's texts were read
    assert not below, below[:10]
