"""A draft marks every face that prints something in another language: its own texts, the labels
its template prints and the texts of other components it shows (a granted card's name), with
FUZZY distinct from UNTRANSLATED, each in the build's language."""

from __future__ import annotations

import polib
import pytest
import yaml
from conftest import pdf_text, run_cli

pytestmark = pytest.mark.slow


def _cards(pack) -> list[dict]:
    return yaml.safe_load((pack / "decks" / "artimanas.yaml").read_text(encoding="utf-8"))


def _copies(cards: list[dict], which) -> int:
    return sum(int(c.get("copies", 1)) for c in cards if which(c))


def test_a_draft_shows_every_fallback_on_a_band(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    cards = _cards(pack)
    granted = cards[0]["grants"]  # a card of another deck whose name this one prints
    fuzzy_card = cards[1]["id"]
    # Spanish: a label with no translation (printed in English) and a fuzzy one (the tool's word)
    labels = polib.pofile(str(pack / "locale" / "labels" / "es.po"), wrapwidth=0)
    labels.find("{move:%(n)s} Move", msgctxt="label").msgstr = ""
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
    assert es.count('SIN TRADUCIR (es): "Move"') == moving, es  # the label, in English, on each face
    assert es.count('POR REVISAR (es): "Grants:"') == granting  # fuzzy: its own word, not UNTRANSLATED
    assert "{move:1} Move" not in es and "Move" in es  # the English label printed, its icon drawn
    en_text = pdf_text(project / "output" / "expedicion" / "en" / "artimanas.pdf")
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
