"""A printer profile's `set:` values (vars.NAME in templates): a playtest profile prints its
watermark, a shop's profile does not, `build --set` overrides the profile, and the face cache never
serves a face drawn with another profile's values. Read back from the built PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pdf_text, run_cli

from mazmorra import printers
from mazmorra.support.paths import templates_dir

PLAYTEST = """# a pack's own profile: home printing, every card marked as a playtest copy
name: Playtest at home
extends: home-a4
set:
  watermark: PLAYTEST COPY
  round: 3
"""


def _pack(pack_copy) -> Path:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir(exist_ok=True)
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    mark = (
        '{% if vars.watermark %}<text x="3" y="50" w="55" h="8" size="9" role="label" overlap="ok">'
        "{{ vars.watermark }} {{ vars.round }}</text>{% endif %}"
    )
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {mark}\n</card>"), encoding="utf-8")
    (pack / "printers").mkdir()
    (pack / "printers" / "playtest.yaml").write_text(PLAYTEST, encoding="utf-8")
    return pack


def _build(project: Path, out: str, *options: str, files: str = "cartas.pdf") -> str:
    """The text of the deck's PDFs this build wrote (`files`, in out/muestras/es/)."""
    res = run_cli("build", "muestras", "--lang", "es", "-d", "cartas", "-o", out, "-j", "1", *options, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    written = sorted((project / out / "muestras" / "es").glob(files))
    assert written, res.stdout
    return "\n".join(pdf_text(pdf) for pdf in written)


@pytest.mark.slow
def test_a_profiles_values_print_and_set_overrides_them(pack_copy) -> None:
    pack = _pack(pack_copy)
    project = pack.parents[1]
    assert printers.load("playtest", pack).values == (("round", "3"), ("watermark", "PLAYTEST COPY"))
    listed = run_cli("printers", str(pack)).stdout
    assert "set round=3; set watermark=PLAYTEST COPY" in listed, listed
    # one output folder for every build: its face cache is shared, so a stale face would show
    assert "PLAYTEST COPY 3" in _build(project, "out", "--printer", "playtest")
    assert "PLAYTEST" not in _build(project, "out", "--printer", "home-a4")
    shop = _build(project, "out", "--printer", "drivethrucards", files="drivethrucards/*.pdf")  # a shop's files
    assert "Cofre olvidado" in shop and "PLAYTEST" not in shop
    assert "PLAYTEST" not in _build(project, "out")  # no profile: no values
    wins = _build(project, "out", "--printer", "playtest", "--set", "watermark=FINAL")
    assert "FINAL 3" in wins and "PLAYTEST" not in wins  # --set wins, the profile's other values stay
    assert "PLAYTEST" not in _build(project, "out", "--printer", "playtest", "--set", "watermark=")
    assert "PLAYTEST COPY 3" in _build(project, "out", "--printer", "playtest")  # and back, from the cache


def test_a_bad_value_name_is_located_in_the_profile(pack_copy) -> None:
    pack = _pack(pack_copy)
    (pack / "printers" / "playtest.yaml").write_text(PLAYTEST + "  two words: x\n", encoding="utf-8")
    res = run_cli("build", "muestras", "--printer", "playtest", cwd=pack.parents[1])
    said = res.stdout + res.stderr
    assert res.returncode == 1 and "Traceback" not in said, said
    assert "playtest.yaml:7" in said and "set: 'two words' is not a name templates can read" in said, said
