"""bench/instructions.py --ceiling: its hand-kept stripped template (bench/ceiling/artimana.xml.j2) still
prints every card field the shipped one does, its guard says so when it does not, and a pack carrying it
builds in both languages with the fixed elements gone and the card's own texts printed."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from conftest import REPO, pdf_text, run_cli


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_instructions", REPO / "bench" / "instructions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # puts bench/ on sys.path for its own imports (cold, designer, synth)
    return module


def test_the_stripped_template_prints_every_card_field() -> None:
    _bench()._check_ceiling()


def test_the_guard_names_a_field_the_stripped_template_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    lost = tmp_path / "artimana.xml.j2"
    lost.write_text(bench._CEILING.read_text(encoding="utf-8").replace("card.omega", "False"), encoding="utf-8")
    monkeypatch.setattr(bench, "_CEILING", lost)
    with pytest.raises(SystemExit, match=r"lacks card\.omega"):
        bench._check_ceiling()


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "type_label"), [("es", "Subterfugio"), ("en", "Subterfuge")])
def test_a_ceiling_pack_builds_without_the_fixed_elements(tmp_path: Path, lang: str, type_label: str) -> None:
    bench = _bench()
    pack = bench.make_pack(tmp_path, 6)
    bare = bench._ceiling_pack(pack, tmp_path / "ceiling")
    first = yaml.safe_load((pack / "decks" / "cartas.yaml").read_text(encoding="utf-8"))[0]
    name = first["name"] if lang == "es" else _english_name(pack, first["id"])
    texts = {}
    for side, folder in (("shipped", pack), ("ceiling", bare)):
        done = run_cli("build", str(folder), "--lang", lang, "--out", str(tmp_path / f"out-{side}"))
        assert done.returncode == 0, done.stderr
        (pdf,) = (tmp_path / f"out-{side}").rglob("*.pdf")
        texts[side] = " ".join(pdf_text(pdf).split())
    assert name in texts["shipped"] and name in texts["ceiling"]
    assert type_label in texts["shipped"]  # the fixed band's label: printed by the shipped template only
    assert type_label not in texts["ceiling"]


def _english_name(pack: Path, cid: str) -> str:
    import polib

    (po,) = (pack / "locale").glob("en*.po")
    return str(next(e.msgstr for e in polib.pofile(str(po)) if e.msgctxt == f"{cid}.name"))
