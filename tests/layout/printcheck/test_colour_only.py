"""print.colour-only: what a deck tells apart by colour alone is found by looking at its faces in
greyscale and through deuteranopia, protanopia and tritanopia simulation; the samples tell it by a symbol too."""

from __future__ import annotations

import re

import pytest
from conftest import calls_of, line_of, run_cli

from mazmorra.layout.printcheck.colouronly import DEUTERANOPIA, GREY, PROTANOPIA, TRITANOPIA, alike, seen


@pytest.mark.parametrize("m", [GREY, DEUTERANOPIA, PROTANOPIA, TRITANOPIA])
def test_each_view_keeps_white_white_and_black_black(m) -> None:
    assert seen("#ffffff", m) == pytest.approx((100.0, 0.0, 0.0), abs=0.6)
    assert seen("#000000", m) == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)


def test_views_tell_what_the_eye_tells() -> None:
    red, green, blue = "#c0392b", "#1e8449", "#2471a3"  # the expedition's militia, wealth and lineage cubes
    assert alike((red,), (green,)) == ["greyscale"]  # same grey, but red and green differ for dichromats here
    assert "greyscale" in alike((red,), (blue,))
    assert alike(("#ffd700",), ("#1b1b1b",)) == []  # yellow and black differ in every view
    assert alike(("#cc3333",), ("#cc3333",)) == []  # the same colour is no difference
    # worship's purple and lineage's blue: one blue for a deuteranope, apart for a protanope
    assert alike(("#7d3c98",), ("#2471a3",)) == ["greyscale", "deuteranopia"]
    # two teals a trichromat and a red-green dichromat tell apart, one teal for a tritanope (blue-yellow)
    assert alike(("#15ada0",), ("#5cc8b7",)) == ["tritanopia"]


def _validate(pack) -> str:
    res = run_cli("validate", pack.name, cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr  # a warning: the build goes on
    return res.stdout + res.stderr


@pytest.mark.slow
def test_expedition_cubes_without_their_symbols_are_reported_at_their_colour(pack_copy) -> None:
    pack = pack_copy("expedicion")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(re.sub(r', mark: "[^"]*"', "", text), encoding="utf-8")
    out = _validate(pack)
    found = [line for line in out.splitlines() if "print.colour-only" in line]
    assert found, out
    for cube in ("riquezas", "linaje"):  # green and blue print the grey of the red militia cube
        where = f"content/expedicion/pack.yaml:{line_of(pack / 'pack.yaml', f'    {cube}:')}:"
        assert any(line.startswith(where) and "greyscale" in line for line in found), (where, found)
    res = run_cli("validate", "expedicion", "--strict", cwd=pack.parents[1])
    assert res.returncode == 1 and "print.colour-only" in res.stdout + res.stderr


@pytest.mark.slow
def test_rooms_player_colours_without_their_symbols_are_reported_at_the_colour_field(pack_copy) -> None:
    pack = pack_copy("engranajes")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(re.sub(r', mark: "[^"]*"', "", text), encoding="utf-8")
    out = _validate(pack)
    # copper and jade print one grey: the jade character is reported at its colour cell
    row = line_of(pack / "decks" / "personajes.csv", "relojera-jade")
    assert f"content/engranajes/decks/personajes.csv:{row}:3: warning [relojera-jade]" in out, out
    assert "differs from relojera-cobre's only by colour" in out
    assert out.count("print.colour-only") < 40  # once per way of differing, not once per card


@pytest.mark.slow
@pytest.mark.parametrize("pack", ["expedicion", "engranajes"])
def test_the_samples_tell_cubes_and_players_apart_without_colour(pack: str) -> None:
    res = run_cli("validate", pack, "--strict")
    assert res.returncode == 0 and "print.colour-only" not in res.stdout + res.stderr, res.stdout + res.stderr


def test_a_second_run_judges_unchanged_faces_by_what_the_first_kept(pack_copy, monkeypatch) -> None:
    """What the check needs of each face is kept beside the face cache (by face key): a build whose
    faces all come from the cache reads no face's ops for it and reports the same, at the same lines."""
    from mazmorra.build.pipeline import BuildOptions, build
    from mazmorra.layout.printcheck import colouronly

    pack = pack_copy("engranajes")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(re.sub(r', mark: "[^"]*"', "", text), encoding="utf-8")
    judged = calls_of(monkeypatch, colouronly, "summary", lambda face, colours: face.component)
    opts = BuildOptions(langs=("es",), out_dir=pack.parents[1] / "output", decks=("personajes",))

    def found() -> list[str]:
        return sorted(str(p) for p in build(pack, opts, render=False).warnings if p.rule == "print.colour-only")

    first, faces = found(), len(judged)
    assert first and faces
    assert found() == first and len(judged) == faces  # not one face judged again
    assert any(p.is_file() for p in (pack.parents[1] / "output" / ".cache" / "colour-only").rglob("*"))
