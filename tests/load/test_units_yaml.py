"""Unit tests of the building blocks of loading: lengths and sizes, safe YAML (text fitting and
hyphenation: tests/layout/text/test_text.py)."""

from __future__ import annotations

import pytest

from mazmorra.errors import Loc
from mazmorra.model.units import parse_length, parse_size
from mazmorra.source.yamlsafe import YamlError, parse_yaml


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


def test_yaml_positions_follow_keys_when_the_mapping_changes() -> None:
    """Positions are packed in key order (not one Loc per value): a key removed, added or given a
    position by code keeps every other key's position."""
    doc = parse_yaml("a: 1\nb: 2\nc:\n  - x\n  - y\n", "f.yaml")
    assert dict(doc.locs) == {"a": Loc("f.yaml", 1, 4), "b": Loc("f.yaml", 2, 4), "c": Loc("f.yaml", 4, 3)}
    assert doc.loc == Loc("f.yaml", 1, 1) and doc["c"].locs[-1] == Loc("f.yaml", 5, 5)
    assert [loc.line for loc in doc["c"].locs] == [4, 5]
    assert doc.pop("a") == 1 and doc.locs["b"].line == 2  # (a removed key's position stays, as a dict's did)
    doc["d"] = 4  # added by code: no position until given one
    assert doc.locs.get("d") is None and doc.locs["c"].line == 4
    doc.locs["d"] = Loc("elsewhere.yaml", 9, 1)
    assert doc.locs["d"].file == "elsewhere.yaml" and doc.locs["b"] == Loc("f.yaml", 2, 4)
    del doc["b"]
    assert doc.locs["c"] == Loc("f.yaml", 4, 3) and doc.locs["d"].line == 9


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
    from mazmorra.source.yamlsafe import MAX_DEPTH

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
