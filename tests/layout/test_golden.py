"""Golden layouts (house style 7a): stage 4's drawing ops for every sample component and language
match tests/golden/. An intended layout change is refreshed with `make golden` and reviewed as a diff."""

from __future__ import annotations

import difflib

import pytest
from golden import GOLDEN, REPO, layouts

SHOWN = 3  # full diffs in the failure message; the rest are named


@pytest.mark.slow
def test_every_sample_component_matches_its_golden_layout() -> None:
    wanted = dict(layouts())
    differ = []
    for path, text in wanted.items():
        have = path.read_text(encoding="utf-8") if path.is_file() else ""
        if have != text:
            differ.append((path, have, text))
    stale = sorted(p for p in GOLDEN.rglob("*.json") if p not in wanted)
    if not differ and not stale:
        return
    report = [
        f"{len(differ)} component layout(s) differ from {GOLDEN.relative_to(REPO)}/ and {len(stale)} golden "
        "file(s) name components that are gone. If the change is intended, refresh them with "
        "`make golden` and review the diff."
    ]
    for path, have, text in differ[:SHOWN]:
        name = str(path.relative_to(REPO))
        report.append(
            "".join(
                difflib.unified_diff(
                    have.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"{name} (golden)",
                    f"{name} (now)",
                    n=1,
                )
            )
        )
    report += [f"also differs: {p.relative_to(REPO)}" for p, _, _ in differ[SHOWN:]]
    report += [f"stale: {p.relative_to(REPO)}" for p in stale]
    raise AssertionError("\n".join(report))


def test_golden_files_cover_every_sample_pack_and_language() -> None:
    packs = {p.parent.name for p in (REPO / "content").glob("*/pack.yaml")}
    assert packs and {p.name for p in GOLDEN.iterdir() if p.is_dir()} == packs
    for pack in packs:
        assert {p.name for p in (GOLDEN / pack).iterdir()} >= {"es", "en"}, pack
