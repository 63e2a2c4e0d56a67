"""Issue 14: a pack's glossary (glossary.yaml): every translation uses the glossary's term, never
leaves the source term untranslated; the samples keep theirs; `i18n status` reports the misses."""

from __future__ import annotations

import json

import polib
import pytest
from conftest import line_of, run_cli

from mazmorra.errors import Loc
from mazmorra.i18n.checks.glossary import Pair, Term, check_glossary


def _plant(pack, ctx: str, text: str) -> int:
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    po.find(ctx, by="msgctxt").msgstr = text
    po.save()
    return line_of(po_path, text)


@pytest.mark.slow
def test_a_planted_inconsistent_term_is_caught_at_its_po_line(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    wrong = _plant(pack, "entrevista-exclusiva.effect", "When a rival gains an intern: {gain:2}.")
    spanish = _plant(
        pack, "pozo-oculto.effect", "Place a trampa in your zone. The first rival to enter takes {stun:2}."
    )
    res = run_cli("validate", "expedicion", cwd=project)
    assert res.returncode == 1
    err = res.stderr
    assert f"content/expedicion/locale/en.po:{wrong}:1: error [entrevista-exclusiva.effect] (en)" in err
    assert "'becario'" in err and "'apprentice'" in err and "(glossary.term)" in err
    assert f"content/expedicion/locale/en.po:{spanish}:1: error [pozo-oculto.effect] (en)" in err
    assert "'trampa' is the 'es' term, left untranslated" in err and "(glossary.untranslated)" in err
    # A draft still prints, warning; i18n status lists the misses.
    draft = ("--lang", "en", "--draft", "--no-pdf", "--png", "--dpi", "30")  # the images' resolution is not looked at
    assert run_cli("build", "expedicion", *draft, cwd=project).returncode == 0
    res = run_cli("i18n", "status", "expedicion", "--json", cwd=project)
    en = next(d for d in json.loads(res.stdout) if d["lang"] == "en")
    assert sorted(g["component"] for g in en["glossary"]) == ["entrevista-exclusiva", "pozo-oculto", "pozo-oculto"]
    table = run_cli("i18n", "status", "expedicion", cwd=project, env={"COLUMNS": "200"}).stdout
    assert "glossary" in table and "entrevista-exclusiva.effect" in table


@pytest.mark.slow
def test_the_samples_follow_their_glossaries() -> None:
    res = run_cli("validate")
    assert res.returncode == 0, res.stderr
    assert "glossary." not in res.stderr and "style." not in res.stderr  # nor a house-style warning


def test_a_malformed_glossary_is_located(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "glossary.yaml").write_text("- es: [cofre]\n  en: [chest]\n- es: caja\n  note: only one language\n")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1
    assert "content/muestras/glossary.yaml:3:" in res.stderr and "glossary.syntax" in res.stderr


def test_the_longer_term_is_the_one_meant_and_shared_forms_are_no_leak() -> None:
    at = Loc("glossary.yaml", 1, 1)
    terms = [
        Term({"en": ("room", "rooms"), "es": ("sala", "salas")}, "", at),
        Term({"en": ("quest room",), "es": ("cámara del objetivo",)}, "", at),
        Term({"en": ("clan",), "es": ("clan",)}, "", at),
    ]
    ok = [Pair("Quest room", "Cámara del objetivo", at, "x", "y"), Pair("The clan", "El clan", at, "x", "z")]
    assert check_glossary(terms, "en", "es", ok) == []
    bad = check_glossary(terms, "en", "es", [Pair("Empty room", "Habitación vacía", at, "x", "y")])
    assert [p.rule for p in bad] == ["glossary.term"]


def test_english_texts_use_one_apostrophe() -> None:
    """The samples' English and the shipped labels write the typographic apostrophe, never a mix."""
    import re
    from pathlib import Path

    from conftest import CONTENT

    from mazmorra.i18n.labels import template_labels
    from mazmorra.support.paths import templates_dir

    straight = re.compile(r"\w'\w|s' ")
    texts = [e.msgstr for po in CONTENT.glob("*/locale/en.po") for e in polib.pofile(str(po))]
    texts += [label.msgid for label in template_labels(sorted(Path(templates_dir()).glob("*.j2")))]
    assert texts and [t for t in texts if straight.search(t)] == []
    assert any("\u2019" in t for t in texts)
