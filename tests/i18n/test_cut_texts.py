"""Texts printed cut short (`<text ellipsize="end">`) are a translation hazard: `i18n status` lists
them per language at the line of the text (column *cut*, `cut` in --json), `i18n pseudo` counts them."""

from __future__ import annotations

import json

from conftest import run_cli

from mazmorra.support.paths import templates_dir

CUT = (
    '<text x="3" y="3" w="22" h="4" size="7" role="label" field="text" ellipsize="end" overlap="ok">'
    "{{ card.text }}</text>"
)


def test_status_and_pseudo_list_the_texts_cut_short(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir(exist_ok=True)
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {CUT}\n</card>"), encoding="utf-8")
    project = pack.parents[1]
    res = run_cli("i18n", "status", "muestras", "--json", cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    by_lang = {st["lang"]: st for st in json.loads(res.stdout)}
    es = {c["component"]: c for c in by_lang["es"]["cut"]}
    en = {c["component"]: c for c in by_lang["en"]["cut"]}
    assert "ojo-del-vigia" in es and "ojo-del-vigia" in en, (es, en)
    assert es["ojo-del-vigia"]["file"].endswith("decks/cartas.yaml") and es["ojo-del-vigia"]["field"] == "text"
    assert en["ojo-del-vigia"]["file"].endswith("locale/en.po")  # the translation's own line
    assert "is not printed" in en["ojo-del-vigia"]["message"]
    table = run_cli("i18n", "status", "muestras", cwd=project)
    assert "cut" in table.stdout and "ojo-del-vigia.text" in table.stdout, table.stdout
    pseudo = run_cli("i18n", "pseudo", "muestras", "--out", str(project / "qps"), cwd=project)
    assert " cut" in pseudo.stderr and "text.ellipsized" in pseudo.stderr, pseudo.stderr
