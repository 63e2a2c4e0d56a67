"""Budgets in the catalogue: what a translator sees while typing (the box, type sizes, both budgets:
the design budget and the hard limit, in words and as Weblate's flags, `max-size` with its font group
and size, `max-length` only where characters are the measure; what each icon token is, glossary
notes; a format flag msgfmt checks), and what a build makes of them (over the hard limit: an error at
the .po line; below the design size: a warning, an error under --strict)."""

from __future__ import annotations

import json
import re
import subprocess

import polib
import pytest
from conftest import CONTENT, TESTS, edit, need_tool, pdf_read, run_cli

from mazmorra.i18n.catalogues.budgets import PX_PER_PT
from mazmorra.load import load_pack
from mazmorra.model.cardtext import TOKEN

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())


BUDGET = re.compile(
    r"budget: fits at ([\d.]+) pt: about (\d+) characters \((?:one line|(\d+) lines)\); at most (\d+) characters "
    r"at ([\d.]+) pt, the smallest size; Weblate checks the width: (\d+) px × (?:one line|(\d+) lines)"
    r"(?:, a paragraph break counted as one)? at (\d+) px( \(a rectangle as roomy as the circular box\))?"
)
NO_BOX = "budget: printed in no text box of a card"


def budgets_of(e: polib.POEntry) -> tuple[int, int] | None:
    """An entry's design budget and hard limit (characters), as its `#.` line states them."""
    m = BUDGET.search(" ".join(e.comment.splitlines()))
    return (int(m.group(2)), int(m.group(4))) if m else None


def flag_values(e: polib.POEntry) -> dict[str, list[str]]:
    return {f.split(":")[0]: f.split(":")[1:] for f in e.flags}


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
            assert NO_BOX in " ".join(e.comment.splitlines()), e.msgctxt  # the pack's and decks' names
            continue
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


CATALOGUES = sorted(
    p.relative_to(CONTENT).as_posix()
    for p in CONTENT.glob("*/locale/*.po*")
    if p.name != "labels.pot" and (p.parent / "labels").is_dir()
)


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_entry_of_every_sample_catalogue_carries_both_budgets(name: str) -> None:
    """In words (Poedit) and as Weblate's flags: the design budget below the hard limit, the width
    at the design size in the pack's font group, and a character count only where it is the measure."""
    cat = polib.pofile(str(CONTENT / name))
    pack = name.split("/")[0]
    assert len(cat) > 0
    for e in cat:
        words = " ".join(e.comment.splitlines())
        found = budgets_of(e)
        if found is None:
            assert NO_BOX in words, (name, e.msgctxt)  # names printed in no box: documents, gallery, exports
            assert not any(f.startswith("max-size") for f in e.flags), e.msgctxt
            continue
        room, hard = found
        assert 0 < room <= hard, (name, e.msgctxt)
        m = BUDGET.search(words)
        assert m is not None
        size, px, width = float(m.group(1)), int(m.group(8)), int(m.group(6))
        flags = flag_values(e)
        lines = int(m.group(7) or 1)
        assert flags["max-size"] == [str(width), str(lines)], e.msgctxt
        assert flags["font-size"] == [str(px)] and px == round(size * PX_PER_PT)
        assert flags["font-family"][0].startswith(f"{pack}-"), e.msgctxt
        box = re.search(r"box (\d+\.\d)×", words)
        assert box, e.msgctxt
        if m.group(9) is None:  # 1 pt = px/size, the box's width (a circular box: a rectangle as roomy)
            assert abs(width - float(box.group(1)) * 72 / 25.4 * px / size) <= 0.05 * px / size + 1, e.msgctxt
        else:
            assert width < float(box.group(1)) * 72 / 25.4 * px / size, e.msgctxt


def test_the_pot_header_names_each_font_group_with_its_file() -> None:
    text = (CONTENT / "grimorio" / "locale" / "grimorio.pot").read_text(encoding="utf-8")
    header = text.split('msgid ""')[0]
    groups = set(re.findall(r"font-family:([\w-]+)", text))
    assert groups and all(re.search(rf"^# {g}: \S+\.(ttf|otf)", header, re.MULTILINE) for g in groups), header


# Weblate's flag grammar (weblate/checks/parser.py, pyparsing): `name(:param)*` separated by commas;
# a name or an unquoted param is a run of characters but , : " ' \ (no surrounding white space); a
# param may be quoted. Its typed flags (weblate/checks/flags.py, checks/render.py): the ones we write.
FLAG_NAME = r"""[^,:"'\\ \r\n\t](?:[^,:"'\\]*[^,:"'\\ \r\n\t])?"""
FLAG_PARAM = rf"""(?:{FLAG_NAME}|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")?"""
FLAG = re.compile(rf"\s*({FLAG_NAME})((?:\s*:\s*{FLAG_PARAM})*)\s*")
TYPED = {
    "max-size": (1, 2, int),
    "font-size": (1, 1, int),
    "font-spacing": (1, 1, int),
    "max-length": (1, 1, int),
    "font-family": (1, 1, str),
    "replacements": (2, 10**6, str),  # pairs: what Weblate renders in place of what (quoted: tokens hold colons)
}
PLAIN = {"python-brace-format", "fuzzy"}


def weblate_flags(text: str) -> list[tuple[str, list[str]]]:
    """A `#,` line's flags as Weblate's parser reads them; ValueError where it would not."""
    out = []
    for part in text.split(","):  # no value we write holds a comma, so a comma always separates flags
        m = FLAG.fullmatch(part)
        if m is None:
            raise ValueError(f"not a Weblate flag: {part!r}")
        params = re.findall(rf"\s*:\s*({FLAG_PARAM})", m.group(2))
        out.append((m.group(1), [p[1:-1] if p[:1] in "\"'" and len(p) > 1 else p for p in params]))
    return out


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_flag_parses_with_weblates_grammar_and_types(name: str) -> None:
    for line in (CONTENT / name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("#, "):
            continue
        for flag, params in weblate_flags(line[3:]):
            if flag in PLAIN:
                assert not params, line
                continue
            least, most, kind = TYPED[flag]
            assert least <= len(params) <= most, line
            assert flag != "replacements" or len(params) % 2 == 0, line
            assert all(kind(p) or True for p in params), line  # int("x") raises
            assert flag != "font-family" or re.fullmatch(r"[-\w]+", params[0]), line  # a slug: a group's name


def test_the_flag_grammar_refuses_what_weblate_refuses() -> None:
    with pytest.raises(ValueError):
        weblate_flags('max-size:1"2')
    with pytest.raises(ValueError):
        weblate_flags("max-size:12'")  # an unclosed quote
    assert weblate_flags("max-size:144:2, font-family:pack-sans") == [
        ("max-size", ["144", "2"]),
        ("font-family", ["pack-sans"]),
    ]
    assert weblate_flags('replacements:"{coin:1}":"MMi":"**":""') == [("replacements", ["{coin:1}", "MMi", "**", ""])]


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


def test_a_translation_over_its_hard_limit_overflows_at_its_po_line_and_one_within_fits(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("ojo-del-vigia.text", by="msgctxt")
    found = budgets_of(entry)
    assert found is not None
    hard = found[1]
    filler = (entry.msgstr + " ") * 40
    entry.msgstr = filler[:hard].rstrip()  # at the hard limit: the box holds it at the smallest size
    cat.save()
    ok = run_cli("validate", "muestras", cwd=project)
    assert ok.returncode == 0, ok.stderr
    assert "text.overflow" not in ok.stderr
    cat = polib.pofile(str(po), wrapwidth=0)
    cat.find("ojo-del-vigia.text", by="msgctxt").msgstr = filler[: int(hard * 1.15)].rstrip()
    cat.save()
    res = run_cli("validate", "muestras", cwd=project)
    assert res.returncode == 1
    line = _msgstr_line(po, "ojo-del-vigia.text")
    located = [ln for ln in res.stderr.splitlines() if "(text.overflow)" in ln]
    assert located and located[0].startswith(f"content/muestras/locale/en.po:{line}:"), res.stderr


def _filler(source: str, n: int) -> str:
    """n characters of text like `source` (its characters repeated), as the budgets are measured."""
    filler = " ".join(source.split()) + " "
    return (filler * (n // len(filler) + 1))[:n].rstrip()


def _sizes(pdf, text: str) -> set[float]:
    return {round(size, 2) for run, size in pdf_read(pdf)[1] if run.strip() == text}


def test_a_translation_at_its_design_budget_prints_at_the_design_size_and_one_more_is_reported(pack_copy) -> None:
    """The design budget is what the box holds unshrunk: built and read back from the PDF, a title of
    exactly that many characters is drawn at the design size; the next character shrinks it, which the
    build reports at the .po line (an error under --strict)."""
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("ojo-del-vigia.name", by="msgctxt")
    found = budgets_of(entry)
    assert found is not None
    room = found[0]
    m = BUDGET.search(" ".join(entry.comment.splitlines()))
    assert m is not None
    design = float(m.group(1))
    at = _filler(entry.msgid, room)
    assert len(at) == room
    entry.msgstr = at
    cat.save()
    res = run_cli("build", "muestras", "--lang", "en", "--strict", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "i18n.shrunk" not in res.stderr
    pdf = project / "output" / "muestras" / "en" / "loose-cards.pdf"
    assert _sizes(pdf, at) == {design}, (at, pdf_read(pdf)[1])
    over = _filler(entry.msgid, room + 1)
    over = over if len(over) > room else _filler(entry.msgid, room + 2)  # the next character was a space
    assert len(over) > room
    cat = polib.pofile(str(po), wrapwidth=0)
    cat.find("ojo-del-vigia.name", by="msgctxt").msgstr = over
    cat.save()
    res = run_cli("build", "muestras", "--lang", "en", cwd=project)
    assert res.returncode == 0, res.stderr
    line = _msgstr_line(po, "ojo-del-vigia.name")
    located = [ln for ln in res.stderr.splitlines() if ln.endswith("(i18n.shrunk)")]
    assert located and located[0].startswith(f"content/muestras/locale/en.po:{line}:1: warning"), res.stderr
    assert f"design size {design:g} pt to " in located[0] and f"about {room} characters" in located[0]
    (size,) = _sizes(pdf, over)
    assert size < design
    strict = run_cli("build", "muestras", "--lang", "en", "--strict", cwd=project)
    assert strict.returncode == 1 and "(i18n.shrunk)" in strict.stderr


def test_a_text_shrunk_below_its_design_size_is_a_warning_with_both_sizes(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po = pack / "locale" / "en.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("ojo-del-vigia.text", by="msgctxt")
    entry.msgstr = " ".join([entry.msgstr] * 4)  # fits, but only well below 11 pt
    cat.save()
    build = run_cli("validate", "muestras", cwd=project)
    assert build.returncode == 0 and "text.shrunk" not in build.stderr  # only the translation's own warning
    line = _msgstr_line(po, "ojo-del-vigia.text")
    assert f"content/muestras/locale/en.po:{line}:1: warning [ojo-del-vigia.text] (en)" in build.stderr
    assert "(i18n.shrunk)" in build.stderr
    res = run_cli("i18n", "status", "muestras", "--json", cwd=project)
    en = next(d for d in json.loads(res.stdout) if d["lang"] == "en")
    (shrunk,) = [s for s in en["shrunk"] if s["component"] == "ojo-del-vigia"]
    sizes = re.search(r"design size ([\d.]+) pt to ([\d.]+) pt", shrunk["message"])
    assert sizes and float(sizes.group(1)) == 11 and 6.5 <= float(sizes.group(2)) < 11
    assert shrunk["file"] == "content/muestras/locale/en.po" and shrunk["line"] == line
    es = next(d for d in json.loads(res.stdout) if d["lang"] == "es")
    assert not [s for s in es["shrunk"] if s["component"] == "ojo-del-vigia"]
    table = run_cli("i18n", "status", "muestras", cwd=project)
    assert "shrunk" in table.stdout and "ojo-del-vigia.text" in table.stdout


def test_a_catalogue_that_lost_its_budgets_is_held_to_the_templates(pack_copy) -> None:
    """GNU msgmerge and msgcat drop flags they do not know (`max-length:N`): the template keeps them."""
    pack = pack_copy("expedicion")
    po = pack / "locale" / "en.po"
    ctx = "estrella-propicia.name"  # a title: one line, its hard limit below the kind's limit
    cat = polib.pofile(str(po), wrapwidth=0)
    for e in cat:
        e.flags = [f for f in e.flags if not f.startswith("max-length")]
    entry = cat.find(ctx, by="msgctxt")
    template = polib.pofile(str(pack / "locale" / "expedicion.pot")).find(ctx, by="msgctxt")
    budget = int(next(f for f in template.flags if f.startswith("max-length:")).split(":")[1])
    found = budgets_of(template)
    assert found is not None and budget == found[1]  # max-length is the hard limit
    entry.msgstr = ((entry.msgstr + " ") * 40)[: budget + 2].rstrip()
    cat.save()
    res = run_cli("validate", "expedicion", cwd=pack.parents[1])
    assert res.returncode == 1
    assert f"content/expedicion/locale/en.po:{_msgstr_line(po, ctx)}:" in res.stderr
    assert f"budget is {budget}" in res.stderr


def test_a_japanese_title_within_the_characters_but_not_the_width_is_caught_by_the_width_budget(
    tmp_path,
) -> None:
    """Japanese: no character count in its catalogue (a kanji is about two Latin letters wide), the
    width budget instead: a title with fewer characters than the design budget is too wide for the
    box at the design size, which Weblate's max-size measures (here with the same font, at the
    flag's pixels) and the build reports at the .po line."""
    import shutil

    from mazmorra.assets import fonts

    pack = tmp_path / "content" / "kanji"
    shutil.copytree(TESTS / "packs" / "kanji", pack)
    assert run_cli("i18n", "update", "kanji", cwd=tmp_path).returncode == 0
    ja = polib.pofile(str(pack / "locale" / "ja.po"), wrapwidth=0)
    en = polib.pofile(str(pack / "locale" / "en.po"), wrapwidth=0)
    assert not [e.msgctxt for e in ja if any(f.startswith("max-length") for f in e.flags)]
    assert [e for e in en if e.msgctxt == "antorcha.name" and any(f.startswith("max-length") for f in e.flags)]
    entry = ja.find("antorcha.name", by="msgctxt")
    flags = flag_values(entry)
    width, px, group = int(flags["max-size"][0]), int(flags["font-size"][0]), flags["font-family"][0]
    assert group == "kanji-serif-bold" and "kanji-serif-bold: DejaVuSerifCondensed-Bold.ttf (ja: TansakuGothic" in (
        pack / "locale" / "kanji.pot"
    ).read_text(encoding="utf-8")
    found = budgets_of(entry)
    assert found is not None
    title = "通路の奥で眠る竜を起こさずに宝箱を開"  # 18 characters, each in the pack's subset font
    assert len(title) <= found[0]  # within the design budget in characters
    fonts.pack_fonts(pack)
    assert fonts.width(title, "Tansaku Gothic", px) > width  # Weblate's max-size: wider than the box
    assert fonts.width("たいまつ", "Tansaku Gothic", px) <= width  # the shipped translation is not
    entry.msgstr = title
    ja.save()
    res = run_cli("build", "kanji", "--lang", "ja", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    line = _msgstr_line(pack / "locale" / "ja.po", "antorcha.name")
    located = [ln for ln in res.stderr.splitlines() if ln.endswith("(i18n.shrunk)")]
    assert located and located[0].startswith(f"content/kanji/locale/ja.po:{line}:1: warning [antorcha.name] (ja)")
