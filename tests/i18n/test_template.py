"""The translation template (locale/<pack>.pot): `i18n extract` writes it, `i18n update` merges every
catalogue from it, and `i18n update --check` (CI) fails while a committed template or catalogue is
out of date with the pack's texts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, edit, line_of, need_tool, run_cli

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())
EPOCH = {"SOURCE_DATE_EPOCH": "1790000000"}  # 2026-09-21 14:13 UTC


@pytest.mark.slow
def test_the_committed_templates_and_catalogues_are_up_to_date() -> None:
    res = run_cli("i18n", "update", "--check")
    assert res.returncode == 0, res.stderr
    for pack in SAMPLES:
        assert (CONTENT / pack / "locale" / f"{pack}.pot").is_file()


@pytest.mark.slow
def test_a_text_edited_without_updating_the_catalogues_fails_the_check(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    pot, po = pack / "locale" / "muestras.pot", pack / "locale" / "en.po"
    before = pot.read_bytes(), po.read_bytes()
    edit(pack / "decks" / "cartas.yaml", "Cofre olvidado", "Cofre perdido")
    res = run_cli("i18n", "update", "--check", "muestras", cwd=project)
    assert res.returncode == 1
    # paths as the working folder reaches them; each stale text by its context, its change and its line
    assert "\ncontent/muestras/locale/muestras.pot: out of date" in f"\n{res.stderr.replace('✗ ', '')}"
    assert "content/muestras/locale/en.po: out of date" in res.stderr
    line = line_of(pack / "decks" / "cartas.yaml", "Cofre perdido")
    assert res.stderr.count(f"cofre-olvidado.name: text changed (content/muestras/decks/cartas.yaml:{line})") == 2
    assert "cofre-olvidado.text" not in res.stderr  # (its notes name the glossary term, not the name)
    elsewhere = run_cli("i18n", "update", "--check", cwd=pack / "decks")  # the pack the folder is in
    assert f"cofre-olvidado.name: text changed (cartas.yaml:{line})" in elsewhere.stderr
    assert "../locale/en.po: out of date" in elsewhere.stderr
    assert (pot.read_bytes(), po.read_bytes()) == before  # a check writes nothing
    assert run_cli("i18n", "update", "muestras", cwd=project, env=EPOCH).returncode == 0
    assert run_cli("i18n", "update", "--check", "muestras", cwd=project).returncode == 0
    template = polib.pofile(str(pot))
    assert template.metadata["POT-Creation-Date"] == "2026-09-21 14:13+0000"
    assert template.find("cofre-olvidado.name", by="msgctxt").msgid == "Cofre perdido"
    catalogue = polib.pofile(str(po))
    assert catalogue.metadata["POT-Creation-Date"] == "2026-09-21 14:13+0000"  # as msgmerge copies it
    entry = catalogue.find("cofre-olvidado.name", by="msgctxt")
    assert "fuzzy" in entry.flags and entry.previous_msgid == "Cofre olvidado"


@pytest.mark.slow
def test_extract_writes_a_template_msgfmt_accepts_with_references_relative_to_the_pack(
    pack_copy, tmp_path: Path
) -> None:
    need_tool("msgfmt")
    pack = pack_copy("cripta")
    pot = pack / "locale" / "cripta.pot"
    pot.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    res = run_cli("i18n", "extract", str(pack), cwd=elsewhere, env=EPOCH)
    assert res.returncode == 0, res.stderr
    assert str(tmp_path) not in res.stderr and "cripta/locale/cripta.pot: written" in res.stderr
    text = pot.read_bytes()
    assert text == (CONTENT / "cripta" / "locale" / "cripta.pot").read_bytes().replace(
        _date_line(CONTENT / "cripta" / "locale" / "cripta.pot"), b'"POT-Creation-Date: 2026-09-21 14:13+0000\\n"'
    )
    check = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(pot)], capture_output=True, text=True)
    assert check.returncode == 0 and "error" not in check.stderr, check.stderr
    template = polib.pofile(str(pot))
    assert template.metadata["X-Source-Language"] == "es" and not template.metadata["Language"]
    assert all(not e.msgstr for e in template)
    for e in template:
        for file, line in e.occurrences:
            assert (pack / file).is_file() and int(line) > 0
    # nothing changed: extracting again keeps the file and its date
    assert "up to date" in run_cli("i18n", "extract", "cripta", cwd=pack.parents[1]).stderr
    assert pot.read_bytes() == text


def _date_line(path: Path) -> bytes:
    return next(ln for ln in path.read_bytes().splitlines() if ln.startswith(b'"POT-Creation-Date:'))


def _entries(path: Path) -> list[tuple]:
    return [
        (
            e.msgctxt,
            e.msgid,
            e.msgstr,
            "fuzzy" in e.flags,
            e.previous_msgid,
            e.comment,
            tuple(e.occurrences),
            e.obsolete,
        )
        for e in polib.pofile(str(path), wrapwidth=0)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_msgmerge_against_the_template_gives_the_catalogue_update_writes(pack_copy, name: str) -> None:
    """Every sample, after an edit, a removal and a new text: GNU msgmerge of each catalogue against
    the extracted template holds the same entries as `i18n update` writes, but for the texts a
    spreadsheet translates in the catalogue's language (the template lists every text; the
    catalogue leaves those to the spreadsheet's column)."""
    need_tool("msgmerge")
    pack = pack_copy(name)
    project = pack.parents[1]
    template = polib.pofile(str(pack / "locale" / f"{name}.pot"))
    texts = [e for e in template if not e.msgctxt.startswith(("pack.", "deck:"))]
    assert len(texts) >= 2
    first, second = texts[0], texts[-1]
    decks = [p for p in (pack / "decks").iterdir() if p.suffix == ".yaml"] if (pack / "decks").is_dir() else []
    edited = False
    for deck in decks:
        text = deck.read_text(encoding="utf-8")
        for e in (first, second):
            source = e.msgid.split("\n")[0]
            if f" {source}\n" in text and not edited:
                deck.write_text(
                    text.replace(f" {source}\n", f" {source[:-1]}\n", 1), encoding="utf-8"
                )  # within any limit
                edited = True
    name_text = template.find("pack.name", by="msgctxt").msgid
    edit(pack / "pack.yaml", f"name: {name_text}", f"name: {name_text} II")  # a small edit: msgmerge keeps it fuzzy
    assert run_cli("i18n", "extract", name, cwd=project).returncode == 0
    pot = pack / "locale" / f"{name}.pot"
    catalogues = [p for p in (pack / "locale").glob("*.po")]
    assert catalogues
    from mazmorra.i18n.localise import spreadsheet_texts
    from mazmorra.load import load_pack

    loaded = load_pack(pack)
    expected = {}
    for po in catalogues:
        out = project / f"expected-{po.name}"
        subprocess.run(["msgmerge", "--quiet", "--previous", str(po), str(pot), "-o", str(out)], check=True)
        in_sheet = {f"{c}.{f}" for c, f in spreadsheet_texts(loaded, po.stem)}
        expected[po.name] = [e for e in _entries(out) if e[0] not in in_sheet or e[7]]
    res = run_cli("i18n", "update", name, cwd=project)
    assert res.returncode == 0, res.stderr
    for po in catalogues:
        assert _entries(po) == expected[po.name]
        assert any(e[3] for e in expected[po.name])  # the edit made something fuzzy: the merge did work


def _documented_weblate_component() -> dict:
    import re

    import yaml

    doc = (CONTENT.parent / "docs" / "translating.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n# weblate-component\n(.*?)```", doc, re.DOTALL)
    assert block, "docs/translating.md lost its Weblate component block"
    data = yaml.safe_load(block.group(1))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("name", SAMPLES)
def test_the_documented_weblate_and_poedit_configuration_fits_the_real_files(name: str) -> None:
    import re

    from mazmorra.load import load_pack
    from mazmorra.model.cardtext import TOKEN

    doc = _documented_weblate_component()
    pack = load_pack(CONTENT / name)
    repo = CONTENT.parent

    def mine(value: str) -> str:
        return value.replace("expedicion", name)

    assert doc["file_format"] == "po" and doc["template"] == "" and doc["new_lang"] == "add"
    assert "weblate.gettext.msgmerge" not in doc["addons"]  # it would drop the max-length budgets
    matched = sorted(p.relative_to(repo).as_posix() for p in repo.glob(mine(doc["filemask"])))
    others = [lang for lang in pack.spec.languages if lang != pack.spec.source_language]
    assert matched == sorted(f"content/{name}/locale/{lang}.po" for lang in others)
    template = polib.pofile(str(repo / mine(doc["new_base"])))
    assert template.metadata["X-Source-Language"] == pack.spec.source_language
    if name == "expedicion":
        assert doc["source_language"] == pack.spec.source_language
    codes = [*pack.spec.languages, "pt_BR", "ja", "es_419", "zh_Hant", "sr_Latn", "zh_Hant_TW"]
    assert all(re.fullmatch(doc["language_regex"], lang) for lang in codes)
    assert not any(re.fullmatch(doc["language_regex"], x) for x in ("../x", "labels", "screenshots", "EN", "es-419"))
    # the screenshot file mask finds every picture an entry names
    import fnmatch

    pictures = {
        line.split("picture: ", 1)[1] for e in template for line in e.comment.splitlines() if "picture: " in line
    }
    assert pictures and all(
        fnmatch.fnmatch(f"content/{name}/locale/{p}", mine(doc["screenshot_filemask"])) for p in pictures
    )
    placeholders = re.search(r'placeholders:r"(.*?)"(?:,|$)', doc["check_flags"])
    assert placeholders and "md-text" in doc["check_flags"]
    weblate = re.compile(placeholders.group(1))
    for e in template:
        assert sorted(weblate.findall(e.msgid)) == sorted(m.group(0) for m in TOKEN.finditer(e.msgid)), e.msgctxt
    # Poedit: the base path every catalogue declares is the folder its references are relative to.
    for po in [*(pack.root / "locale").glob("*.po"), pack.root / "locale" / f"{name}.pot"]:
        cat = polib.pofile(str(po))
        base = po.parent / cat.metadata["X-Poedit-Basepath"]
        assert base.resolve() == pack.root.resolve()
        assert all((base / f).is_file() for e in cat for f, _ in e.occurrences)


def test_the_weblate_placeholder_check_catches_a_dropped_icon_token() -> None:
    import re

    flags = _documented_weblate_component()["check_flags"]
    weblate = re.compile(re.search(r'placeholders:r"(.*?)"(?:,|$)', flags).group(1))
    source, translation = "Gain {coin=3} and draw {draw:2}.", "Gain 3 coins and draw {draw:2}."
    assert sorted(weblate.findall(source)) != sorted(weblate.findall(translation))


@pytest.mark.parametrize("name", SAMPLES)
def test_catalogue_headers_name_real_people_and_the_source_language(name: str) -> None:
    from mazmorra.load import load_pack

    pack = load_pack(CONTENT / name)
    for po in (CONTENT / name / "locale").glob("*.po"):
        meta = polib.pofile(str(po)).metadata
        assert meta["X-Source-Language"] == pack.spec.source_language
        for field in ("Last-Translator", "Language-Team"):
            assert meta[field] and not any(p in meta[field] for p in ("FULL NAME", "EMAIL@ADDRESS", "LL@li.org"))


TEAMS = {"de": "German", "es_419": "Spanish", "zh_Hant": "Chinese", "sr_Latn": "Serbian"}


@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(TEAMS))
def test_a_new_catalogues_header_is_the_one_msginit_writes(pack_copy, tmp_path: Path, lang: str) -> None:
    """Not the pack's author as its translator: gettext's placeholder, which the translator's editor
    fills in, the language's name as its team, and the time it was made, as `msginit` writes them;
    the language code (BCP 47's subtags, as gettext and Weblate write them) as given."""
    pack = pack_copy("muestras")
    res = run_cli("i18n", "add", lang, "muestras", cwd=pack.parents[1], env=EPOCH)
    assert res.returncode == 0, res.stderr
    assert f"{lang}]" in (pack / "pack.yaml").read_text(encoding="utf-8")
    meta = polib.pofile(str(pack / "locale" / f"{lang}.po")).metadata
    assert meta["Last-Translator"] == "FULL NAME <EMAIL@ADDRESS>" and meta["Language-Team"] == TEAMS[lang]
    assert meta["PO-Revision-Date"] == "2026-09-21 14:13+0000" and meta["Language"] == lang
    assert meta["X-Source-Language"] == "es"
    need_tool("msginit")
    gnu = tmp_path / "gnu.po"
    pot = pack / "locale" / "muestras.pot"
    subprocess.run(
        ["msginit", "-l", lang, "-i", str(pot), "-o", str(gnu)],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=True,
    )
    theirs = polib.pofile(str(gnu)).metadata
    assert meta["Language"] == theirs["Language"]
    assert meta["Language-Team"] == theirs["Language-Team"].split(" <")[0]  # msginit adds a team's list, if any
    assert theirs["Last-Translator"].endswith("<EMAIL@ADDRESS>")  # its placeholder, with this machine's user
    if "Plural-Forms" in theirs:  # (msginit knows none for zh_Hant; CLDR's is one form)
        assert meta["Plural-Forms"].split(";")[0] == theirs["Plural-Forms"].split(";")[0]


@pytest.mark.parametrize("name", SAMPLES)
def test_template_labels_have_their_own_catalogue_with_one_source_language(name: str) -> None:
    from mazmorra.commands.i18n import _pack_labels
    from mazmorra.load import load_pack

    pack = load_pack(CONTENT / name)
    locale = CONTENT / name / "locale"
    for po in locale.glob("*.po"):  # the pack's texts: its source language only
        assert not [e for e in polib.pofile(str(po)) if e.msgctxt == "label"], po
    template = polib.pofile(str(locale / "labels.pot"))
    printed = {label.msgid for label in _pack_labels(pack)}  # muestras prints only the removal list's
    assert template.metadata["X-Source-Language"] == "en" and {e.msgid for e in template} == printed
    source = pack.spec.source_language
    labels = polib.pofile(str(locale / "labels" / f"{source}.po"))  # created for the source language too
    assert labels.metadata["X-Source-Language"] == "en" and labels.metadata["Language"] == source
    untranslated = [e.msgid for e in labels if not (all(e.msgstr_plural.values()) if e.msgid_plural else e.msgstr)]
    assert untranslated == []  # filled from the tool's catalogue: no hand-written es.po
    assert {e.msgid for e in labels if not e.obsolete} <= {e.msgid for e in template}  # #~ kept, as msgmerge does


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_msgmerge_of_the_label_catalogues_gives_what_update_writes(pack_copy, name: str) -> None:
    """The template labels' catalogues too: after a label's text changed, a label entry lost and a
    translator's comment, GNU msgmerge of locale/labels/<lang>.po against locale/labels.pot (the
    tool's and the pack's catalogues as compendia, where new entries start from) holds the same
    entries as `i18n update` writes, and msgfmt accepts the template and every catalogue."""
    from mazmorra.commands.i18n import _pack_labels
    from mazmorra.load import load_pack
    from mazmorra.support.paths import templates_dir

    need_tool("msgmerge")
    pack = pack_copy(name)
    labels = _pack_labels(load_pack(pack))
    project = pack.parents[1]
    pot = pack / "locale" / "labels.pot"
    catalogues = sorted((pack / "locale" / "labels").glob("*.po"))
    assert catalogues
    compendia = {po.name: [templates_dir() / "locale" / po.name, pack / "locale" / po.name] for po in catalogues}
    edited: dict[str, tuple[str, bool]] = {}
    for po in catalogues:
        known = {e.msgid for c in compendia[po.name] if c.is_file() for e in polib.pofile(str(c))}
        cat = polib.pofile(str(po), wrapwidth=0)
        done = [e for e in cat if not e.obsolete and (e.msgstr or any(e.msgstr_plural.values()))]
        order = [e for e in done if e.msgid not in known] + [e for e in done if e.msgid in known]
        if order:  # the template's label was edited since: fuzzy, or the compendium's exact match
            edited[po.name] = (order[0].msgid, order[0].msgid not in known)
            order[0].msgid += " now"
        if len(order) > 1:
            order[1].comment = "translator: keep it short"
        if len(order) > 2:
            cat.remove(order[2])  # lost: both start it again from the compendia
        cat.save()
    expected = {}
    for po in catalogues:
        out = project / f"expected-{po.name}"
        cmd = ["msgmerge", "--quiet", "--previous"]
        for c in compendia[po.name]:
            if c.is_file():
                cmd += ["--compendium", str(c)]
        subprocess.run([*cmd, str(po), str(pot), "-o", str(out)], check=True)
        # the one deliberate difference: a word the kind file gives in this language has no entry
        given = {label.msgid for label in labels if po.stem in dict(label.words)}
        expected[po.name] = [e for e in _entries(out) if e[7] or e[1] not in given]
    res = run_cli("i18n", "update", name, cwd=project)
    assert res.returncode == 0, res.stderr
    assert "labels.pot" not in res.stderr  # the template is the same from any working folder
    for po in catalogues:
        assert _entries(po) == expected[po.name], po.name
        if po.name in edited:  # the merge did work: the edited label fuzzy, or its old text obsolete
            msgid, fresh = edited[po.name]
            entry = polib.pofile(str(po)).find(msgid, msgctxt="label")
            assert entry is not None and ("fuzzy" in entry.flags) == fresh
            assert any(e[1] == msgid + " now" and e[7] for e in expected[po.name]) != fresh
    need_tool("msgfmt")
    for path in (pot, *catalogues):
        check = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr


def test_the_template_holds_every_source_text_with_its_budgets_whatever_languages_the_pack_has(pack_copy) -> None:
    """A pack translated in a spreadsheet's Spanish and English columns: the template still lists each
    of its texts with both budgets (the next language's translator starts from it); the English
    catalogue leaves them to the spreadsheet."""
    pack = pack_copy("grimorio")
    edit(pack / "pack.yaml", "languages: [es, en, fr]", "languages: [es, en]")
    (pack / "locale" / "fr.po").unlink()
    import openpyxl

    book = openpyxl.load_workbook(pack / "decks" / "hechizos.xlsx")
    sheet = book["Hechizos"]
    for col in sorted((c.column for c in sheet[1] if str(c.value or "").endswith("@fr")), reverse=True):
        sheet.delete_cols(col)  # a workbook with Spanish and English columns only
    book.save(pack / "decks" / "hechizos.xlsx")
    res = run_cli("i18n", "update", "grimorio", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    from mazmorra.i18n.localise import pack_messages, spreadsheet_texts
    from mazmorra.load import load_pack

    loaded = load_pack(pack)
    texts = [m.ctx for m in pack_messages(loaded)]
    in_sheet = [(c, f) for c, f in spreadsheet_texts(loaded, "en") if f"{c}.{f}" in texts]
    assert len(in_sheet) >= 20  # the workbook's spells, translated in their `@en` columns
    template = {e.msgctxt: e for e in polib.pofile(str(pack / "locale" / "grimorio.pot"))}
    assert list(template) == texts  # every source text, in content order
    for comp, fld in in_sheet:
        e = template[f"{comp}.{fld}"]
        assert any(f.startswith("max-size:") for f in e.flags) and "budget: fits at" in e.comment.replace("\n", " ")
    english = {e.msgctxt for e in polib.pofile(str(pack / "locale" / "en.po"))}
    assert not english & {f"{c}.{f}" for c, f in in_sheet}
