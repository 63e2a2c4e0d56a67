"""Labels as first-class catalogue entries: each with its note, icon legend, placeholders and a
reference a translator's tool opens; whole sentences, never pieces joined in a template; fuzzy
labels reported, never printed silently."""

from __future__ import annotations

import re

import polib
import pytest
from conftest import CONTENT, run_cli

from mazmorra.i18n.labels import BAND_WORDS, CALIBRATION_WORDS, PAGE_TEMPLATES
from mazmorra.rounds.removal import TEMPLATE as REMOVAL_TEMPLATE
from mazmorra.support.paths import templates_dir

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())
TOOL = templates_dir().parent  # what `mazmorra:` names in a reference
# A label joined to another printed value in a template: `{x} {{ _("Move") }}`, `{{ _("Grants") }}:
# **{{ name }}**`, `{{ n }} {{ _("chips per player") }}`: pieces of a sentence a language cannot reorder.
_FRAGMENT = re.compile(r"(\}\}|(?<![#%])\})[ :]*\{\{-? *_\(|\{\{-? *_\((\"[^\"]*\"|'[^']*')\) *-?\}\}[ :]*(\*\*)?\{\{")


@pytest.mark.parametrize("pack", SAMPLES)
def test_every_label_reference_opens_the_line_that_prints_it(pack: str) -> None:
    """A reference is relative to the pack (Poedit's base path) or `mazmorra:<path in the package>`,
    and its line holds the label's words (a template) or declares it (a kind file)."""
    pot = polib.pofile(str(CONTENT / pack / "locale" / "labels.pot"))
    checked = 0
    for e in pot:
        for file, line in e.occurrences:
            path = TOOL / file.removeprefix("mazmorra:") if file.startswith("mazmorra:") else CONTENT / pack / file
            assert path.is_file(), f"{pack}: {e.msgid!r} refers to {file}, which does not open"
            text = path.read_text(encoding="utf-8").splitlines()[int(line) - 1]
            if path.suffix == ".j2":
                assert e.msgid in text.replace('\\"', '"'), (file, line, e.msgid)
            checked += 1
    # every label but the band's and the calibration sheet's words is printed by a template line
    assert checked >= len(pot) - len(BAND_WORDS) - len(CALIBRATION_WORDS)


def test_the_removal_list_and_the_band_words_are_in_every_pack_catalogue() -> None:
    assert REMOVAL_TEMPLATE in PAGE_TEMPLATES
    for pack in SAMPLES:
        pot = polib.pofile(str(CONTENT / pack / "locale" / "labels.pot"))
        ids = {e.msgid for e in pot}
        assert {"Take out of the deck", "removed since %(rev)s", "%(n)d copy"} <= ids, pack
        assert {w for w, _ in BAND_WORDS} <= ids, pack
        for lang_po in (CONTENT / pack / "locale" / "labels").glob("*.po"):
            po = polib.pofile(str(lang_po))
            untranslated = [e.msgid for e in po.untranslated_entries() + po.fuzzy_entries()]
            assert not untranslated, f"{lang_po}: {untranslated}"


def test_a_label_carries_its_note_icons_and_placeholders() -> None:
    pot = polib.pofile(str(CONTENT / "expedicion" / "locale" / "labels.pot"), wrapwidth=0)
    move = pot.find("{move:%(n)s} Move")
    assert move is not None
    assert move.occurrences[0][0] == "mazmorra:templates/artimana.xml.j2"
    note = " ".join(move.comment.split())
    assert "move N zones" in note  # the template's {# note: … #}
    assert "{move:%(n)s} the move icon with %(n)s" in note
    assert "placeholders: %(n)s" in note
    assert "python-format" in move.flags
    grants = pot.find("Grants: **%(name)s**")
    assert grants is not None and "that card's name" in grants.comment
    brace = pot.find("{student} × players")
    assert brace is not None and brace.flags[-1] == "python-brace-format"
    assert "{student} the student icon" in brace.comment
    plain = pot.find("Final score")
    assert plain is not None and plain.comment.startswith("label printed by a template\n")
    assert not {"python-format", "python-brace-format"} & set(plain.flags)


def test_no_shipped_template_joins_a_label_to_another_value() -> None:
    found = [
        f"{path.name}:{n}"
        for path in sorted(templates_dir().glob("*.j2"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _FRAGMENT.search(line)
    ]
    assert not found, found
    assert _FRAGMENT.search('{move:{{ card.aux.move }}} {{ _("Move") }}')  # the pattern finds what it must
    assert _FRAGMENT.search('{{ _("Grants") }}: **{{ components[card.grants].name }}**')
    assert _FRAGMENT.search('{{ card.total }} {{ _("chips per player") }}')


def test_a_fuzzy_label_is_reported_at_its_line_and_strict_fails(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    path = pack / "locale" / "labels" / "es.po"
    po = polib.pofile(str(path), wrapwidth=0)
    entry = po.find("Grants: **%(name)s**", msgctxt="label")
    assert entry is not None
    entry.flags.insert(0, "fuzzy")
    entry.msgstr = "Concede: **%(name)s**"  # what a translator has not checked yet
    po.save()
    line = next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "Concede" in text)
    res = run_cli("build", "expedicion", "--lang", "es", "-d", "artimanas", cwd=project)
    assert res.returncode == 0, res.stderr
    said = [ln for ln in res.stderr.splitlines() if "(i18n.label-fuzzy)" in ln]
    assert said and said[0].startswith(f"content/expedicion/locale/labels/es.po:{line}:"), res.stderr
    assert "warning" in said[0] and "Grants" in said[0]
    from conftest import pdf_text

    text = pdf_text(project / "output" / "expedicion" / "es" / "artimanas.pdf")
    assert "Concede" not in text and "Otorga" in text  # the tool's translation, never the unchecked one
    res = run_cli("build", "expedicion", "--lang", "es", "-d", "artimanas", "--strict", cwd=project)
    assert res.returncode == 1 and "(i18n.label-fuzzy)" in res.stderr


def test_a_label_missing_from_a_shipped_template_points_at_the_packs_catalogue(pack_copy) -> None:
    """A language the tool ships no labels for: a label of a shipped template left untranslated is an
    error at its entry in the pack's label catalogue, naming the shipped line; nothing in the tool's folder."""
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    assert run_cli("i18n", "add", "fr", "expedicion", cwd=project).returncode == 0
    left = "{move:%(n)s} Move"  # the one a translator has not reached yet
    for path in (pack / "locale" / "labels" / "fr.po", pack / "locale" / "fr.po"):
        po = polib.pofile(str(path), wrapwidth=0)
        for e in po:
            if e.msgid_plural:
                e.msgstr_plural = {k: f"fr {e.msgid_plural}" for k in e.msgstr_plural}
            elif e.msgid != left:
                e.msgstr = f"fr {e.msgid}"
        po.save()
    labels = pack / "locale" / "labels" / "fr.po"
    entry = polib.pofile(str(labels)).find(left, msgctxt="label")
    assert entry is not None and entry.occurrences[0][0] == "mazmorra:templates/artimana.xml.j2"
    line = next(n for n, t in enumerate(labels.read_text(encoding="utf-8").splitlines(), 1) if t == f'msgid "{left}"')
    res = run_cli("build", "expedicion", "--lang", "fr", "-d", "artimanas", cwd=project)
    assert res.returncode == 1
    said = [ln for ln in res.stderr.splitlines() if "(i18n.label)" in ln]
    assert len(said) == 1 and said[0].startswith(f"content/expedicion/locale/labels/fr.po:{line + 1}:"), res.stderr
    assert f"(printed by mazmorra:templates/artimana.xml.j2:{entry.occurrences[0][1]})" in said[0]
    assert not any("cli/mazmorra" in ln or "site-packages" in ln for ln in res.stderr.splitlines())
