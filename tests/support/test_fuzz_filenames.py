"""Property tests (hypothesis) of the one name maker (support/filenames.py): any values through any
pattern give names of safe characters only, never a name Windows reserves, never longer than
MAX_NAME, always inside the output folder, unique within their folder (ignoring case) for distinct
requests and the same for the same request (two folders differing in case only are two decks whose
ids differ in case: ids are lowercase, and decks meeting in one folder are `output.name-clash`); any pattern text is a Pattern or a BadPattern, never
another exception. Derandomised, a few hundred examples: quick (MAZMORRA_FUZZ_EXAMPLES digs deeper)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mazmorra.support.filenames import MAX_NAME, RESERVED, BadPattern, Names, output_path, parse_pattern, safe_name

EXAMPLES = int(os.environ.get("MAZMORRA_FUZZ_EXAMPLES", "200"))
QUICK = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None)
SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
FIELDS = ("deck", "component", "side", "lang", "n")
# Hostile pieces mixed into random text: climbs, separators, reserved names, dots, case twins.
PIECES = st.sampled_from(
    ["..", "/", "\\", ".", "con", "NUL", "lpt1", "Aux.txt", "com9", " ", "\x00", "é", "ﬁ", "-", "_", "A", "a"]
)
VALUE = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=6).map("".join)
LONG = st.text(alphabet="ab.", min_size=90, max_size=130)
PATTERNS = st.sampled_from(
    [
        "{deck}.pdf",
        "{deck}/{n:03d}-{component}.pdf",
        "{deck}/{n:03d}-{component}-{side}.pdf",
        "{deck}-{side}s.pdf",
        "{deck}/{component}-{side}.png",
        "{lang}/{deck}/{component}.pdf",
        "{component}",
    ]
)


def _check(root: Path, path: Path) -> None:
    rel = path.relative_to(root)  # ValueError: not under root
    assert path.resolve().is_relative_to(root.resolve()), path
    for part in rel.parts:
        assert SAFE.fullmatch(part), part
        assert part.split(".")[0].lower() not in RESERVED, part
        assert len(part) <= MAX_NAME, part
        assert part not in (".", "..") and not part.endswith("."), part


@QUICK
@given(st.one_of(VALUE, LONG, st.text()))
def test_any_text_is_one_safe_name(value: str) -> None:
    name = safe_name(value)
    assert SAFE.fullmatch(name), name
    assert name.split(".")[0].lower() not in RESERVED and len(name) <= MAX_NAME, name
    assert safe_name(value) == name  # the same input, the same name


@QUICK
@given(PATTERNS, st.lists(st.tuples(VALUE, st.one_of(VALUE, LONG), st.integers(0, 10**6)), min_size=1, max_size=12))
def test_any_values_through_any_pattern_stay_safe_inside_and_unique(
    tmp_path_factory, pattern: str, requests: list[tuple[str, str, int]]
) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.getbasetemp() / "out"  # nothing is written: names only
    names = Names()
    given_paths: dict[tuple[str, str, int], Path] = {}
    for deck, component, n in requests:
        values = {"deck": deck, "component": component, "side": "front", "lang": "es", "n": n}
        path = output_path(root, pattern, names, **values)
        _check(root, path)
        assert output_path(root, pattern, names, **values) == path  # asked again: the same name
        given_paths[(deck, component, n)] = path
    by_folder: dict[Path, list[str]] = {}
    for path in given_paths.values():
        by_folder.setdefault(path.parent, []).append(path.name.casefold())
    for folder, names_there in by_folder.items():  # distinct requests, distinct names (ignoring case)
        assert len(set(names_there)) == len(names_there), folder


@QUICK
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["{", "}", "/", ":", "03d", "..", ".", "__class__", "[0]"]),
            st.sampled_from(FIELDS),
            st.text(max_size=4),
        ),
        max_size=10,
    ).map("".join)
)
def test_any_pattern_text_is_a_pattern_or_a_located_refusal(text: str) -> None:
    try:
        pattern = parse_pattern(text, FIELDS)
    except BadPattern as exc:
        assert str(exc)
        return
    assert pattern.fields <= set(FIELDS)
    for seg in pattern.segments:
        assert seg and not seg[0][0].startswith(".")
        for literal, _, _ in seg:
            assert "/" not in literal and "\\" not in literal and ".." not in literal.split("/")
