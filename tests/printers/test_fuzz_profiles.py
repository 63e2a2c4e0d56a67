"""Property test (hypothesis) of a pack's own printer profile (mazmorra.printers.load): random YAML
values in every field end in a valid profile (every value within its documented range) or in located
problems (ContentError, each at a line of the profile file with a rule id), never another exception.
Derandomised, a hundred examples: quick (MAZMORRA_FUZZ_EXAMPLES digs deeper)."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazmorra import printers
from mazmorra.errors import ContentError
from mazmorra.printers import BLEED_MM, DPI, LAYOUTS, PIXELS_SIDE, SAFE_MM

EXAMPLES = int(os.environ.get("MAZMORRA_FUZZ_EXAMPLES", "100"))
QUICK = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

LENGTH = st.one_of(
    st.from_regex(r"\A-?\d{1,4}(\.\d{1,3})?(mm|cm|in|pt)?\Z"),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**6),
)
ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**9), 10**9),
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(-5, 30000), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
FIELD = {
    "name": st.one_of(st.text(max_size=30), ANY),
    "url": st.one_of(st.text(max_size=30), ANY),
    "extends": st.one_of(st.sampled_from(["drivethrucards", "home-a4", "nope", "fuzz"]), ANY),
    "bleed": st.one_of(LENGTH, ANY),
    "safe": st.one_of(LENGTH, ANY),
    "dpi": st.one_of(st.integers(0, 5000), ANY),
    "pdf": st.one_of(st.sampled_from(["1.4", "PDF/X-1a:2003", "PDF/X-4", "2.0"]), ANY),
    "colour": st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "space": st.sampled_from(["rgb", "cmyk", "lab"]),
                "icc": st.one_of(st.sampled_from(["nope"]), ANY),
                "ink_limit": st.one_of(st.integers(0, 1000), ANY),
            },
        ),
        ANY,
    ),
    "files": st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "layout": st.one_of(st.sampled_from(sorted(LAYOUTS)), ANY),
                "name": st.one_of(
                    st.sampled_from(["{deck}/{n:03d}-{component}.pdf", "../x.pdf", "{deck.__class__}.pdf", "{name}"]),
                    ANY,
                ),
                "crop_marks": ANY,
                "page": st.one_of(st.sampled_from(["a4", "letter", "a9"]), ANY),
            },
        ),
        ANY,
    ),
    "products": st.one_of(
        st.dictionaries(
            st.text("abc", min_size=1, max_size=3),
            st.one_of(
                st.fixed_dictionaries(
                    {"size": st.one_of(st.sampled_from(["poker", "63x88mm", "0x0mm", "9000x1mm"]), ANY)},
                    optional={
                        "bleed": LENGTH,
                        "safe": LENGTH,
                        "pixels": st.one_of(st.tuples(st.integers(-5, 30000), st.integers(-5, 30000)).map(list), ANY),
                    },
                ),
                ANY,
            ),
            max_size=2,
        ),
        ANY,
    ),
    "set": st.one_of(st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=6), st.integers())), ANY),
}
PROFILES = st.fixed_dictionaries({}, optional=FIELD)


def _in_range(p: printers.Printer) -> None:
    assert 0 <= p.bleed <= BLEED_MM and 0 <= p.safe <= SAFE_MM and DPI[0] <= p.dpi <= DPI[1]
    for product in p.products:
        assert 0 <= product.bleed <= BLEED_MM and 0 <= product.safe <= SAFE_MM
        assert all(1 <= side <= 2000 and math.isfinite(side) for side in product.trim)
        assert product.pixels is None or all(1 <= side <= PIXELS_SIDE for side in product.pixels)


@QUICK
@given(PROFILES)
def test_any_profile_is_valid_in_range_or_refused_at_its_lines(tmp_path: Path, profile: dict[str, Any]) -> None:
    pack = tmp_path / "pack"
    (pack / "printers").mkdir(parents=True, exist_ok=True)
    path = pack / "printers" / "fuzz.yaml"
    path.write_text(yaml.safe_dump(profile, allow_unicode=True), encoding="utf-8")
    try:
        loaded = printers.load("fuzz", pack)
    except ContentError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.rule and "." in problem.rule, problem
            assert problem.loc is not None and Path(problem.loc.file).name in (
                "fuzz.yaml",
                f"{profile.get('extends')}.yaml",
            )
            assert problem.loc.line >= 1, problem
        return
    _in_range(loaded)
