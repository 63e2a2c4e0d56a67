"""Sheet orientation per deck: whichever way fits more pieces a sheet, unless the pack, the deck or
the command line says; page counts and page sizes read from the PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit, run_cli
from pypdf import PdfReader

from mazmorra.model.units import PAGE_SIZES_MM
from mazmorra.render.impose import ImposeOptions, impose

PT = 72 / 25.4


def _pages(pdf: Path) -> list[tuple[float, float]]:
    """Every page's size in mm, width first."""
    return [(float(p.mediabox.width) / PT, float(p.mediabox.height) / PT) for p in PdfReader(str(pdf)).pages]


def _landscape(size: tuple[float, float], page: str) -> bool:
    w, h = PAGE_SIZES_MM[page]
    assert sorted(size) == pytest.approx(sorted((w, h)), abs=0.1), size
    return size[0] > size[1]


@pytest.mark.parametrize(("page", "portrait", "landscape"), [("a4", 36, 28), ("letter", 54, 36)])
def test_auto_orientation_prints_on_the_fewer_pages(page: str, portrait: int, landscape: int) -> None:
    sizes, backs = [(63.0, 88.0)] * 105, [True] * 105
    counts = {turn: len(impose(ImposeOptions(page=page, landscape=turn), sizes, backs, 3.0)) for turn in (False, True)}
    assert counts == {False: portrait, True: landscape}
    chosen = impose(ImposeOptions(page=page, landscape=None), sizes, backs, 3.0)
    assert len(chosen) == landscape
    assert all(p.size[0] > p.size[1] for p in chosen)


def test_a_tie_keeps_portrait() -> None:
    # one card fits one page either way
    (page,) = impose(ImposeOptions(page="a4", landscape=None), [(63.0, 88.0)], [False], 3.0)
    assert page.size == PAGE_SIZES_MM["a4"]


@pytest.mark.slow
def test_expedition_deck_on_letter_takes_at_most_36_landscape_pages(built) -> None:
    pdf = built("expedicion", "--lang", "en", "--page", "letter") / "en" / "tricks.pdf"
    pages = _pages(pdf)
    assert len(pages) <= 36
    assert all(_landscape(size, "letter") for size in pages)


@pytest.mark.slow
def test_duplex_fronts_and_backs_pages_share_the_chosen_orientation(built) -> None:
    sizes = _pages(built("expedicion", "--lang", "en", "--page", "letter") / "en" / "curses.pdf")
    assert len({(round(w), round(h)) for w, h in sizes}) == 1


def _curses(project: Path, *options: str) -> list[tuple[float, float]]:
    res = run_cli("build", "expedicion", "--lang", "en", "--deck", "maldiciones", *options, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    return _pages(project / "output" / "expedicion" / "en" / "curses.pdf")


@pytest.mark.slow
def test_pack_deck_and_command_line_choose_the_orientation_in_that_order(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    auto = _curses(project)  # 15 curses: 8 a landscape A4 sheet, 6 a portrait one
    assert len(auto) == 4 and all(_landscape(s, "a4") for s in auto)
    edit(pack / "pack.yaml", "page: a4\n", "page: a4\norientation: portrait\n")
    by_pack = _curses(project)
    assert len(by_pack) == 6 and not any(_landscape(s, "a4") for s in by_pack)
    edit(pack / "pack.yaml", "    name: Maldiciones\n", "    name: Maldiciones\n    orientation: landscape\n")
    by_deck = _curses(project)
    assert len(by_deck) == 4 and all(_landscape(s, "a4") for s in by_deck)
    by_cli = _curses(project, "--portrait")
    assert len(by_cli) == 6 and not any(_landscape(s, "a4") for s in by_cli)


def test_a_wrong_orientation_is_located(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "page: a4\n", "page: a4\norientation: sideways\n")
    res = run_cli("validate", "expedicion", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "pack.yaml" in text and "orientation" in text, text
    assert "Traceback" not in text
