"""Unit tests of the building blocks: lengths, safe YAML, text fitting and hyphenation."""

from __future__ import annotations

import pytest

from mazmorra.layout.fit import Style, fit
from mazmorra.text import IconPart, TextPart, split_paragraphs, token_signature
from mazmorra.units import parse_length, parse_size
from mazmorra.yamlsafe import YamlError, parse_yaml


@pytest.mark.parametrize("value, mm", [("63mm", 63.0), ("2.5in", 63.5), ("72pt", 25.4), (3, 3.0), ("1cm", 10.0)])
def test_lengths(value, mm) -> None:
    assert parse_length(value) == pytest.approx(mm)


@pytest.mark.parametrize("bad", ["3 px", "", "mm", True, None, "1e", "3mmm"])
def test_bad_lengths(bad) -> None:
    with pytest.raises(ValueError):
        parse_length(bad)


def test_sizes() -> None:
    assert parse_size("poker") == (63.0, 88.0)
    assert parse_length("1.5e1mm") == 15.0  # what Jinja may print for a computed float
    for tiny in ("0x0mm", "0.001x0.001mm", "63x0mm", "5000x10mm"):
        with pytest.raises(ValueError):
            parse_size(tiny)
    assert parse_size("30x40mm") == (30.0, 40.0)
    assert parse_size("2.5x3.5in") == pytest.approx((63.5, 88.9))
    with pytest.raises(ValueError):
        parse_size("huge")


def test_yaml_keeps_positions() -> None:
    doc = parse_yaml("a: 1\nlist:\n  - x\n  - {b: two}\n", "f.yaml")
    assert doc.locs["a"].line == 1 and doc.locs["list"].line == 3
    assert doc["list"].locs[1].line == 4
    assert doc["list"][1]["b"] == "two"


@pytest.mark.parametrize(
    "text, rule",
    [
        ("a: 1\na: 2\n", "yaml.duplicate-key"),
        ("a: &x 1\nb: *x\n", "yaml.alias"),
        ("a: !!python/object/apply:os.system ['true']\n", "yaml.tag"),
        ("a: [1, 2\n", "yaml.syntax"),
        ("[" * 200 + "]" * 200, "yaml.depth"),
        ("--- 1\n--- 2\n", "yaml.documents"),
        ("? [a]\n: 1\n", "yaml.key"),
    ],
)
def test_yaml_refuses(text, rule) -> None:
    with pytest.raises(YamlError) as exc:
        parse_yaml(text, "f.yaml")
    assert exc.value.problem.rule == rule
    assert exc.value.problem.loc.file == "f.yaml"


@pytest.mark.parametrize(
    "text, line",
    [
        ("a: 1\nb: " + "[" * 1200 + "]" * 1200 + "\n", 2),  # flow: libyaml's own limit (1,000) stops its scanner first
        (
            "a: 1\nb:\n" + "".join(" " * (2 * i) + "- \n" for i in range(1200)),
            42,
        ),  # block: our limit, at the 41st level's line
        ("a: 1\nb: " + "{k: " * 1200 + "}" * 1200 + "\n", 2),
    ],
)
def test_a_document_nested_1200_levels_is_yaml_depth_at_its_line(text: str, line: int) -> None:
    """Whichever parser stops first (PyYAML 6.0.4's libyaml stops at 1,000 levels on its own), a
    too-deep document is yaml.depth with the project's limit, at its line."""
    from mazmorra.yamlsafe import MAX_DEPTH

    with pytest.raises(YamlError) as exc:
        parse_yaml(text, "f.yaml")
    problem = exc.value.problem
    assert (problem.rule, problem.message) == ("yaml.depth", f"nesting deeper than {MAX_DEPTH} levels")
    assert (problem.loc.file, problem.loc.line) == ("f.yaml", line)


def test_billion_laughs_is_refused_fast() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    with pytest.raises(YamlError) as exc:
        parse_yaml(bomb, "bomb.yaml")
    assert exc.value.problem.rule == "yaml.alias"


def test_tokens_and_bold() -> None:
    paras = split_paragraphs("Roba {draw:2}. **Muy** bien {coin}\nOtra")
    first = paras[0]
    assert first[1] == [IconPart("draw", "2"), TextPart(".", False)]
    assert first[2] == [TextPart("Muy", True)]
    assert first[4] == [IconPart("coin", None)]
    assert paras[1] == [[TextPart("Otra", False)]]
    assert token_signature("a {draw:2} **b**") == ["**", "**", "{draw:2}"]


def test_fit_shrinks_then_reports_overflow() -> None:
    style = Style()
    short = fit("Hola", 100, 20, style, 10, 6, "es")
    assert short.fits and short.size == 10
    medium = fit("palabra " * 30, 100, 60, style, 10, 6, "es")
    assert medium.fits and 6 <= medium.size < 10
    too_long = fit("palabra " * 300, 100, 60, style, 10, 6, "es")
    assert not too_long.fits and too_long.size == 6 and too_long.overflow > 0


def test_hyphenation_follows_the_language() -> None:
    style = Style()
    f = fit("aa extraordinariamente", 60, 200, style, 10, 10, "es")
    words = [p.part.text for line in f.lines for p in line.items if isinstance(p.part, TextPart)]
    assert any(w.endswith("-") for w in words), words
    assert "".join(w.rstrip("-") for w in words[1:]) == "extraordinariamente"


@pytest.mark.parametrize(
    "word, lang",
    [("(exploración)", "es"), ("«Recuperar»", "es"), ("sub-jefe", "es"), ("(extraordinary),", "en")],
)
def test_hyphenation_keeps_punctuation_with_its_word(word: str, lang: str) -> None:
    from mazmorra.layout.linebreak import word_splits

    splits = word_splits(word, lang)
    assert splits
    for left, right in splits:
        joined = left + right if "-" in word else left[:-1] + right  # an existing hyphen stays printed once
        assert joined == word
        assert left.endswith("-") and not left.endswith("--")
        assert right[0].isalpha()  # closing punctuation never starts the next line
        assert len(left.strip("(«-")) >= 3 and len(right.rstrip(")»,")) >= 3  # never a fragment under 3 letters


def test_fitted_lines_never_break_off_closing_punctuation() -> None:
    style = Style()
    for width in range(40, 140, 3):
        f = fit(
            "Roba una carta (exploración) y luego «Recuperar» al ex-jefe.",
            width,
            400,
            style,
            10,
            10,
            "es",
        )
        for line in f.lines:
            texts = [p.part.text for p in line.items if isinstance(p.part, TextPart)]
            assert texts and texts[0][0] not in ")»,.;:", texts
            assert not any(t.endswith("--") for t in texts)
