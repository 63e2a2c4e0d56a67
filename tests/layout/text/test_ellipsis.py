"""<text ellipsize="end">: a text too long for its box is cut where it still fits and ends with "…";
a located warning names the words not printed; spans and bold left open by the cut are closed."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import run_cli
from pypdf import PdfReader

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import TextOp
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face

LONG = "The ultimate question of life, the universe, and everything to life and everything is 42"


def _laid(xml: str):
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    face = parse_face(f'<card background="#ffffff">{xml}</card>', ctx, "front", 40.0, 40.0, 0.0, "rect")
    return " ".join(op.text for op in face.ops if isinstance(op, TextOp)), ctx.problems


def test_a_long_text_ends_with_an_ellipsis_and_the_cut_is_reported() -> None:
    box = '<text x="2" y="2" w="30" h="9" size="9" field="effect"{}>{}</text>'
    printed, problems = _laid(box.format(' ellipsize="end"', LONG))
    assert printed.endswith("…") and printed.startswith("The ultimate"), printed
    assert len(printed) < len(LONG)
    (warning,) = problems
    assert warning.rule == "text.ellipsized" and warning.severity.value == "warning", warning
    assert warning.field == "effect" and warning.component == "c"
    shown = printed.removesuffix("…").rstrip()
    assert f"'{LONG[len(shown) :].strip()}' is not printed" in warning.message, (printed, warning.message)
    n = len(shown) + 1  # the longest cut that fits: one more letter would not
    while LONG[n - 1] == " ":
        n += 1
    _, over = _laid(box.format("", LONG[:n] + "…"))
    assert [p.rule for p in over] == ["text.overflow"]
    # without ellipsize the same text is an overflow error, as before
    _, problems = _laid(box.format("", LONG))
    assert [p.rule for p in problems] == ["text.overflow"]


def test_a_text_that_fits_is_not_cut() -> None:
    printed, problems = _laid('<text x="2" y="2" w="36" h="30" size="9" ellipsize="end">Short enough</text>')
    assert printed == "Short enough" and problems == []


def test_spans_and_bold_left_open_by_the_cut_are_closed() -> None:
    text = "[color=#c00000]**" + LONG + "**[/color]"
    printed, problems = _laid(f'<text x="2" y="2" w="30" h="9" size="9" ellipsize="end">{text}</text>')
    assert printed.endswith("…") and "*" not in printed and "[" not in printed, printed
    assert [p.rule for p in problems] == ["text.ellipsized"], problems


def test_a_bad_ellipsize_value_is_refused() -> None:
    ctx = FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None)
    try:
        parse_face(
            '<card><text x="0" y="0" w="30" h="9" ellipsize="yes">Hi</text></card>', ctx, "front", 40, 40, 0, "rect"
        )
    except ValueError as exc:
        assert "ellipsize='yes'" in str(exc) and "none, end" in str(exc)
    else:
        raise AssertionError("ellipsize='yes' accepted")


def test_a_build_prints_the_cut_text_and_warns_where_it_is(tmp_path) -> None:
    """Squib's intro pack with its power line squeezed: the build succeeds, the PDF reads "…" and
    the warning names the sheet cell, the component and the words lost."""
    pack = tmp_path / "intro"
    shutil.copytree(Path(__file__).resolve().parents[1] / "squib" / "intro", pack)
    template = pack / "templates" / "persona.xml.j2"
    xml = template.read_text(encoding="utf-8")
    power = 'w="{{ px(825) }}" h="{{ px(70) }}" size="12"'
    assert power in xml
    template.write_text(xml.replace(power, 'w="{{ px(400) }}" h="{{ px(70) }}" size="12" ellipsize="end"'))
    res = run_cli("build", str(pack), "--lang", "en", "-o", str(tmp_path / "out"), "-j", "1")
    assert res.returncode == 0, res.stdout + res.stderr
    said = res.stdout + res.stderr
    assert "data.xlsx[Sheet1]!D2" in said and "text.ellipsized" in said, said
    assert "[ninja.power]" in said and "another player' is not printed" in said, said
    (pdf,) = (tmp_path / "out").rglob("*.pdf")
    text = PdfReader(pdf).pages[0].extract_text()
    assert "Use the power of…" in text and "Take a card from…" in text, text
    assert "Draw two cards" in text and "[robot-golem.power] (en): text cut" not in said  # one that fits is not cut


def test_start_and_middle_cut_there_and_keep_the_styles_of_what_is_printed() -> None:
    """Pango's (and Squib's) other places for the "…": the start keeps the text's end, the middle
    keeps both ends; a span cut open is opened again after the "…", and the warning says which
    words are lost, without their marks."""
    text = "**Bold** [color=#c00000]" + LONG + "[/color]"
    box = '<text x="2" y="2" w="30" h="9" size="9" ellipsize="{}">{}</text>'
    ops = {}
    for where in ("start", "middle"):
        face = parse_face(
            f'<card background="#ffffff">{box.format(where, text)}</card>',
            ctx := FaceContext("c", "en", IconSet.for_pack(None), None, lambda f: None),
            "front",
            40.0,
            40.0,
            0.0,
            "rect",
        )
        ops[where] = [op for op in face.ops if isinstance(op, TextOp)]
        (warning,) = ctx.problems
        assert warning.rule == "text.ellipsized" and f'ellipsize="{where}"' in warning.message
        assert "*" not in warning.message and "[color" not in warning.message, warning.message
    start = "".join(op.text for op in ops["start"])
    assert start.startswith("…") and start.endswith("everything is 42"), start
    assert ops["start"][-1].color == "#c00000"  # the colour span, opened again after the "…"
    middle = " ".join(op.text for op in ops["middle"])
    assert middle.startswith("Bold The") and middle.endswith("is 42") and "…" in middle, middle
    assert ops["middle"][0].font == "sans-bold" and ops["middle"][-1].color == "#c00000"
