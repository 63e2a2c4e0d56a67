"""`mazmorra diff --format markdown`, the changelog players read: a real two-revision round of a
designer's potion deck (a CSV with its English beside it, a kind of its own with field labels, its
own template). Players read every word in the build's language: fields by their labels, icon tokens
by their words, and never a field no template prints (a default colour, a designer's note)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import REPO, edit, run_cli, write_pack

KIND = """name: pocion
extends: card
summary: A potion with a strength
template: pocion.xml.j2
fields:
  potencia: {type: int, min: 0, max: 9, default: 1, label: {es: Potencia, en: Potency}}
  nota: {type: string, description: "the designer's own note, never printed"}
"""
TEMPLATE = """<card background="#5b2c6f">
  <text role="title" x="5" y="5" w="{{ w - 10 }}" h="9" size="11" field="name">{{ card.name }}</text>
  <text role="label" x="5" y="16" w="{{ w - 10 }}" h="6" size="9">{{ card.potencia }}</text>
  <text x="5" y="24" w="{{ w - 10 }}" h="{{ h - 30 }}" size="9" min-size="6" field="text">{{ card.text }}</text>
</card>
"""
CSV = (
    "id,name,name@en,text,text@en,potencia,nota,colour\n"
    "sanadora,Poción sanadora,Healing Potion,Cura 2 heridas.,Heal 2 wounds.,2,revisar,#aa0000\n"
    "veneno,Veneno,Poison,Causa 1 herida.,Deal 1 wound.,1,,\n"
)
FIELD_IDS = ("potencia", "nota", "colour", "text", "name")


def round_of_potions(tmp_path: Path) -> tuple[Path, Path]:
    """Round 1 kept in a folder; round 2 in the project: a strength up, a text given an icon token,
    the designer's note and the card's (unprinted) colour changed, a potion added."""
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: Pociones\nsource_language: es\nlanguages: [es, en]\n"
            "decks:\n  - {id: pociones, kind: pocion, name: Pociones, file: decks/pociones.csv}\n",
            "kinds/pocion.yaml": KIND,
            "templates/pocion.xml.j2": TEMPLATE,
            "decks/pociones.csv": CSV,
            "locale/en.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgctxt "pack.name"\nmsgid "Pociones"\nmsgstr "Potions"\n\n'
            'msgctxt "deck:pociones.name"\nmsgid "Pociones"\nmsgstr "Potions"\n',
        },
    )
    before = tmp_path / "round1" / "p"
    shutil.copytree(pack, before)
    deck = pack / "decks" / "pociones.csv"
    edit(deck, "Cura 2 heridas.,Heal 2 wounds.,2,revisar,#aa0000", "Cura {wound:2}.,Heal {wound:2}.,3,hecho,#00aa00")
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text + "elixir,Elixir,Elixir,Roba {draw:1}.,Draw {draw:1}.,4,nuevo,#123456\n", encoding="utf-8")
    return pack, before


def markdown(root: Path, before: Path, lang: str) -> str:
    res = run_cli("diff", "p", "--since", str(before), "--format", "markdown", "--lang", lang, cwd=root)
    assert res.returncode == 0, res.stdout + res.stderr
    assert not res.stderr, res.stderr  # every word has its translation: none falls back to English
    return res.stdout


def test_the_players_changelog_speaks_their_language(tmp_path: Path) -> None:
    _, before = round_of_potions(tmp_path)
    es, en = markdown(tmp_path, before, "es"), markdown(tmp_path, before, "en")
    for md in (es, en):
        assert not re.search(r"\{[a-z][a-z0-9_:=-]*\}", md), f"an icon token as written: {md}"
        for field in FIELD_IDS:  # no field by its id, in prose or in code
            assert not re.search(rf"(?<![\w`])`?{field}`?:", md), (field, md)
        assert "revisar" not in md and "hecho" not in md, "the note prints on no face: players never see it"
        assert "#aa0000" not in md and "#00aa00" not in md, "nor does the colour: the template paints its own"
    assert "  - Potencia: ~~2~~ **3**" in es
    assert "  - Texto: Cura 2 ~~heridas~~ **× herida**." in es, es
    assert "- **Elixir** (`elixir`): imprime 1 copia" in es
    assert "  - Potency: ~~2~~ **3**" in en
    assert "  - Text: Heal 2 ~~wounds~~ **× wound**." in en, en
    for spanish in ("Potencia", "Texto", "herida", "Cambiados", "Añadidos", "copia"):
        assert spanish not in en, spanish


def test_the_designers_diff_keeps_ids_but_lists_only_printed_fields(tmp_path: Path) -> None:
    _, before = round_of_potions(tmp_path)
    res = run_cli("diff", "p", "--since", str(before), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "      potencia: [-2-]{+3+}" in res.stdout and "      text: Cura " in res.stdout
    assert "nota:" not in res.stdout and "colour:" not in res.stdout, res.stdout
    data = json.loads(run_cli("diff", "p", "--since", str(before), "--format", "json", cwd=tmp_path).stdout)
    changes = {c["component"]: c for c in data["changes"]}
    assert [f["field"] for f in changes["sanadora"]["fields"]] == ["text", "potencia"]
    assert {f["field"] for f in changes["elixir"]["fields"]} == {"name", "text", "potencia"}


def test_a_field_label_is_translated_through_the_catalogues_when_the_kind_gives_one_word(tmp_path: Path) -> None:
    pack, before = round_of_potions(tmp_path)
    edit(pack / "kinds" / "pocion.yaml", "label: {es: Potencia, en: Potency}", "label: Potency")
    res = run_cli("diff", "p", "--since", str(before), "--format", "markdown", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "  - Potency: ~~2~~ **3**" in res.stdout
    assert "have no 'es' translation" in res.stderr and "Potency" in res.stderr, res.stderr
    (pack / "locale" / "es.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "label"\nmsgid "Potency"\nmsgstr "Fuerza de la poción"\n',
        encoding="utf-8",
    )
    assert "  - Fuerza de la poción: ~~2~~ **3**" in markdown(tmp_path, before, "es")


def test_every_built_in_field_and_shipped_icon_has_its_spanish_word() -> None:
    import polib

    from mazmorra import kinds
    from mazmorra.model.declared.spec import field_words
    from mazmorra.rounds.players import icon_words
    from mazmorra.support.paths import templates_dir

    po = polib.pofile(str(templates_dir() / "locale" / "es.po"))
    have = {e.msgid for e in po if e.msgstr and not e.obsolete}
    fields = {f for k in kinds.all_kinds().values() for f in k.model.model_fields} - {"id", "size"}
    icons = {p.stem for p in (templates_dir().parent / "icons").glob("*.svg")}
    assert len(fields) > 50 and len(icons) > 50
    missing = [field_words(f) for f in sorted(fields) if field_words(f) not in have]
    missing += [icon_words(i) for i in sorted(icons) if icon_words(i) not in have]
    assert not missing, missing


def test_a_template_labels_new_translation_is_named_as_the_cause(tmp_path: Path) -> None:
    """A label's translation edited in the pack's catalogue reprints every face printing it: each is
    put down to that catalogue, not to "none of its fields or files changed"."""
    pack, _ = round_of_potions(tmp_path)
    edit(pack / "templates" / "pocion.xml.j2", "{{ card.potencia }}", '{{ _("Potency") }} {{ card.potencia }}')
    labels = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgctxt "label"\nmsgid "Potency"\n'
    (pack / "locale" / "labels").mkdir()
    (pack / "locale" / "labels" / "es.po").write_text(labels + 'msgstr "Potencia"\n', encoding="utf-8")
    before = tmp_path / "round2" / "p"
    shutil.copytree(pack, before)
    edit(pack / "locale" / "labels" / "es.po", 'msgstr "Potencia"', 'msgstr "Fuerza"')
    data = json.loads(run_cli("diff", "p", "--since", str(before), "--format", "json", cwd=tmp_path).stdout)
    assert {c["component"] for c in data["changes"]} == {"sanadora", "veneno", "elixir"}
    assert all(c["causes"] == ["locale/labels/es.po"] and c["fields"] == [] for c in data["changes"]), data
    english = run_cli("diff", "p", "--since", str(before), "--format", "json", "--lang", "en", cwd=tmp_path)
    assert json.loads(english.stdout)["changes"] == [], "the Spanish catalogue prints nothing in English"


def test_a_deck_is_named_as_it_is_now_even_when_a_removed_card_comes_last(tmp_path: Path) -> None:
    pack, before = round_of_potions(tmp_path)
    edit(
        pack / "locale" / "en.po",
        'msgctxt "deck:pociones.name"\nmsgid "Pociones"\nmsgstr "Potions"',
        'msgctxt "deck:pociones.name"\nmsgid "Pociones"\nmsgstr "Potion Shelf"',
    )
    edit(pack / "decks" / "pociones.csv", "veneno,Veneno,Poison,Causa 1 herida.,Deal 1 wound.,1,,\n", "")
    en = markdown(tmp_path, before, "en")
    assert "| Potion Shelf | 1 | 1 | 1 |" in en and "## Potion Shelf" in en, en
    assert "- **Poison** (`veneno`): take out 1 copy" in en
    text = run_cli("diff", "p", "--since", str(before), "--lang", "en", cwd=tmp_path).stdout
    assert "Potion Shelf (pociones): 1 changed, 1 added, 1 removed" in text, text


def test_a_designers_own_names_are_in_the_packs_language_and_translated_like_labels(tmp_path: Path) -> None:
    """A kind file's field with no `label:` and an icon of the pack's own are named by the designer,
    in the pack's source language: as written in a Spanish changelog (no translation asked for),
    looked up in the label catalogues in English, and named on stderr while they have none there."""
    pack, before = round_of_potions(tmp_path)
    for root in (pack, before):
        edit(root / "kinds" / "pocion.yaml", "  nota:", "  dosis: {type: int, default: 1}\n  nota:")
        edit(root / "templates" / "pocion.xml.j2", "{{ card.potencia }}", "{{ card.potencia }} {{ card.dosis }}")
        (root / "icons").mkdir()
        shutil.copy(REPO / "cli" / "mazmorra" / "icons" / "coin.svg", root / "icons" / "caldero.svg")
    edit(pack / "kinds" / "pocion.yaml", "dosis: {type: int, default: 1}", "dosis: {type: int, default: 2}")
    edit(
        pack / "decks" / "pociones.csv",
        "Causa 1 herida.,Deal 1 wound.",
        "Causa 1 herida {caldero}.,Deal 1 wound {caldero}.",
    )
    es = markdown(tmp_path, before, "es")
    assert "  - Dosis: ~~1~~ **2**" in es and "Causa 1 herida **caldero**." in es, es
    res = run_cli("diff", "p", "--since", str(before), "--format", "markdown", "--lang", "en", cwd=tmp_path)
    assert res.returncode == 0 and "  - Dosis: ~~1~~ **2**" in res.stdout
    assert "2 word(s) of the changelog have no 'en' translation, left as written" in res.stderr, res.stderr
    assert "Dosis, caldero" in res.stderr, res.stderr
    with (pack / "locale" / "en.po").open("a", encoding="utf-8") as po:
        po.write(
            '\nmsgctxt "label"\nmsgid "Dosis"\nmsgstr "Dose"\n\nmsgctxt "label"\nmsgid "caldero"\nmsgstr "cauldron"\n'
        )
    en = markdown(tmp_path, before, "en")
    assert "  - Dose: ~~1~~ **2**" in en and "Deal 1 wound **cauldron**." in en, en
