"""A draft marks every face that prints something in another language: its own texts, the labels
its template prints and the texts of other components it shows (a granted card's name), with
FUZZY distinct from UNTRANSLATED, each in the build's language."""

from __future__ import annotations

import polib
import pytest
import yaml
from conftest import pdf_text, run_cli

from mazmorra.support.paths import templates_dir

pytestmark = pytest.mark.slow


def _cards(pack) -> list[dict]:
    return yaml.safe_load((pack / "decks" / "artimanas.yaml").read_text(encoding="utf-8"))


def _copies(cards: list[dict], which) -> int:
    return sum(int(c.get("copies", 1)) for c in cards if which(c))


def test_a_draft_shows_every_fallback_on_a_band(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    cards = _cards(pack)
    granted = next(c["grants"] for c in cards if c.get("grants"))  # another deck's card this one names
    fuzzy_card = next(c["id"] for c in cards if not c.get("grants") and "effect" in c)
    # Spanish: a label the designer just reworded in the pack's own copy of the template (no
    # catalogue has it: printed in English) and a fuzzy one (the tool's word printed)
    shipped = (templates_dir() / "artimana.xml.j2").read_text(encoding="utf-8")
    assert '_("{move:%(n)s} Move")' in shipped
    (pack / "templates").mkdir()
    (pack / "templates" / "artimana.xml.j2").write_text(
        shipped.replace('_("{move:%(n)s} Move")', '_("{move:%(n)s} Move ahead")'), encoding="utf-8"
    )
    labels = polib.pofile(str(pack / "locale" / "labels" / "es.po"), wrapwidth=0)
    grants = labels.find("Grants: **%(name)s**", msgctxt="label")
    grants.flags.insert(0, "fuzzy")
    labels.save()
    # English: the granted card's name untranslated, another card's effect fuzzy
    en = polib.pofile(str(pack / "locale" / "en.po"), wrapwidth=0)
    en.remove(en.find(f"{granted}.name", by="msgctxt"))
    en.find(f"{fuzzy_card}.effect", by="msgctxt").flags.append("fuzzy")
    en.save()

    res = run_cli("build", "expedicion", "--lang", "es,en", "-d", "artimanas", "--draft", cwd=project)
    assert res.returncode == 0, res.stderr
    es = pdf_text(project / "output" / "expedicion" / "es" / "artimanas.pdf")
    moving = _copies(cards, lambda c: "move" in (c.get("aux") or {}))
    granting = _copies(cards, lambda c: bool(c.get("grants")))
    assert moving and granting
    # every face that prints the English label carries the band, naming it where the names fit (a
    # face with two fallbacks counts them); fuzzy has its own word, not UNTRANSLATED
    assert es.count("SIN TRADUCIR (es):") == moving, es
    assert es.count('SIN TRADUCIR (es): "Move ahead"') >= moving - granting
    assert es.count("POR REVISAR (es):") == granting and 'POR REVISAR (es): "Grants:"' in es
    assert "{move:1}" not in es and "Move ahead" in es  # the English label printed, its icon drawn
    en_text = pdf_text(project / "output" / "expedicion" / "en" / "tricks.pdf")
    by_granted = _copies(cards, lambda c: c.get("grants") == granted)
    assert en_text.count(f"UNTRANSLATED (en): {granted}.name") == by_granted
    assert en_text.count("FUZZY (en): effect") == _copies(cards, lambda c: c["id"] == fuzzy_card)
    assert "UNTRANSLATED (en): effect" not in en_text


def test_a_final_build_prints_no_band(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    res = run_cli("build", "expedicion", "--lang", "es", "-d", "artimanas", "--draft", cwd=project)
    assert res.returncode == 0, res.stderr
    text = pdf_text(project / "output" / "expedicion" / "es" / "artimanas.pdf")
    assert "SIN TRADUCIR" not in text and "POR REVISAR" not in text and "Otorga" in text
