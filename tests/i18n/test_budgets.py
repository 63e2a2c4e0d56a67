"""Budgets in the catalogue: what a translator sees while typing (the box, type sizes, a character
budget as `#, max-length:N`, what each icon token is, glossary notes; a format flag msgfmt checks),
and what a build makes of them (over budget: an error at the .po line; shrunk: a warning with both
sizes)."""

from __future__ import annotations

import json
import re
import subprocess

import polib
import pytest
from conftest import CONTENT, edit, need_tool, run_cli

from mazmorra.load import load_pack
from mazmorra.model.cardtext import TOKEN

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())


@pytest.mark.parametrize("name", SAMPLES)
def test_every_template_entry_names_its_component_field_kind_box_and_budget(name: str) -> None:
    pack = load_pack(CONTENT / name)
    kinds = {c.id: c.kind for c in pack.components()}
    template = polib.pofile(str(CONTENT / name / "locale" / f"{name}.pot"))
    boxed = 0
    for e in template:
        comp, fld = e.msgctxt.rsplit(".", 1) if e.msgctxt.count(".") == 1 else e.msgctxt.split(".", 1)
        first = e.comment.splitlines()[0]
        assert first.startswith(f"{comp} · {fld}"), e.msgctxt
        kind = kinds.get(comp)
        if kind is None:
            continue  # the pack's and decks' names
        assert f"kind {kind.name}" in first
        limit = kind.text_limits.get(fld)
        budget = [int(f.split(":")[1]) for f in e.flags if f.startswith("max-length:")]
        if limit is not None:
            assert budget and budget[0] <= limit, e.msgctxt  # every field with a limit carries one
            assert f"at most {limit} characters (the kind's limit)" in e.comment
        box = re.search(
            r"box (\d+\.\d)×(\d+\.\d) mm \((\w+)\): ([\d.]+) pt design size, ([\d.]+) pt at least", e.comment
        )
        if box:
            boxed += 1
            assert float(box.group(1)) > 0 and float(box.group(4)) >= float(box.group(5))
        tokens = {m.group(0) for m in TOKEN.finditer(e.msgid)}
        assert ("python-brace-format" in e.flags) == bool(tokens)
        for t in tokens:
            assert f"{t} the " in e.comment  # each token explained
    assert boxed >= len([e for e in template if e.msgctxt.split(".")[0] in kinds]) // 2


def test_glossary_terms_are_noted_on_the_entries_that_hold_them() -> None:
    template = polib.pofile(str(CONTENT / "muestras" / "locale" / "muestras.pot"))
    entry = template.find("ojo-del-vigia.text", by="msgctxt")
    assert "glossary: carta = en: card, cards" in entry.comment and "glossary: mazo = en: deck" in entry.comment


def test_msgfmt_check_format_catches_a_dropped_icon_token(pack_copy) -> None:
    need_tool("msgfmt")
    pack = pack_copy("muestras")
    po = pack / "locale" / "en.po"
    assert subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(po)]).returncode == 0
    edit(po, 'msgstr "Open the chest: gain 2 {coin} and draw {draw:1}."', 'msgstr "Open the chest: gain 2 coins."')
    res = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert res.returncode != 0 and "'coin'" in res.stderr and "en.po:" in res.stderr


def _msgstr_line(po, ctx: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if ln == f'msgctxt "{ctx}"')
    return next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1


def test_a_translation_over_its_measured_budget_fails_at_its_po_line_and_one_within_fits(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("ojo-del-vigia.text", by="msgctxt")
    budget = int(next(f for f in entry.flags if f.startswith("max-length:")).split(":")[1])
    filler = (entry.msgstr + " ") * 40
    entry.msgstr = filler[:budget].rstrip()  # at the budget: the box holds it
    cat.save()
    ok = run_cli("validate", "muestras", cwd=project)
    assert ok.returncode == 0, ok.stderr
    assert "text.overflow" not in ok.stderr
    cat = polib.pofile(str(po), wrapwidth=0)
    cat.find("ojo-del-vigia.text", by="msgctxt").msgstr = filler[: int(budget * 1.15)].rstrip()
    cat.save()
    res = run_cli("validate", "muestras", cwd=project)
    assert res.returncode == 1
    line = _msgstr_line(po, "ojo-del-vigia.text")
    located = [ln for ln in res.stderr.splitlines() if "(text.too-long)" in ln]
    assert located and located[0].startswith(f"content/muestras/locale/en.po:{line}:"), res.stderr
    assert f"budget is {budget}" in located[0]
    assert "text.overflow" in res.stderr  # and the budget was right: at 1.15× it no longer fits


def test_a_text_shrunk_below_its_design_size_is_a_warning_with_both_sizes(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("ojo-del-vigia.text", by="msgctxt")
    entry.msgstr = " ".join([entry.msgstr] * 4)  # fits, but only well below 11 pt
    cat.save()
    build = run_cli("validate", "muestras", cwd=project)
    assert build.returncode == 0 and "text.shrunk" not in build.stderr  # a build stays quiet
    res = run_cli("i18n", "status", "muestras", "--json", cwd=project)
    en = next(d for d in json.loads(res.stdout) if d["lang"] == "en")
    (shrunk,) = [s for s in en["shrunk"] if s["component"] == "ojo-del-vigia"]
    sizes = re.search(r"design size ([\d.]+) pt to ([\d.]+) pt", shrunk["message"])
    assert sizes and float(sizes.group(1)) == 11 and 6.5 <= float(sizes.group(2)) < 11
    assert shrunk["file"] == "content/muestras/locale/en.po" and shrunk["line"] == _msgstr_line(
        po, "ojo-del-vigia.text"
    )
    es = next(d for d in json.loads(res.stdout) if d["lang"] == "es")
    assert not [s for s in es["shrunk"] if s["component"] == "ojo-del-vigia"]
    table = run_cli("i18n", "status", "muestras", cwd=project)
    assert "shrunk" in table.stdout and "ojo-del-vigia.text" in table.stdout


def test_a_catalogue_that_lost_its_budgets_is_held_to_the_templates(pack_copy) -> None:
    """GNU msgmerge and msgcat drop flags they do not know (`max-length:N`): the template keeps them."""
    pack = pack_copy("muestras")
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    for e in cat:
        e.flags = [f for f in e.flags if not f.startswith("max-length")]
    entry = cat.find("ojo-del-vigia.text", by="msgctxt")
    template = polib.pofile(str(pack / "locale" / "muestras.pot")).find("ojo-del-vigia.text", by="msgctxt")
    budget = int(next(f for f in template.flags if f.startswith("max-length:")).split(":")[1])
    entry.msgstr = ((entry.msgstr + " ") * 40)[: budget + 20].rstrip()
    cat.save()
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1
    assert f"content/muestras/locale/en.po:{_msgstr_line(po, 'ojo-del-vigia.text')}:" in res.stderr
    assert f"budget is {budget}" in res.stderr
